/**
 * /subscriptions/all (issue 13): the signed-in user's subscriptions, newest first, with status,
 * price and next charge, as a table on desktop and cards on phones; a 'No data' card when there
 * are none. Each links to its own page.
 */
import type { SubscriptionOutput } from '@quern/core/subscriptions';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { usePriceText } from '../plans/planFormat.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../wallet/useMediaQuery.js';
import { formatTransactionDate } from '../wallet/walletFormat.js';
import { SubscriptionStatus } from './SubscriptionStatus.js';
import '../plans/plans.css';

export const subscriptionPath = (id: string): string => `/subscriptions/${encodeURIComponent(id)}`;

function SubscriptionList({ subscriptions, mobile }: { subscriptions: SubscriptionOutput[]; mobile: boolean }) {
  const { t } = useTranslation('subscriptions');
  const priceText = usePriceText();
  const dateOf = (iso: string | null) => (iso ? formatTransactionDate(iso, mobile ? 'short' : 'long') : t('none'));
  if (mobile)
    return (
      <ul className="plans-cards">
        {subscriptions.map((s) => (
          <li key={s.id} className="plans-item" data-testid="subscription">
            <div className="plans-item-top">
              <Link to={subscriptionPath(s.id)} className="plans-name">
                {s.plan_name}
              </Link>
              <SubscriptionStatus subscription={s} mobile />
            </div>
            <div>{t('priceMonthly', { price: priceText(s.price) })}</div>
            <div>
              {t('list.nextCharge')}: {dateOf(s.next_charge_at)}
            </div>
          </li>
        ))}
      </ul>
    );
  return (
    <div className="plans-table-scroll">
      <table className="plans-table">
        <thead>
          <tr>
            <th scope="col">{t('list.plan')}</th>
            <th scope="col">{t('list.price')}</th>
            <th scope="col">{t('list.status')}</th>
            <th scope="col">{t('list.nextCharge')}</th>
            <th scope="col">{t('list.started')}</th>
          </tr>
        </thead>
        <tbody>
          {subscriptions.map((s) => (
            <tr key={s.id} data-testid="subscription">
              <td>
                <Link to={subscriptionPath(s.id)}>{s.plan_name}</Link>
              </td>
              <td className="plans-number">{t('priceMonthly', { price: priceText(s.price) })}</td>
              <td>
                <SubscriptionStatus subscription={s} mobile={false} />
              </td>
              <td>{dateOf(s.next_charge_at)}</td>
              <td>{dateOf(s.started_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function SubscriptionsPage() {
  const { t } = useTranslation('subscriptions');
  useDocumentTitle(t('list.title'));
  const trpc = useTRPC();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const subscriptions = useQuery(trpc.subscriptions.mine.queryOptions());

  let body: React.ReactNode;
  if (subscriptions.isPending) body = <LoadingStatus />;
  else if (subscriptions.isError) body = <FormAlert kind="error">{t('loadFailed')}</FormAlert>;
  else if (subscriptions.data.content.length === 0)
    body = (
      <div className="plans-empty" data-testid="subscriptions-no-data">
        <h2>{t('list.noData')}</h2>
        <p>{t('list.noSubscriptions')}</p>
      </div>
    );
  else body = <SubscriptionList subscriptions={subscriptions.data.content} mobile={mobile} />;
  return (
    <section className="card plans-card plans-card-wide" aria-labelledby="subscriptions-title">
      <h1 id="subscriptions-title">{t('list.title')}</h1>
      <p>{t('list.intro')}</p>
      <p>
        <Link to="/subscription-plans/all">{t('list.plansLink')}</Link>
      </p>
      {body}
    </section>
  );
}
