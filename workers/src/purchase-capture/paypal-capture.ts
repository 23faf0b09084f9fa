/**
 * One capture at PayPal for one approval, and PayPal's answer recorded in the purchase stream
 * (ADR 026). Used by the capture job and by the sweep. The approval's request id is sent as
 * PayPal-Request-Id, so a retry, a stalled re-run or the sweep capturing the same approval is
 * the same capture at PayPal; recording is idempotent (recordCaptureResult appends nothing twice).
 *
 * - COMPLETED capture: PurchaseCaptured (capture id, cents); the credit follows from it.
 * - 422 or another refusal that a retry cannot change (INSTRUMENT_DECLINED, ORDER_NOT_APPROVED…):
 *   PurchaseCaptureFailed with PayPal's issue and description; the buyer may approve again.
 * - ORDER_ALREADY_CAPTURED: the order is read and its capture recorded.
 * - PayPal unreachable, 5xx, or our credentials refused: thrown, so BullMQ retries with backoff.
 * - PENDING capture: nothing recorded; PayPal's PAYMENT.CAPTURE.COMPLETED webhook or the sweep
 *   records it once PayPal completes it.
 */
import { AppError, isRefusal } from '@quern/core';
import { recordCaptureResult } from '@quern/core/purchases';
import { type PayPalOrder, PayPalError } from '@quern/adapters/paypal';
import { UnrecoverableError } from 'bullmq';
import type { PurchaseJobDeps } from './deps.js';

export type CaptureStepResult =
  | { outcome: 'captured'; captureId: string }
  | { outcome: 'declined'; issue: string }
  /** PayPal holds the capture PENDING: the webhook or the sweep records it later. */
  | { outcome: 'pending' }
  /** A capture in a state that is neither taken nor refused (e.g. already REFUNDED at PayPal): logged, nothing recorded. */
  | { outcome: 'not-recorded'; status: string }
  /** The purchase stream recorded a capture meanwhile (the webhook was faster). */
  | { outcome: 'already-captured' };

/** Worth retrying: PayPal did not answer or failed, or refused our credentials (an operator can fix them). */
export function isTransientPayPalError(error: PayPalError): boolean {
  return error.status === 0 || error.status >= 500 || [401, 403, 408, 429].includes(error.status);
}

export async function captureAtPayPal(deps: PurchaseJobDeps, orderId: string, requestId: string): Promise<CaptureStepResult> {
  let order: PayPalOrder;
  try {
    order = await deps.paypal.captureOrder(orderId, requestId);
  } catch (error) {
    if (!(error instanceof PayPalError) || isTransientPayPalError(error)) throw error;
    if (error.issue !== 'ORDER_ALREADY_CAPTURED')
      return recordFailure(deps, orderId, requestId, error.issue ?? error.name, error.description);
    order = await deps.paypal.getOrder(orderId);
  }
  return recordPayPalCapture(deps, orderId, requestId, order);
}

/**
 * Records what PayPal's order says about its capture. `requestId` is the approval it answers;
 * undefined lets core attach it to the open approval (the sweep's case, as for a webhook).
 */
export async function recordPayPalCapture(
  deps: PurchaseJobDeps,
  orderId: string,
  requestId: string | undefined,
  order: PayPalOrder,
): Promise<CaptureStepResult> {
  const capture = order.capture;
  // A capture call that succeeded must name its capture; without one, ask again later.
  if (!capture) throw new Error(`PayPal answered order ${orderId} (${order.status}) without a capture`);
  switch (capture.status) {
    case 'COMPLETED':
      try {
        const result = { status: 'completed' as const, captureId: capture.id, usdCents: BigInt(capture.usdCents) };
        await recordCaptureResult(deps.core, { orderId, result, ...(requestId === undefined ? {} : { requestId }) });
        return { outcome: 'captured', captureId: capture.id };
      } catch (error) {
        // Another capture id for this order, or this capture id for another order: PayPal and the log disagree; no retry changes that.
        if (error instanceof AppError && error.code === 'CONFLICT')
          throw new UnrecoverableError(`Capture ${capture.id} of order ${orderId} cannot be recorded: ${error.messageKey}`);
        throw error;
      }
    case 'PENDING':
      deps.logger.info(
        `[purchases] PayPal holds the capture ${capture.id} of order ${orderId} PENDING; the webhook or the sweep records it`,
      );
      return { outcome: 'pending' };
    case 'DECLINED':
    case 'FAILED':
      return recordFailure(deps, orderId, requestId, `CAPTURE_${capture.status}`, `PayPal reported the capture ${capture.status}`);
    default:
      deps.logger.error(`[purchases] order ${orderId}: PayPal reports its capture ${capture.id} ${capture.status}; nothing recorded`);
      return { outcome: 'not-recorded', status: capture.status };
  }
}

async function recordFailure(
  deps: PurchaseJobDeps,
  orderId: string,
  requestId: string | undefined,
  issue: string,
  description: string,
): Promise<CaptureStepResult> {
  const result = { status: 'failed' as const, issue: issue.slice(0, 200), description };
  try {
    await recordCaptureResult(deps.core, { orderId, result, ...(requestId === undefined ? {} : { requestId }) });
    return { outcome: 'declined', issue: result.issue };
  } catch (error) {
    if (isRefusal(error, 'alreadyCaptured')) return { outcome: 'already-captured' };
    throw error;
  }
}
