/**
 * The credit job: after PurchaseCaptured, and a grace, the order's MLX moves from the reserve to
 * the buyer through core's exactly-once credit (ensurePurchaseCredited, ADR 025).
 *
 * Why the grace (ADR 026): the spec's client claims the credit itself with
 * `POST /api/reserve/transfer` right after the capture, and a second claim answers 409 "already
 * credited". If the worker credited at once, a buyer whose browser is still there would see that
 * 409 for the purchase they just made. The job waits in BullMQ's delayed set (no worker is held)
 * and is the safety net for a browser that went away.
 *
 * It reads the purchase stream first, and again after the wait: credited already (the browser,
 * the sweep, an earlier run) or refunded before the credit ends the job without moving anything.
 */
import { creditFromLog, creditStanding, loadPurchase } from '@quern/core/purchases';
import { UnrecoverableError } from 'bullmq';
import type { PurchaseJobDeps } from '../purchase-capture/deps.js';
import { parsePayload } from '../job/parse-payload.js';
import type { ResumableJob } from '../job/resumable.js';
import { purchaseCreditPayload } from './payload.js';

export interface PurchaseCreditDeps extends Pick<PurchaseJobDeps, 'core' | 'logger'> {
  /** How long after the capture the worker leaves the credit to the buyer's browser. */
  creditGraceMs: number;
}

export type CreditJobResult =
  | { outcome: 'credited'; transferId: string }
  /** The log already holds the credit: the browser, the sweep, or an earlier run. */
  | { outcome: 'already-credited'; transferId: string }
  /** Money was given back before the credit; the credit is refused from then on (ADR 025). */
  | { outcome: 'refunded' };

export async function creditPurchaseAfterGrace(job: ResumableJob, deps: PurchaseCreditDeps): Promise<CreditJobResult> {
  const { orderId, capturedAt } = parsePayload(purchaseCreditPayload, job.data);
  const { state } = await loadPurchase(deps.core, orderId);
  const standing = creditStanding(state);
  // The job comes from a PurchaseCaptured in this very stream; if it is not there, no retry can find it.
  if (standing === 'notCaptured') throw new UnrecoverableError(`Order ${orderId} has no recorded capture`);
  if (state.credit) return { outcome: 'already-credited', transferId: state.credit.transferId };
  if (standing === 'refunded') return { outcome: 'refunded' };

  const nowMs = deps.core.clock.now().getTime();
  const notBeforeMs = creditNotBeforeMs(capturedAt, nowMs, deps.creditGraceMs);
  if (nowMs < notBeforeMs) return job.runAgainAt(notBeforeMs);
  return credit(orderId, deps);
}

/** Credits the order now (the sweep's path too); a refund before the credit is an answer, not a failure. */
export async function credit(orderId: string, deps: Pick<PurchaseJobDeps, 'core' | 'logger'>): Promise<CreditJobResult> {
  // The reserve short of MLX, a lost race, the store: thrown, retried with backoff (and by the sweep after that).
  const outcome = await creditFromLog(deps.core, orderId);
  switch (outcome.kind) {
    case 'credited': {
      const { mlx, buyerUserId, transferId } = outcome.credit;
      deps.logger.info(`[purchases] credited order ${orderId}: ${mlx} MLX to ${buyerUserId} (${transferId})`);
      return { outcome: 'credited', transferId };
    }
    case 'alreadyCredited':
      return { outcome: 'already-credited', transferId: outcome.credit.transferId };
    case 'refunded':
      return { outcome: 'refunded' };
    case 'capturedAmountMismatch':
      // Never credited (ADR 025); an operator settles it with the buyer.
      throw new UnrecoverableError(`Order ${orderId} was captured for another amount than ordered; not credited`);
  }
}

/**
 * The grace counts from the capture, so a job re-derived long after it (a Redis loss, a worker
 * outage, a crash) credits at once. A capture time in the future (clock skew between processes)
 * or unreadable cannot stretch the wait beyond the grace from now.
 */
export function creditNotBeforeMs(capturedAt: string, nowMs: number, creditGraceMs: number): number {
  if (creditGraceMs <= 0) return nowMs;
  const capturedAtMs = Date.parse(capturedAt);
  if (Number.isNaN(capturedAtMs)) return nowMs;
  return Math.min(capturedAtMs, nowMs) + creditGraceMs;
}
