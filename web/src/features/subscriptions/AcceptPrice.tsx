/**
 * A higher plan price waiting for the subscriber (ADR 044), on their subscription's page: the
 * pending price beside the agreed one, that renewals stay at the agreed price until they accept,
 * and Accept, which asks for confirmation and sends the exact price shown. A price that changed
 * meanwhile is refused by the server; its message shows and the page reloads the new offer.
 */
import type { SubscriptionOutput } from '@quern/core/subscriptions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { usePriceText } from '../plans/planFormat.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { formatStyledDate } from '../../ui/displayFormat.js';
import { ActionResultAlert, ConfirmedAction, useConfirmedAction } from './ConfirmedAction.js';

type Offer = Pick<SubscriptionOutput, 'id' | 'agreed_price' | 'pending_price' | 'next_charge_at' | 'paid_through'>;

export function AcceptPrice({ subscription }: { subscription: Offer }) {
  const { t } = useTranslation('subscriptions');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const accept = useMutation(trpc.subscriptions.acceptPrice.mutationOptions());
  const confirmed = useConfirmedAction();
  const priceText = usePriceText();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const pending = subscription.pending_price;
  const texts = {
    price: priceText(pending ?? subscription.agreed_price),
    agreed: priceText(subscription.agreed_price),
    date: formatStyledDate(subscription.next_charge_at ?? subscription.paid_through, mobile ? 'short' : 'long'),
  };

  if (pending === null) return <ActionResultAlert result={confirmed.result} />;
  return (
    <div className="subscriptions-price-offer" data-testid="subscription-price-offer">
      <h2>{t('acceptPrice.heading')}</h2>
      <p>{t('acceptPrice.offer', texts)}</p>
      <p>{t('acceptPrice.untilAccepted', texts)}</p>
      <ActionResultAlert result={confirmed.result} />
      <ConfirmedAction
        state={confirmed}
        pending={accept.isPending}
        onConfirm={() =>
          void confirmed.run(
            () => accept.mutateAsync({ id: subscription.id, price: pending }),
            () => queryClient.invalidateQueries({ queryKey: trpc.subscriptions.pathKey() }),
          )
        }
        button={{ label: t('acceptPrice.button', texts), className: 'button button-primary' }}
        title={t('acceptPrice.title')}
        body={t('acceptPrice.body', texts)}
        keepLabel={t('acceptPrice.notNow')}
        confirmLabel={t('acceptPrice.confirm', texts)}
        busyLabel={t('acceptPrice.accepting')}
      />
    </div>
  );
}
