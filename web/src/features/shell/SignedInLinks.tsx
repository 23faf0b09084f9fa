/** The signed-in part of the navigation bar: wallet links and the profile dropdown. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { DataProviders } from '../../app/data/DataProviders.js';
import { useTRPC } from '../../app/data/trpc.js';
import { Dropdown } from '../../ui/Dropdown.js';
import { useAuth } from '../auth/AuthProvider.js';

function ProfileMenu({ userId }: { userId: string }) {
  const { t } = useTranslation(['common', 'plans']);
  const trpc = useTRPC();
  const user = useQuery(trpc.identity.user.queryOptions({ id: userId }));
  // Until the username arrives the dropdown is headed by a generic word, never by an empty button.
  const heading = user.data?.username ?? t('nav.account');
  return (
    <Dropdown label={heading} ariaLabel={t('nav.profileMenu', { name: heading })} className="profile-menu">
      <li>
        <Link to="/profile">{t('nav.profile')}</Link>
      </li>
      <li>
        <Link to="/api-direct">{t('nav.apiDirect')}</Link>
      </li>
      {/* A merchant's tools sit beside API Direct, so they are found without going through it. */}
      <li>
        <Link to="/payments">{t('nav.payments')}</Link>
      </li>
      <li>
        <Link to="/developers">{t('nav.developers')}</Link>
      </li>
      <li>
        <Link to="/subscription-plans/all">{t('plans:nav.plans')}</Link>
      </li>
      <li>
        <Link to="/subscriptions/all">{t('plans:nav.subscriptions')}</Link>
      </li>
      <li>
        <Link to="/support">{t('nav.support')}</Link>
      </li>
      <li>
        <Link to="/logout">{t('nav.logout')}</Link>
      </li>
    </Dropdown>
  );
}

export function SignedInLinks() {
  const { t } = useTranslation('common');
  const { state } = useAuth();
  if (!state.id) return null;
  return (
    <DataProviders>
      <ul className="nav-links">
        <li>
          <NavLink to="/millix/send">{t('nav.send')}</NavLink>
        </li>
        <li>
          {/* A document load, not a client navigation: only a document loaded at /millix/buy
              carries the headers PayPal's buttons and popup need (the Buy page's own check
              reloads it otherwise, which this saves). */}
          <NavLink to="/millix/buy" reloadDocument>
            {t('nav.buy')}
          </NavLink>
        </li>
        <li>
          <NavLink to="/millix/sell">{t('nav.sell')}</NavLink>
        </li>
      </ul>
      <ProfileMenu userId={state.id} />
    </DataProviders>
  );
}
