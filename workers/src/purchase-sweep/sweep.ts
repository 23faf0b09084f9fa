/**
 * The purchase sweep (ADR 026): every interval it reconciles the open orders that no event will
 * move on its own any more.
 *
 * - Captured, neither credited nor refunded, and older than the credit grace: credited
 *   (ensurePurchaseCredited; the credit job normally did it, this catches one that failed for good).
 * - Not captured, ordered within PayPal's approval window and before the grace: PayPal is asked
 *   (getOrder) and planCaptureSweep decides: approved but never asked for (the browser went away)
 *   -> the approval is recorded and the capture job captures; approved and asked for long ago
 *   without an answer -> captured here under that approval's PayPal-Request-Id; completed at PayPal
 *   -> its capture is recorded.
 *
 * The open orders come from the purchases read model (projections), never from a scan of the log.
 * Every step is idempotent, so overlapping with the jobs, webhooks or another process's sweep is
 * harmless. Each sweep is bounded: orders read per set, and PayPal look-ups (with a per-order
 * back-off, see LookBackoff).
 */
import { describeError, type Logger } from '@quern/core';
import { loadPurchase, PAYPAL_APPROVAL_WINDOW_MS, requestCapture } from '@quern/core/purchases';
import { settlesWithin, sleep } from '@quern/adapters/runtime';
import type { PurchaseJobDeps } from '../purchase-capture/deps.js';
import { captureAtPayPal, recordPayPalCapture } from '../purchase-capture/paypal-capture.js';
import { credit } from '../purchase-credit/job.js';
import { LookBackoff } from './look-backoff.js';
import { creditIsDue, planCaptureSweep } from './plan.js';

/** Times in ms since the epoch, inclusive (infinite for an open end); at most `limit` ids, oldest first. */
export interface OpenPurchaseRange {
  fromMs: number;
  toMs: number;
  limit: number;
}

/** The purchases read model as the sweep reads it (the composition root binds it to Redis). */
export interface OpenPurchases {
  awaitingCapture(range: OpenPurchaseRange): Promise<string[]>;
  awaitingCredit(range: OpenPurchaseRange): Promise<string[]>;
}

export interface StartPurchaseSweepOptions {
  deps: PurchaseJobDeps;
  openPurchases: OpenPurchases;
  /** Pause between sweeps (PURCHASE_SWEEP_INTERVAL_MS). */
  intervalMs: number;
  /** The buyer's browser's turn (PURCHASE_CREDIT_GRACE_MS): younger orders are left alone. */
  creditGraceMs: number;
  /** Orders read from each set per sweep (default 5,000). */
  ordersPerSweepMax?: number;
  /** PayPal look-ups per sweep (default 100). */
  payPalLooksPerSweepMax?: number;
}

/** A type, not an interface, so it fits the heartbeat record with its index signature. */
export type PurchaseSweepStatus = {
  running: boolean;
  sweeps: number;
  credited: number;
  captureRequests: number;
  capturesRecorded: number;
  lastError: string | undefined;
};

export interface PurchaseSweep {
  status(): PurchaseSweepStatus;
  close(): Promise<void>;
}

const CLOSE_TIMEOUT_MS = 5_000;

export function startPurchaseSweep(options: StartPurchaseSweepOptions): PurchaseSweep {
  const { intervalMs, creditGraceMs } = options;
  if (!Number.isInteger(intervalMs) || intervalMs < 1 || intervalMs > 86_400_000)
    throw new RangeError('Purchase sweep intervalMs must be an integer from 1 ms to a day');
  if (!Number.isInteger(creditGraceMs) || creditGraceMs < 0) throw new RangeError('creditGraceMs must be a non-negative integer');
  return new OpenPurchaseSweep({ ordersPerSweepMax: 5_000, payPalLooksPerSweepMax: 100, ...options });
}

class OpenPurchaseSweep implements PurchaseSweep {
  readonly #config: Required<StartPurchaseSweepOptions>;
  readonly #logger: Logger;
  readonly #abort = new AbortController();
  readonly #backoff: LookBackoff;
  readonly #loop: Promise<void>;
  readonly #counts = { sweeps: 0, credited: 0, captureRequests: 0, capturesRecorded: 0 };
  #running = true;
  #lastError: string | undefined;
  #closing: Promise<void> | undefined;

