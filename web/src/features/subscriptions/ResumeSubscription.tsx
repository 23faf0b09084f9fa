/**
 * Resume, on the subscriber's page of a subscription they cancelled themselves (issue 25, ADR
 * 059): while the paid period runs, it says until when the subscription stays active and offers
 * to take the cancellation back; a confirmation names the next charge and the agreed price, then
 * subscriptions.resume. The server decides (a period that ran out meanwhile is refused) and its
 * message, or its refusal, stays in view after the page reloads the subscription.
 */
import type { SubscriptionOutput } from '@quern/core/subscriptions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { usePriceText } from '../plans/planFormat.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { formatStyledDate } from '../../ui/displayFormat.js';
import { ActionResultAlert, ConfirmedAction, useConfirmedAction } from './ConfirmedAction.js';

type Resumable = Pick<SubscriptionOutput, 'id' | 'status' | 'cancelled_by' | 'ends_at' | 'agreed_price'>;

/** Only the subscriber's own cancellation, before it takes effect, can be taken back. */
export const canResume = (s: Resumable, now: Date): boolean =>
  s.status === 'cancelled' && s.cancelled_by === 'subscriber' && s.ends_at !== null && new Date(s.ends_at) > now;

export function ResumeSubscription({ subscription }: { subscription: Resumable }) {
  const { t } = useTranslation('subscriptions');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const resume = useMutation(trpc.subscriptions.resume.mutationOptions());
  const confirmed = useConfirmedAction();
  const priceText = usePriceText();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);

  if (!canResume(subscription, new Date()) || subscription.ends_at === null) return <ActionResultAlert result={confirmed.result} />;
  const texts = {
    date: formatStyledDate(subscription.ends_at, mobile ? 'short' : 'long'),
    price: priceText(subscription.agreed_price),
  };
  return (
    <div className="subscriptions-resume" data-testid="subscription-resume">
      <h2>{t('resume.heading')}</h2>
      <p>{t('resume.body', texts)}</p>
      <ActionResultAlert result={confirmed.result} />
      <ConfirmedAction
        state={confirmed}
        pending={resume.isPending}
        onConfirm={() =>
          void confirmed.run(
            () => resume.mutateAsync({ id: subscription.id }),
            () =>
              Promise.all([
                queryClient.invalidateQueries({ queryKey: trpc.subscriptions.pathKey() }),
                queryClient.invalidateQueries({ queryKey: trpc.plans.subscribers.pathKey() }),
              ]),
          )
        }
        button={{ label: t('resume.button'), className: 'button button-primary' }}
        title={t('resume.title')}
        body={t('resume.confirmBody', texts)}
        keepLabel={t('resume.keep')}
        confirmLabel={t('resume.confirm')}
        busyLabel={t('resume.resuming')}
      />
    </div>
  );
}
