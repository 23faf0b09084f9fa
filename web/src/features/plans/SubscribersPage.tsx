/**
 * /subscription-plans/{id}/subscribers (spec section 2): the id and name of each subscriber of
 * the owner's plan, with their subscription's status, as a table on desktop and cards on phones;
 * the provider can cancel a subscriber's subscription (issue 13). 'No data' when there are none.
 */
import type { SubscriberOutput } from '@quern/core/plans';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { LoadMoreButton, listFailed, loadMoreState, nextPageOf, WEB_LIST_PAGE } from '../../ui/LoadMore.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { CancelSubscription } from '../subscriptions/CancelSubscription.js';
import { subscriptionPath } from '../subscriptions/SubscriptionsPage.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { planPath } from './PlansListPage.js';
import { useErrorText } from './planFormat.js';
import { TableOrCards } from './TableOrCards.js';
import './plans.css';

const cancellable = (status: string) => status === 'active' || status === 'past_due';

function StatusText({ status }: { status: string }) {
  const { t } = useTranslation('subscriptions');
  return (
    <span className={`subscriptions-status subscriptions-status-${status}`}>{t(`statusShort.${status}`, { defaultValue: status })}</span>
  );
}

function SubscriberList({ subscribers, mobile }: { subscribers: SubscriberOutput[]; mobile: boolean }) {
  const { t } = useTranslation('plans');
  const actions = (s: SubscriberOutput) => (
    <>
      <Link to={subscriptionPath(s.subscription_id)}>{t('subscribers.open')}</Link>
      {cancellable(s.status) ? <CancelSubscription subscriptionId={s.subscription_id} /> : null}
    </>
  );
  return (
    <TableOrCards
      rows={subscribers}
      rowKey={(s) => s.subscription_id}
      testId="subscriber"
      mobile={mobile}
      columns={[
        { header: t('subscribers.id'), cell: (s) => s.id, className: 'plans-id' },
        {
          header: t('subscribers.name'),
          cell: (s) => (
            <>
              {s.name}
              <div className="plans-muted">{s.username}</div>
            </>
          ),
        },
        { header: t('subscribers.status'), cell: (s) => <StatusText status={s.status} /> },
        { header: t('subscribers.actions'), cell: actions },
      ]}
      card={(s) => (
        <>
          <div className="plans-item-top">
            <strong>{s.name}</strong>
            <StatusText status={s.status} />
          </div>
          <div>{s.username}</div>
          <div className="plans-id">{s.id}</div>
          {actions(s)}
        </>
      )}
    />
  );
}

export default function SubscribersPage() {
  const { t } = useTranslation('plans');
  useDocumentTitle(t('subscribers.title'));
  const { id = '' } = useParams();
  const trpc = useTRPC();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const errorText = useErrorText();
  const plan = useQuery(trpc.plans.get.queryOptions({ id }));
  // A page at a time (ADR 057).
  const subscribers = useInfiniteQuery(
    trpc.plans.subscribers.infiniteQueryOptions({ id, limit: WEB_LIST_PAGE }, { getNextPageParam: nextPageOf }),
  );
  const more = loadMoreState(subscribers);

  let body: React.ReactNode;
  if (subscribers.isPending) body = <LoadingStatus />;
  else if (listFailed(subscribers)) {
    const view = toAppErrorView(subscribers.error);
    body = <FormAlert kind="error">{view.code === null || view.code === 'INTERNAL' ? t('loadFailed') : errorText(view)}</FormAlert>;
  } else if (more.items.length === 0)
    body = (
      <div className="plans-empty" data-testid="subscribers-no-data">
        <h2>{t('subscribers.noData')}</h2>
        <p>{t('subscribers.noSubscribers')}</p>
      </div>
    );
  else
    body = (
      <>
        <SubscriberList subscribers={more.items} mobile={mobile} />
        <LoadMoreButton state={more} />
      </>
    );
  return (
    <section className="card plans-card plans-card-wide" aria-labelledby="subscribers-title">
      <h1 id="subscribers-title">{t('subscribers.title')}</h1>
      {plan.data ? <p>{t('subscribers.intro', { name: plan.data.content.name })}</p> : null}
      <p>
        <Link to={planPath(id)}>{t('subscribers.backToPlan')}</Link>
      </p>
      {body}
    </section>
  );
}