  constructor(config: Required<StartPurchaseSweepOptions>) {
    this.#config = config;
    this.#logger = config.deps.logger;
    this.#backoff = new LookBackoff(config.intervalMs);
    this.#loop = this.#run();
  }

  status(): PurchaseSweepStatus {
    return { running: this.#running, ...this.#counts, lastError: this.#lastError };
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#abort.abort();
      // A PayPal or Redis call that hangs must not hang shutdown with it.
      if (!(await settlesWithin(this.#loop, CLOSE_TIMEOUT_MS)))
        this.#logger.error('[purchase-sweep] closed while a sweep was still running');
    })();
    return this.#closing;
  }

  async #run(): Promise<void> {
    while (!this.#abort.signal.aborted) {
      await sleep(this.#config.intervalMs, this.#abort.signal);
      if (this.#abort.signal.aborted) break;
      try {
        await this.#sweep();
        this.#counts.sweeps += 1;
      } catch (error) {
        // The read model or the log unreachable: the next sweep tries again.
        this.#fail('sweep', error);
      }
    }
    this.#running = false;
  }

  async #sweep(): Promise<void> {
    const nowMs = this.#config.deps.core.clock.now().getTime();
    await this.#credits(nowMs);
    await this.#captures(nowMs);
  }

  async #credits(nowMs: number): Promise<void> {
    const { openPurchases, creditGraceMs, ordersPerSweepMax, deps } = this.#config;
    const range = { fromMs: Number.NEGATIVE_INFINITY, toMs: nowMs - creditGraceMs, limit: ordersPerSweepMax };
    for (const orderId of await openPurchases.awaitingCredit(range)) {
      if (this.#abort.signal.aborted) return;
      try {
        const { state } = await loadPurchase(deps.core, orderId);
        if (!creditIsDue(state)) continue;
        const result = await credit(orderId, deps);
        if (result.outcome === 'credited') this.#counts.credited += 1;
      } catch (error) {
        this.#fail(`credit of order ${orderId}`, error);
      }
    }
  }

  async #captures(nowMs: number): Promise<void> {
    const { openPurchases, creditGraceMs, ordersPerSweepMax, payPalLooksPerSweepMax } = this.#config;
    const range = { fromMs: nowMs - PAYPAL_APPROVAL_WINDOW_MS, toMs: nowMs - creditGraceMs, limit: ordersPerSweepMax };
    const open = await openPurchases.awaitingCapture(range);
    this.#backoff.keepOnly(new Set(open));
    let looks = 0;
    for (const orderId of open) {
      if (this.#abort.signal.aborted || looks >= payPalLooksPerSweepMax) return;
      if (!this.#backoff.isDue(orderId, nowMs)) continue;
      looks += 1;
      try {
        await this.#reconcileCapture(orderId, nowMs);
      } catch (error) {
        this.#fail(`capture of order ${orderId}`, error);
      } finally {
        this.#backoff.looked(orderId, nowMs);
      }
    }
  }

  async #reconcileCapture(orderId: string, nowMs: number): Promise<void> {
    const { deps, creditGraceMs } = this.#config;
    const { state } = await loadPurchase(deps.core, orderId);
    // The read model may lag the log: a capture recorded meanwhile needs no PayPal call.
    if (!state.order || state.capture) return;
    const order = await deps.paypal.getOrder(orderId);
    const action = planCaptureSweep(state, { status: order.status, captureStatus: order.capture?.status }, nowMs, creditGraceMs);
    switch (action.kind) {
      case 'none':
        return;
      case 'request':
        if (!(await requestCapture(deps.core, { orderId, requestId: action.requestId })).requested) return;
        this.#counts.captureRequests += 1;
        this.#logger.info(`[purchase-sweep] order ${orderId} is approved at PayPal but its capture was never asked for; asked now`);
        return;
      case 'capture':
        if ((await captureAtPayPal(deps, orderId, action.requestId)).outcome === 'captured') this.#counts.capturesRecorded += 1;
        return;
      case 'record':
        if (action.requestFirst !== undefined) await requestCapture(deps.core, { orderId, requestId: action.requestFirst });
        if ((await recordPayPalCapture(deps, orderId, undefined, order)).outcome === 'captured') this.#counts.capturesRecorded += 1;
        return;
    }
  }

  #fail(what: string, error: unknown): void {
    this.#lastError = `${what}: ${describeError(error)}`;
    this.#logger.error(`[purchase-sweep] ${this.#lastError}`);
  }
}
