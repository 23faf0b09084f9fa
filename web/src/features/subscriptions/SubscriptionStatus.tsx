/**
 * A subscription's status in words (issue 13): Active, Past due, 'Cancelled — ends on {date}'
 * (the end of the paid period), Ended.
 */
import type { SubscriptionOutput } from '@quern/core/subscriptions';
import { useTranslation } from 'react-i18next';
import { formatStyledDate } from '../../ui/displayFormat.js';

export function SubscriptionStatus({
  subscription,
  mobile,
}: {
  subscription: Pick<SubscriptionOutput, 'status' | 'ends_at' | 'paid_through'>;
  mobile: boolean;
}) {
  const { t } = useTranslation('subscriptions');
  const { status } = subscription;
  const text =
    status === 'cancelled'
      ? t('status.cancelled', { date: formatStyledDate(subscription.ends_at ?? subscription.paid_through, mobile ? 'short' : 'long') })
      : t(`status.${status}`);
  return (
    <span className={`subscriptions-status subscriptions-status-${status}`} data-testid="subscription-status">
      {text}
    </span>
  );
}
