/**
 * The purchase use cases as the api offers them (spec section 7: reserve balance, PayPal orders,
 * capture, the reserve transfer; and PayPal's webhooks). The server prices every order before
 * PayPal hears of it; the capture is asked for through the log (a worker captures it, ADR 026)
 * and this service waits for the worker's answer; MLX moves only through core's exactly-once
 * credit (ADR 025).
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '@quern/core';
import {
  type BuySetup,
  type CaptureAnswer,
  type CaptureOutcome,
  type CreatedOrder,
  type PayPalBrowserConfig,
  type PurchaseCreditOutput,
  type PurchaseDeps,
  type PurchaseStatusView,
  PURCHASE_MAX_USD_CENTS,
  PURCHASE_MIN_USD_CENTS,
  captureAnswer,
  captureRequestIdFor,
  creditPurchase,
  loadOwnPurchase,
  orderPurchase,
  quotePurchase,
  readPurchase,
  requestCapture,
  reserveAvailableMlx,
} from '@quern/core/purchases';
import { type PayPalClient, PayPalError } from '@quern/adapters/paypal';
import type { Session } from '../identity/sessions.js';
import { waitForPurchase } from './capture-wait.js';
import { type PayPalWebhookOutcome, handlePayPalWebhook } from './webhooks.js';

export interface PurchaseServiceDeps {
  core: PurchaseDeps;
  paypal: PayPalClient;
  /** What the browser loads PayPal's buttons from. */
  browser: PayPalBrowserConfig;
  /** How long a capture call waits for the capture worker's answer before answering PENDING. */
  captureWaitMs: number;
  /** Tells the wallet service a user's balance changed at this log position (read-your-writes). */
  noteWrite?: (userId: string, position: bigint) => void;
  /**
   * Counts one webhook delivery from a client address; refuses it (RATE_LIMITED) over the limit.
   * Every delivery costs a verify call to PayPal, so forged ones are capped before that call.
   */
  limitWebhooks?: (clientAddress: string) => Promise<void>;
}

export type PurchaseService = ReturnType<typeof createPurchaseService>;

/** A PayPal failure as the buyer sees it: PayPal's own issue and description, PayPal's debug id. */
export function providerError(error: PayPalError): AppError {
  const params = {
    issue: error.issue ?? error.name,
    description: error.description || error.name,
    ...(error.debugId ? { debugId: error.debugId } : {}),
  };
  if (error.status === 0 || error.status >= 500) return new AppError('UNAVAILABLE', 'errors:paymentProviderUnavailable', {}, params);
  return new AppError('VALIDATION', 'errors:paymentProviderIssue', {}, params);
}

export function createPurchaseService(deps: PurchaseServiceDeps) {
  const { core, paypal } = deps;

  return {
    setup(): BuySetup {
      return { minUsdCents: String(PURCHASE_MIN_USD_CENTS), maxUsdCents: String(PURCHASE_MAX_USD_CENTS), paypal: deps.browser } as BuySetup;
    },

    async reserveBalance(): Promise<{ mlx: string }> {
      return { mlx: (await reserveAvailableMlx(core)).toString() };
    },

    /**
     * Prices the amount (limits, rate, reserve) before PayPal hears of it, creates PayPal's order
     * for exactly that amount, and records the order with its rate and MLX.
     */
    async createOrder(session: Session, usdText: string, requestId: string = randomUUID(), language?: string): Promise<CreatedOrder> {
      const price = await quotePurchase(core, usdText);
      const { usdCents } = price;
      let orderId: string;
      try {
        const order = await paypal.createOrder({
          usdCents: Number(usdCents),
          reference: session.userId.slice(0, 127),
          requestId,
          description: `${price.mlx} MLX`,
        });
        orderId = order.id;
      } catch (error) {
        throw error instanceof PayPalError ? providerError(error) : error;
      }
      const priced = await orderPurchase(core, { buyerUserId: session.userId, usdCents, orderId, ...(language ? { language } : {}) });
      return { id: priced.orderId, usdCents: priced.usdCents.toString(), usdPerMlx: priced.usdPerMlx, mlx: priced.mlx.toString() };
    },

    /**
     * Records the buyer's approval (the capture worker captures from the log, keyed by the
     * approval round's PayPal-Request-Id) and waits for the worker's answer. A repeated call
     * (double click, retry) records nothing new and waits for the same answer.
     */
    async capture(session: Session, orderId: string): Promise<CaptureOutcome> {
      const before = await loadOwnPurchase(core, orderId, session.userId);
      const amounts = { mlx: before.order.mlx.toString(), usdCents: before.order.usdCents.toString() };
      const failuresBefore = before.state.captureFailures;
      const outcomeOf = (answer: CaptureAnswer): CaptureOutcome => {
        if (answer.status === 'completed') return { orderId, status: 'COMPLETED', captureId: answer.captureId, ...amounts };
        const failure = answer.failure;
        return { orderId, status: 'DECLINED', ...amounts, ...(failure ? { issue: failure.issue, description: failure.description } : {}) };
      };
      const done = captureAnswer(before.state, failuresBefore);
      if (done) return outcomeOf(done);
      await requestCapture(core, { orderId, requestId: captureRequestIdFor(orderId, before.state), buyerUserId: session.userId });
      // Every event of this purchase after the one read above, from the log as it is appended.
      const answer = await waitForPurchase(core.store, {
        orderId,
        state: before.state,
        after: before.position,
        timeoutMs: deps.captureWaitMs,
        answer: (state) => captureAnswer(state, failuresBefore),
      });
      return answer ? outcomeOf(answer) : { orderId, status: 'PENDING', ...amounts };
    },

    /**
     * The spec's reserve transfer: `id` names the capture (or the order). MLX moves once, for the
     * buyer's own captured order and its exact MLX; everything else moves nothing and says why.
     */
    async credit(session: Session, input: { id: string; amount: string }): Promise<PurchaseCreditOutput> {
      // `id` names the capture or the order; creditPurchase refuses a made-up order (404) and someone else's (403).
      const credit = await creditPurchase(core, { id: input.id, buyerUserId: session.userId, mlx: BigInt(input.amount) });
      if (credit.position !== undefined) deps.noteWrite?.(session.userId, credit.position);
      return { success: true, id: credit.transferId, orderId: credit.orderId, captureId: credit.captureId, amount: credit.mlx.toString() };
    },

    async status(session: Session, orderId: string): Promise<PurchaseStatusView> {
      await loadOwnPurchase(core, orderId, session.userId);
      const view = await readPurchase(core, orderId, session.userId);
      if (!view) throw new AppError('NOT_FOUND', 'errors:purchaseNotFound');
      return {
        orderId: view.orderId,
        status: view.status,
        usdCents: view.usdCents.toString(),
        usdPerMlx: view.usdPerMlx,
        mlx: view.mlx.toString(),
        ...(view.captureId ? { captureId: view.captureId } : {}),
        ...(view.creditTransferId ? { creditTransferId: view.creditTransferId } : {}),
      };
    },

    /** A webhook PayPal delivered: verified with PayPal first; a forgery changes nothing. */
    async webhook(
      headers: Record<string, string | string[] | undefined>,
      rawBody: Buffer,
      clientAddress: string,
    ): Promise<PayPalWebhookOutcome> {
      await deps.limitWebhooks?.(clientAddress);
      return handlePayPalWebhook({ core, paypal }, headers, rawBody);
    },
  };
}
