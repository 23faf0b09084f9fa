/**
 * The plan owner's side of a higher price (ADR 044), on a subscription's page: the subscriber has
 * not accepted it and renewals stay at the agreed price; the owner may end the subscription at the
 * end of its paid period instead, behind a confirmation. The server decides and answers.
 */
import type { SubscriptionOutput } from '@quern/core/subscriptions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { usePriceText } from '../plans/planFormat.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { formatStyledDate } from '../../ui/displayFormat.js';
import { ActionResultAlert, ConfirmedAction, useConfirmedAction } from './ConfirmedAction.js';

type Offer = Pick<SubscriptionOutput, 'id' | 'agreed_price' | 'pending_price' | 'paid_through'>;

export function EndForPrice({ subscription }: { subscription: Offer }) {
  const { t } = useTranslation('subscriptions');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const end = useMutation(trpc.subscriptions.endForPrice.mutationOptions());
  const confirmed = useConfirmedAction();
  const priceText = usePriceText();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const texts = {
    price: priceText(subscription.pending_price ?? subscription.agreed_price),
    agreed: priceText(subscription.agreed_price),
    date: formatStyledDate(subscription.paid_through, mobile ? 'short' : 'long'),
  };

  if (subscription.pending_price === null) return <ActionResultAlert result={confirmed.result} />;
  return (
    <div className="subscriptions-price-offer" data-testid="subscription-price-unaccepted">
      <h2>{t('endForPrice.heading')}</h2>
      <p>{t('endForPrice.waiting', texts)}</p>
      <ActionResultAlert result={confirmed.result} />
      <ConfirmedAction
        state={confirmed}
        pending={end.isPending}
        onConfirm={() =>
          void confirmed.run(
            () => end.mutateAsync({ id: subscription.id }),
            () =>
              Promise.all([
                queryClient.invalidateQueries({ queryKey: trpc.subscriptions.pathKey() }),
                queryClient.invalidateQueries({ queryKey: trpc.plans.subscribers.pathKey() }),
              ]),
          )
        }
        button={{ label: t('endForPrice.button'), className: 'button' }}
        title={t('endForPrice.title')}
        body={t('endForPrice.body', texts)}
        keepLabel={t('endForPrice.keep')}
        confirmLabel={t('endForPrice.confirm')}
        busyLabel={t('endForPrice.ending')}
      />
    </div>
  );
}
