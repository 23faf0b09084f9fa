/**
 * Subscribe, on a plan's page and on its owner's public profile (issue 13): the button asks the
 * server for a quote (price, period, next charge), shows it for confirmation, and only Confirm
 * subscribes, sending the quoted price so a price edited meanwhile is refused rather than charged.
 * The answer comes in a dialog: the message and a link to the subscription, or the server's
 * refusal (one's own plan, a deleted plan, not enough MLX, already subscribed, price changed).
 */
import type { PlanOutput } from '@quern/core/plans';
import type { SubscribeQuoteOutput } from '@quern/core/subscriptions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { Modal } from '../../ui/Modal.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { formatStyledDate } from '../../ui/displayFormat.js';
import { useErrorText, usePriceText } from './planFormat.js';

type Phase =
  | { phase: 'idle' }
  | { phase: 'quoting' }
  | { phase: 'confirming'; quote: SubscribeQuoteOutput }
  | { phase: 'subscribing'; quote: SubscribeQuoteOutput }
  | { phase: 'succeeded'; message: string; subscriptionId: string }
  | { phase: 'failed'; message: string };

export function SubscribeAction({ plan }: { plan: Pick<PlanOutput, 'id' | 'name'> }) {
  const { t } = useTranslation('plans');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.subscriptions.create.mutationOptions());
  const priceText = usePriceText();
  const errorText = useErrorText();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const [state, setState] = useState<Phase>({ phase: 'idle' });
  const confirmTitleId = useId();
  const resultTitleId = useId();
  const resultBodyId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const okRef = useRef<HTMLButtonElement>(null);
  const close = () => {
    // The subscription list is refreshed only once the result is closed: on a public profile the
    // refreshed list turns this plan's Subscribe into 'Subscribed', which would unmount this
    // component and its result dialog before the subscriber had read it.
    if (state.phase === 'succeeded') void queryClient.invalidateQueries({ queryKey: trpc.subscriptions.pathKey() });
    setState({ phase: 'idle' });
  };

  const onSubscribe = async () => {
    setState({ phase: 'quoting' });
    try {
      const quote = await queryClient.fetchQuery({
        ...trpc.subscriptions.quote.queryOptions({ subscription_plan_id: plan.id }),
        staleTime: 0,
      });
      setState({ phase: 'confirming', quote });
    } catch (failure) {
      setState({ phase: 'failed', message: errorText(toAppErrorView(failure)) });
    }
  };

  const onConfirm = async (quote: SubscribeQuoteOutput) => {
    setState({ phase: 'subscribing', quote });
    try {
      const answer = await create.mutateAsync({ subscription_plan_id: plan.id, expected_price: quote.price });
      setState({ phase: 'succeeded', message: answer.message, subscriptionId: answer.content.id });
      // The charge moved MLX: the dashboard's balance and history are stale (the subscription list
      // too, refreshed when this result is closed, see close()).
      void queryClient.invalidateQueries({ queryKey: trpc.wallet.pathKey() });
    } catch (failure) {
      setState({ phase: 'failed', message: errorText(toAppErrorView(failure)) });
    }
  };

  const quote = state.phase === 'confirming' || state.phase === 'subscribing' ? state.quote : null;
  const subscribing = state.phase === 'subscribing';
  return (
    <>
      <button
        type="button"
        className="button button-primary"
        disabled={state.phase === 'quoting' || subscribing}
        aria-busy={state.phase === 'quoting' || undefined}
        onClick={() => void onSubscribe()}
      >
        {state.phase === 'quoting' ? t('subscribe.quoting') : t('subscribe.button')}
      </button>
      <Modal
        open={quote !== null}
        onClose={close}
        dismissible={!subscribing}
        labelledBy={confirmTitleId}
        initialFocus={confirmRef}
        className="plans-dialog plans-subscribe-dialog"
      >
        <h2 id={confirmTitleId}>{t('subscribe.confirmTitle', { name: plan.name })}</h2>
        {quote ? (
          <>
            <dl className="plans-details">
              <dt>{t('subscribe.plan')}</dt>
              <dd>{plan.name}</dd>
              <dt>{t('subscribe.price')}</dt>
              <dd>{t('priceText', { price: priceText(quote.price) })}</dd>
              <dt>{t('subscribe.period')}</dt>
              <dd>{t(`durations.${quote.duration}`)}</dd>
              <dt>{t('subscribe.chargedNow')}</dt>
              <dd>{t('priceText', { price: priceText(quote.price) })}</dd>
            </dl>
            <p>{t('subscribe.nextCharge', { date: formatStyledDate(quote.next_charge_at, mobile ? 'short' : 'long') })}</p>
          </>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button" disabled={subscribing} onClick={close}>
            {t('subscribe.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            ref={confirmRef}
            disabled={subscribing}
            aria-busy={subscribing || undefined}
            onClick={() => quote && void onConfirm(quote)}
          >
            {subscribing ? t('subscribe.confirming') : t('subscribe.confirm')}
          </button>
        </div>
      </Modal>
      <Modal
        open={state.phase === 'succeeded' || state.phase === 'failed'}
        onClose={close}
        role="alertdialog"
        labelledBy={resultTitleId}
        describedBy={resultBodyId}
        initialFocus={okRef}
        className="plans-dialog plans-subscribe-result"
      >
        <h2 id={resultTitleId}>{state.phase === 'succeeded' ? t('subscribe.successTitle') : t('subscribe.failedTitle')}</h2>
        <p id={resultBodyId}>{state.phase === 'succeeded' || state.phase === 'failed' ? state.message : null}</p>
        {state.phase === 'succeeded' ? (
          <p>
            <Link
              to={`/subscriptions/${encodeURIComponent(state.subscriptionId)}`}
              onClick={() => void queryClient.invalidateQueries({ queryKey: trpc.subscriptions.pathKey() })}
            >
              {t('subscribe.viewSubscription')}
            </Link>
          </p>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button button-primary" ref={okRef} onClick={close}>
            {state.phase === 'succeeded' ? t('subscribe.ok') : t('subscribe.close')}
          </button>
        </div>
      </Modal>
    </>
  );
}
