/**
 * /subscription-plans/all (spec section 2): the signed-in user's own plans, each linking to its
 * page, as a table on desktop and cards on phones; a 'No data' card when there are none, like API
 * Direct's. A plan just deleted arrives here with the server's message, shown above the list.
 */
import type { PlanOutput } from '@quern/core/plans';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { LoadMoreButton, listFailed, loadMoreState, nextPageOf, WEB_LIST_PAGE } from '../../ui/LoadMore.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { formatStyledDate } from '../../ui/displayFormat.js';
import { usePriceText } from './planFormat.js';
import { PublicLink } from './PublicLink.js';
import { TableOrCards } from './TableOrCards.js';
import './plans.css';

export const planPath = (id: string): string => `/subscription-plans/${encodeURIComponent(id)}`;

/** The message a page that navigated here passed on (the delete's answer), if any. */
export function messageFromState(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('message' in state)) return null;
  const message = (state as { message: unknown }).message;
  return typeof message === 'string' && message !== '' ? message : null;
}

function PlanList({ plans, mobile }: { plans: PlanOutput[]; mobile: boolean }) {
  const { t } = useTranslation('plans');
  const priceText = usePriceText();
  return (
    <TableOrCards
      rows={plans}
      rowKey={(plan) => plan.id}
      testId="plan"
      mobile={mobile}
      columns={[
        { header: t('list.name'), cell: (plan) => <Link to={planPath(plan.id)}>{plan.name}</Link> },
        { header: t('list.price'), cell: (plan) => t('priceText', { price: priceText(plan.price) }), className: 'plans-number' },
        { header: t('list.duration'), cell: (plan) => t(`durations.${plan.duration}`) },
        { header: t('list.created'), cell: (plan) => formatStyledDate(plan.created_at, 'long') },
      ]}
      card={(plan) => (
        <>
          <Link to={planPath(plan.id)} className="plans-name">
            {plan.name}
          </Link>
          <div>{t('pricePerPeriod', { price: priceText(plan.price), duration: t(`durations.${plan.duration}`) })}</div>
          <div>{formatStyledDate(plan.created_at, 'short')}</div>
        </>
      )}
    />
  );
}

export default function PlansListPage() {
  const { t } = useTranslation('plans');
  useDocumentTitle(t('list.title'));
  const trpc = useTRPC();
  const location = useLocation();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  // A page at a time (ADR 057).
  const plans = useInfiniteQuery(trpc.plans.mine.infiniteQueryOptions({ limit: WEB_LIST_PAGE }, { getNextPageParam: nextPageOf }));
  const more = loadMoreState(plans);
  const message = messageFromState(location.state);

  let body: React.ReactNode;
  if (plans.isPending) body = <LoadingStatus />;
  else if (listFailed(plans)) body = <FormAlert kind="error">{t('loadFailed')}</FormAlert>;
  else if (more.items.length === 0)
    body = (
      <div className="plans-empty" data-testid="plans-no-data">
        <h2>{t('list.noData')}</h2>
        <p>{t('list.noPlans')}</p>
      </div>
    );
  else
    body = (
      <>
        <PlanList plans={more.items} mobile={mobile} />
        <LoadMoreButton state={more} />
      </>
    );
  return (
    <section className="card plans-card plans-card-wide" aria-labelledby="plans-title">
      <h1 id="plans-title">{t('list.title')}</h1>
      <p>{t('list.intro')}</p>
      {message ? <FormAlert kind="success">{message}</FormAlert> : null}
      <div className="plans-actions">
        <Link to="/subscription-plans/create" className="button button-primary">
          {t('list.create')}
        </Link>
        <Link to="/subscriptions/all" className="button">
          {t('list.subscriptionsLink')}
        </Link>
      </div>
      {body}
      <PublicLink />
    </section>
  );
}
