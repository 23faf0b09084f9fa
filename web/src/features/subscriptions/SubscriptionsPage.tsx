/**
 * /subscriptions/all (issue 13): the signed-in user's subscriptions, newest first, with status,
 * price (and a higher one awaiting acceptance, ADR 044) and next charge, as a table on desktop and cards on phones; a 'No data' card when there
 * are none. Each links to its own page.
 */
import type { SubscriptionOutput } from '@quern/core/subscriptions';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { LoadMoreButton, listFailed, loadMoreState, nextPageOf, WEB_LIST_PAGE } from '../../ui/LoadMore.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { usePriceText } from '../plans/planFormat.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { formatStyledDate } from '../../ui/displayFormat.js';
import { SubscriptionStatus } from './SubscriptionStatus.js';
import { TableOrCards } from '../plans/TableOrCards.js';
import '../plans/plans.css';

export const subscriptionPath = (id: string): string => `/subscriptions/${encodeURIComponent(id)}`;

function SubscriptionList({ subscriptions, mobile }: { subscriptions: SubscriptionOutput[]; mobile: boolean }) {
  const { t } = useTranslation('subscriptions');
  const priceText = usePriceText();
  const dateOf = (iso: string | null) => (iso ? formatStyledDate(iso, mobile ? 'short' : 'long') : t('none'));
  const price = (s: SubscriptionOutput) => (
    <>
      {t('priceMonthly', { price: priceText(s.price) })}
      {s.pending_price ? (
        <span className="subscriptions-pending-price" data-testid="subscription-pending-price">
          {t('pendingPrice', { price: priceText(s.pending_price) })}
        </span>
      ) : null}
    </>
  );
  return (
    <TableOrCards
      rows={subscriptions}
      rowKey={(s) => s.id}
      testId="subscription"
      mobile={mobile}
      columns={[
        { header: t('list.plan'), cell: (s) => <Link to={subscriptionPath(s.id)}>{s.plan_name}</Link> },
        { header: t('list.price'), cell: price, className: 'plans-number' },
        { header: t('list.status'), cell: (s) => <SubscriptionStatus subscription={s} mobile={false} /> },
        { header: t('list.nextCharge'), cell: (s) => dateOf(s.next_charge_at) },
        { header: t('list.started'), cell: (s) => dateOf(s.started_at) },
      ]}
      card={(s) => (
        <>
          <div className="plans-item-top">
            <Link to={subscriptionPath(s.id)} className="plans-name">
              {s.plan_name}
            </Link>
            <SubscriptionStatus subscription={s} mobile />
          </div>
          <div>{price(s)}</div>
          <div>
            {t('list.nextCharge')}: {dateOf(s.next_charge_at)}
          </div>
        </>
      )}
    />
  );
}

export default function SubscriptionsPage() {
  const { t } = useTranslation('subscriptions');
  useDocumentTitle(t('list.title'));
  const trpc = useTRPC();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  // A page at a time (ADR 057).
  const subscriptions = useInfiniteQuery(
    trpc.subscriptions.mine.infiniteQueryOptions({ limit: WEB_LIST_PAGE }, { getNextPageParam: nextPageOf }),
  );
  const more = loadMoreState(subscriptions);

  let body: React.ReactNode;
  if (subscriptions.isPending) body = <LoadingStatus />;
  else if (listFailed(subscriptions)) body = <FormAlert kind="error">{t('loadFailed')}</FormAlert>;
  else if (more.items.length === 0)
    body = (
      <div className="plans-empty" data-testid="subscriptions-no-data">
        <h2>{t('list.noData')}</h2>
        <p>{t('list.noSubscriptions')}</p>
      </div>
    );
  else
    body = (
      <>
        <SubscriptionList subscriptions={more.items} mobile={mobile} />
        <LoadMoreButton state={more} />
      </>
    );
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
