/**
 * The merchant's public plans page (/user/{username}, spec section 2) as a full link with Copy,
 * so it can be shared without guessing the URL. Visitors who are signed out are asked to sign in
 * first and then returned to it.
 */
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { useAuth } from '../auth/AuthProvider.js';
import { CopyKey } from '../../ui/CopyKey.js';

export function publicPlansUrl(origin: string, username: string): string {
  return `${origin}/user/${encodeURIComponent(username)}`;
}

export function PublicLink() {
  const { t } = useTranslation('plans');
  const trpc = useTRPC();
  const { state } = useAuth();
  const titleId = useId();
  const user = useQuery({ ...trpc.identity.user.queryOptions({ id: state.id ?? '' }), enabled: state.id !== null });
  // Nothing to share until the username is known; the rest of the page does not wait for it.
  if (!user.data) return null;
  const url = publicPlansUrl(window.location.origin, user.data.username);
  return (
    <section className="plans-share" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('share.title')}</h2>
      <p>{t('share.intro')}</p>
      <div className="plans-share-row">
        <a href={url} className="plans-share-url" data-testid="public-link">
          {url}
        </a>
        <CopyKey apiKey={url} namespace="plans" prefix="share." />
      </div>
    </section>
  );
}
