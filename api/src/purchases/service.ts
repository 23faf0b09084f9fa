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
  type CaptureOutcome,
  type CreatedOrder,
  type PayPalBrowserConfig,
  type PurchaseCreditOutput,
  type PurchaseDeps,
  type PurchaseStatusView,
  PURCHASE_ID_PATTERN,
  PURCHASE_MAX_USD_CENTS,
  PURCHASE_MIN_USD_CENTS,
  captureRequestIdFor,
  creditPurchase,
  findOrderIdByCaptureId,
  loadPurchase,
  orderPurchase,
  parseUsdAmount,
  pricePurchase,
  readPurchase,
  requestCapture,
  reserveAvailableMlx,
} from '@quern/core/purchases';
import { currentExchangeRate } from '@quern/core/wallet';
import { type PayPalClient, PayPalError } from '@quern/adapters/paypal';
import type { Session } from '../identity/sessions.js';
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
  /** How often the capture call looks at the purchase stream while it waits. */
  pollMs?: number;
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

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export function createPurchaseService(deps: PurchaseServiceDeps) {
  const { core, paypal } = deps;
  const pollMs = deps.pollMs ?? 25;

  async function rateOrFail() {
    const rate = await currentExchangeRate(core.store).catch(() => undefined);
    if (!rate) throw new AppError('UNAVAILABLE', 'errors:exchangeRateUnavailable');
    return rate;
  }

  /** The owner's purchase state; a made-up order is NOT_FOUND, someone else's FORBIDDEN. */
  async function ownPurchase(session: Session, orderId: string) {
    if (!PURCHASE_ID_PATTERN.test(orderId)) throw new AppError('NOT_FOUND', 'errors:purchaseNotFound');
    const loaded = await loadPurchase(core, orderId);
    const order = loaded.state.order;
    if (!order) throw new AppError('NOT_FOUND', 'errors:purchaseNotFound');
    if (order.buyerUserId !== session.userId) throw new AppError('FORBIDDEN', 'errors:purchaseForbidden');
    return { ...loaded, order };
  }

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
      const parsed = parseUsdAmount(usdText);
      if (!parsed.ok) throw new AppError('VALIDATION', parsed.messageKey, { usd: parsed.messageKey });
      const { usdCents } = parsed;
      const rate = await rateOrFail();
      const price = pricePurchase({ usdCents, rate, reserveAvailableMlx: await reserveAvailableMlx(core) });
      if (!price.ok) {
        if (price.messageKey === 'errors:purchaseUnavailable') throw new AppError('UNAVAILABLE', price.messageKey);
        throw new AppError('VALIDATION', price.messageKey, { usd: price.messageKey });
      }
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
      const before = await ownPurchase(session, orderId);
      const amounts = { mlx: before.order.mlx.toString(), usdCents: before.order.usdCents.toString() };
      const failuresBefore = before.state.captureFailures;
      const outcomeOf = (state: typeof before.state): CaptureOutcome | undefined => {
        if (state.capture) return { orderId, status: 'COMPLETED', captureId: state.capture.captureId, ...amounts };
        if (state.captureStatus === 'failed' && state.captureFailures > failuresBefore) {
          const failure = state.lastFailure;
          return {
            orderId,
            status: 'DECLINED',
            ...amounts,
            ...(failure ? { issue: failure.issue, description: failure.description } : {}),
          };
        }
        return undefined;
      };
      const done = outcomeOf(before.state);
      if (done) return done;
      await requestCapture(core, { orderId, requestId: captureRequestIdFor(orderId, before.state), buyerUserId: session.userId });
      const deadline = Date.now() + deps.captureWaitMs;
      while (Date.now() < deadline) {
        await sleep(pollMs);
        const outcome = outcomeOf((await loadPurchase(core, orderId)).state);
        if (outcome) return outcome;
      }
      return { orderId, status: 'PENDING', ...amounts };
    },

    /**
     * The spec's reserve transfer: `id` names the capture (or the order). MLX moves once, for the
     * buyer's own captured order and its exact MLX; everything else moves nothing and says why.
     */
    async credit(session: Session, input: { id: string; amount: string }): Promise<PurchaseCreditOutput> {
      const orderId = (await findOrderIdByCaptureId(core, input.id)) ?? input.id;
      // creditPurchase refuses a made-up order (404) and someone else's (403) itself.
      const credit = await creditPurchase(core, { orderId, buyerUserId: session.userId, mlx: BigInt(input.amount) });
      if (credit.position !== undefined) deps.noteWrite?.(session.userId, credit.position);
      return { success: true, id: credit.transferId, orderId: credit.orderId, captureId: credit.captureId, amount: credit.mlx.toString() };
    },

    async status(session: Session, orderId: string): Promise<PurchaseStatusView> {
      await ownPurchase(session, orderId);
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
