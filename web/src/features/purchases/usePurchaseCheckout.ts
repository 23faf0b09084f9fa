/**
 * What the PayPal buttons call (spec sections 7 and 8, payment provider): createOrder asks the
 * server for an order of the quoted USD (the server prices it again; its MLX is what will be
 * credited); onApprove captures it and, once PayPal reports COMPLETED, claims the credit (the
 * spec's reserve transfer). A card declined at capture (INSTRUMENT_DECLINED) restarts the payment
 * in the same popup; any other issue shows PayPal's description; PENDING means the capture worker
 * has not answered in time and the MLX follows when it does.
 *
 * The buyer is told what became of an attempt that took no money: a declined card ('Nothing was
 * charged. Try another card.') while PayPal's window starts over, and a closed window (the SDK's
 * onCancel). The notice goes when the next attempt starts.
 */
import type { CaptureOutcome, CreatedOrder, PurchaseRefusal } from '@quern/core/purchases';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import type { Language } from '../../i18n/languages.js';
import { singleMessageFromServer } from '../../ui/formErrors.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { displayParams, formatMlxWire } from '../../ui/displayFormat.js';

export type BuyDialogState =
  | { kind: 'none' }
  | { kind: 'error'; message: string }
  | { kind: 'completing' }
  | { kind: 'success'; status: string; transactionId: string; amount: string }
  | { kind: 'pending'; amount: string };

/** What the page says about an attempt that ended without a charge. */
export type CheckoutNotice = 'declined' | 'cancelled' | null;

/** PayPal's issue for a card refused at capture: the buyer may choose another way to pay. */
export const INSTRUMENT_DECLINED = 'INSTRUMENT_DECLINED';

/**
 * The credit's refusal when the capture worker credited the order first: the MLX is in the
 * wallet, which is what the buyer wanted.
 */
const ALREADY_CREDITED: PurchaseRefusal = 'alreadyCredited';

/**
 * Failures of the credit call after which the worker still credits the captured payment (no answer,
 * a server fault): the buyer is told the MLX is on its way, never to pay again.
 */
const CREDIT_FOLLOWS_CODES: ReadonlySet<string | null> = new Set([null, 'INTERNAL', 'UNAVAILABLE']);

/** Thrown from createOrder after its error is shown. */
export class CheckoutErrorShown extends Error {
  override name = 'CheckoutErrorShown';
}

/** The part of PayPal's onApprove actions this page uses. */
export interface ApproveActions {
  restart(): Promise<void> | void;
}

interface CheckoutOptions {
  usdText: string;
  language: Language;
  setDialog(dialog: BuyDialogState): void;
  /** The server's price of the order, which the heading then shows. */
  onOrderCreated(order: CreatedOrder): void;
}

export function usePurchaseCheckout({ usdText, language, setDialog, onOrderCreated }: CheckoutOptions) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const messageText = useMessageText();
  const createOrder = useMutation(trpc.purchases.createOrder.mutationOptions());
  const capture = useMutation(trpc.purchases.capture.mutationOptions());
  const credit = useMutation(trpc.purchases.credit.mutationOptions());
  // PayPal's SDK reports createOrder's failure to onError too, and may hand over a copy of the
  // error rather than the one thrown (it crosses into PayPal's frame): a flag, not instanceof,
  // says that the reason is already on screen.
  const orderErrorShown = useRef(false);
  const [notice, setNotice] = useState<CheckoutNotice>(null);

  const serverMessage = (error: unknown): string => {
    const view = toAppErrorView(error);
    const message = singleMessageFromServer(view);
    return messageText({ ...message, params: displayParams(message.params ?? {}, language) });
  };
  const amountOf = (mlx: string): string => formatMlxWire(mlx, language) ?? mlx;
  // The dashboard must show the new balance and the purchase the moment it opens.
  const refreshWallet = () => void queryClient.invalidateQueries({ queryKey: trpc.wallet.pathKey() });

  async function claimCredit(outcome: CaptureOutcome): Promise<void> {
    const transactionId = outcome.captureId ?? outcome.orderId;
    const succeeded = () => setDialog({ kind: 'success', status: outcome.status, transactionId, amount: amountOf(outcome.mlx) });
    try {
      await credit.mutateAsync({ id: transactionId, amount: outcome.mlx });
      succeeded();
    } catch (error) {
      const view = toAppErrorView(error);
      if (view.reason === ALREADY_CREDITED) succeeded();
      else if (CREDIT_FOLLOWS_CODES.has(view.code)) setDialog({ kind: 'pending', amount: amountOf(outcome.mlx) });
      else setDialog({ kind: 'error', message: serverMessage(error) });
    }
    refreshWallet();
  }

  return {
    notice,

    async createOrder(): Promise<string> {
      orderErrorShown.current = false;
      setNotice(null);
      try {
        const order = await createOrder.mutateAsync({ usd: usdText });
        onOrderCreated(order);
        return order.id;
      } catch (error) {
        setDialog({ kind: 'error', message: serverMessage(error) });
        orderErrorShown.current = true;
        throw new CheckoutErrorShown('The order was refused; the reason is on screen');
      }
    },

    async onApprove(data: { orderID: string }, actions: ApproveActions): Promise<void> {
      setNotice(null);
      setDialog({ kind: 'completing' });
      let outcome: CaptureOutcome;
      try {
        outcome = await capture.mutateAsync({ orderId: data.orderID });
      } catch (error) {
        setDialog({ kind: 'error', message: serverMessage(error) });
        return;
      }
      if (outcome.status === 'COMPLETED') return claimCredit(outcome);
      if (outcome.status === 'PENDING') {
        setDialog({ kind: 'pending', amount: amountOf(outcome.mlx) });
        refreshWallet();
        return;
      }
      if (outcome.issue === INSTRUMENT_DECLINED) {
        // PayPal took nothing; its window starts over for another card while the page says so.
        setDialog({ kind: 'none' });
        setNotice('declined');
        await actions.restart();
        return;
      }
      setDialog({ kind: 'error', message: outcome.description || messageText('buy:paymentFailed') });
    },

    /** The buyer closed PayPal's window before approving: no order was captured. */
    onCancel(): void {
      setNotice('cancelled');
    },

    onError(error: unknown): void {
      if (orderErrorShown.current) {
        orderErrorShown.current = false;
        return;
      }
      console.error('Buy: PayPal reported an error', error);
      setDialog({ kind: 'error', message: messageText('buy:paymentFailed') });
    },
  };
}
