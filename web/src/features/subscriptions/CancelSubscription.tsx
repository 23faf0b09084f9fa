/**
 * Cancel, for a subscriber on their subscription's page and for the provider on a plan's
 * subscriber list (issue 13): a confirmation saying the cancellation takes effect at the end of
 * the paid period, then subscriptions.cancel; the server's message, or its refusal, is shown.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { formatStyledDate } from '../../ui/displayFormat.js';
import { ActionResultAlert, ConfirmedAction, useConfirmedAction } from './ConfirmedAction.js';

interface CancelSubscriptionProps {
  subscriptionId: string;
  /** When the paid period ends, if known (the subscriber's own page knows it). */
  paidThrough?: string | null;
}

export function CancelSubscription({ subscriptionId, paidThrough }: CancelSubscriptionProps) {
  const { t } = useTranslation('subscriptions');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cancel = useMutation(trpc.subscriptions.cancel.mutationOptions());
  const confirmed = useConfirmedAction();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);

  return (
    <div className="subscriptions-cancel">
      <ActionResultAlert result={confirmed.result} />
      <ConfirmedAction
        state={confirmed}
        pending={cancel.isPending}
        onConfirm={() =>
          void confirmed.run(
            () => cancel.mutateAsync({ id: subscriptionId }),
            () =>
              Promise.all([
                queryClient.invalidateQueries({ queryKey: trpc.subscriptions.pathKey() }),
                queryClient.invalidateQueries({ queryKey: trpc.plans.subscribers.pathKey() }),
              ]),
          )
        }
        button={confirmed.result?.kind === 'success' ? undefined : { label: t('cancel.button'), className: 'button' }}
        title={t('cancel.title')}
        body={paidThrough ? t('cancel.body', { date: formatStyledDate(paidThrough, mobile ? 'short' : 'long') }) : t('cancel.bodyNoDate')}
        keepLabel={t('cancel.keep')}
        confirmLabel={t('cancel.confirm')}
        busyLabel={t('cancel.cancelling')}
      />
    </div>
  );
}
