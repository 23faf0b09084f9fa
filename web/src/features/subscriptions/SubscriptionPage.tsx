/**
 * /subscriptions/{id} (issue 13): one subscription: its plan (linked), status, price, start, paid
 * period, next charge, every charge made, and Cancel (effective at the end of the paid period)
 * while it is active or past due.
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
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../wallet/useMediaQuery.js';
import { formatTransactionDate } from '../wallet/walletFormat.js';
import { CancelSubscription } from './CancelSubscription.js';
import { SubscriptionStatus } from './SubscriptionStatus.js';
import '../plans/plans.css';

function Charges({ subscription, mobile }: { subscription: SubscriptionOutput; mobile: boolean }) {
  const { t } = useTranslation('subscriptions');
  const priceText = usePriceText();
  const style = mobile ? 'short' : 'long';
  if (subscription.charges.length === 0) return <p>{t('detail.noCharges')}</p>;
  if (mobile)
    return (
      <ul className="plans-cards">
        {subscription.charges.map((c) => (
          <li key={c.period} className="plans-item" data-testid="charge">
            <div className="plans-item-top">
              <strong>{t('amountMlx', { amount: priceText(c.amount) })}</strong>
              <span>
                {t('detail.period')} {c.period}
              </span>
            </div>
            <div>{formatTransactionDate(c.charged_at, style)}</div>
            <div>
              {t('detail.paidThrough')}: {formatTransactionDate(c.paid_through, style)}
            </div>
            <div className="plans-id">{c.transaction_id}</div>
          </li>
        ))}
      </ul>
    );
  return (
    <div className="plans-table-scroll">
      <table className="plans-table">
        <thead>
          <tr>
            <th scope="col">{t('detail.period')}</th>
            <th scope="col">{t('detail.chargedAt')}</th>
            <th scope="col">{t('detail.amount')}</th>
            <th scope="col">{t('detail.paidThrough')}</th>
            <th scope="col">{t('detail.transaction')}</th>
          </tr>
        </thead>
        <tbody>
          {subscription.charges.map((c) => (
            <tr key={c.period} data-testid="charge">
              <td>{c.period}</td>
              <td>{formatTransactionDate(c.charged_at, style)}</td>
              <td className="plans-number">{t('amountMlx', { amount: priceText(c.amount) })}</td>
              <td>{formatTransactionDate(c.paid_through, style)}</td>
              <td className="plans-id">{c.transaction_id}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
  useDocumentTitle(subscription.data?.content.plan_name ?? t('detail.title'));
  const style = mobile ? 'short' : 'long';
  const dateOf = (iso: string | null) => (iso ? formatTransactionDate(iso, style) : t('none'));

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
