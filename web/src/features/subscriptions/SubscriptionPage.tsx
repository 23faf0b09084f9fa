/**
 * /subscriptions/{id} (issue 13): one subscription: its plan (linked), status, price, start, paid
 * period, next charge, every charge made, a higher price waiting for the subscriber's acceptance
 * (ADR 044; its owner may end it at period end instead), and Cancel (effective at the end of the paid period) while it is active or past due.
 * It names the merchant (linked to their public profile) beside the plan, and a subscriber who
 * cancelled may Resume until the paid period ends (issue 25, ADR 059).
 */
import type { SubscriptionOutput } from '@quern/core/subscriptions';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { planPath } from '../plans/PlansListPage.js';
import { useErrorText, usePriceText } from '../plans/planFormat.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { formatStyledDate } from '../../ui/displayFormat.js';
import { useAuth } from '../auth/AuthProvider.js';
import { AcceptPrice } from './AcceptPrice.js';
import { CancelSubscription } from './CancelSubscription.js';
import { EndForPrice } from './EndForPrice.js';
import { ResumeSubscription } from './ResumeSubscription.js';
import { SubscriptionStatus } from './SubscriptionStatus.js';
import { TableOrCards } from '../plans/TableOrCards.js';

type Charge = SubscriptionOutput['charges'][number];
import '../plans/plans.css';

function Charges({ subscription, mobile }: { subscription: SubscriptionOutput; mobile: boolean }) {
  const { t } = useTranslation('subscriptions');
  const priceText = usePriceText();
  const style = mobile ? 'short' : 'long';
  if (subscription.charges.length === 0) return <p>{t('detail.noCharges')}</p>;
  const amount = (c: Charge) => t('amountMlx', { amount: priceText(c.amount) });
  return (
    <TableOrCards
      rows={subscription.charges}
      rowKey={(c) => c.period}
      testId="charge"
      mobile={mobile}
      columns={[
        { header: t('detail.period'), cell: (c) => c.period },
        { header: t('detail.chargedAt'), cell: (c) => formatStyledDate(c.charged_at, style) },
        { header: t('detail.amount'), cell: amount, className: 'plans-number' },
        { header: t('detail.paidThrough'), cell: (c) => formatStyledDate(c.paid_through, style) },
        { header: t('detail.transaction'), cell: (c) => c.transaction_id, className: 'plans-id' },
      ]}
      card={(c) => (
        <>
          <div className="plans-item-top">
            <strong>{amount(c)}</strong>
            <span>
              {t('detail.period')} {c.period}
            </span>
          </div>
          <div>{formatStyledDate(c.charged_at, style)}</div>
          <div>
            {t('detail.paidThrough')}: {formatStyledDate(c.paid_through, style)}
          </div>
          <div className="plans-id">{c.transaction_id}</div>
        </>
      )}
    />
  );
}

export default function SubscriptionPage() {
  const { t } = useTranslation('subscriptions');
  const { id = '' } = useParams();
  const trpc = useTRPC();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const errorText = useErrorText();
  const priceText = usePriceText();
  const subscription = useQuery(trpc.subscriptions.get.queryOptions({ id }));
  const { state: auth } = useAuth();
  useDocumentTitle(subscription.data?.content.plan_name ?? t('detail.title'));
  const style = mobile ? 'short' : 'long';
  const dateOf = (iso: string | null) => (iso ? formatStyledDate(iso, style) : t('none'));

  let body: React.ReactNode;
  if (subscription.isPending) body = <LoadingStatus />;
  else if (subscription.isError) {
    const view = toAppErrorView(subscription.error);
    body = <FormAlert kind="error">{view.code === 'NOT_FOUND' ? errorText(view) : t('loadFailed')}</FormAlert>;
  } else {
    const s = subscription.data.content;
    body = (
      <>
        <dl className="plans-details">
          <dt>{t('detail.plan')}</dt>
          <dd>
            <Link to={planPath(s.plan_id)}>{s.plan_name}</Link>
          </dd>
          {s.provider_username ? (
            <>
              <dt>{t('merchant')}</dt>
              <dd data-testid="subscription-merchant">
                <Link to={`/user/${encodeURIComponent(s.provider_username)}`}>{s.provider_username}</Link>
              </dd>
            </>
          ) : null}
          <dt>{t('detail.status')}</dt>
          <dd>
            <SubscriptionStatus subscription={s} mobile={mobile} />
          </dd>
          <dt>{t('detail.price')}</dt>
          <dd>{t('priceMonthly', { price: priceText(s.price) })}</dd>
          <dt>{t('detail.started')}</dt>
          <dd>{dateOf(s.started_at)}</dd>
          <dt>{t('detail.paidThrough')}</dt>
          <dd>{dateOf(s.paid_through)}</dd>
          <dt>{t('detail.nextCharge')}</dt>
          <dd data-testid="subscription-next-charge">{dateOf(s.next_charge_at)}</dd>
          {s.ends_at ? (
            <>
              <dt>{t('detail.endsAt')}</dt>
              <dd>{dateOf(s.ends_at)}</dd>
            </>
          ) : null}
        </dl>
        {/* Mounted whatever the status, so the server's answer stays in view; without a higher price pending they show nothing. */}
        {auth.id !== null && auth.id === s.subscriber_id ? <AcceptPrice subscription={s} /> : null}
        {auth.id !== null && auth.id === s.provider_id ? <EndForPrice subscription={s} /> : null}
        {auth.id !== null && auth.id === s.subscriber_id ? <ResumeSubscription subscription={s} /> : null}
        {s.status === 'active' || s.status === 'past_due' ? (
          <CancelSubscription subscriptionId={s.id} paidThrough={s.paid_through} />
        ) : null}
        <h2>{t('detail.charges')}</h2>
        <Charges subscription={s} mobile={mobile} />
      </>
    );
  }
  return (
    <section className="card plans-card plans-card-wide" aria-labelledby="subscription-title">
      <h1 id="subscription-title">{subscription.data?.content.plan_name ?? t('detail.title')}</h1>
      <p>
        <Link to="/subscriptions/all">{t('detail.backToList')}</Link>
      </p>
      {body}
    </section>
  );
}
