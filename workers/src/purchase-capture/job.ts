/**
 * The capture job: PurchaseCaptureRequested -> a capture at PayPal -> PurchaseCaptured or
 * PurchaseCaptureFailed (naming the request, which closes the job; ADR 026). It reads the
 * purchase stream first: an order captured already, or an approval answered already (a re-run,
 * a job re-derived after a Redis loss), calls PayPal for nothing.
 */
import { captureJobStanding, loadPurchase } from '@quern/core/purchases';
import { UnrecoverableError } from 'bullmq';
import { parsePayload } from '../job/parse-payload.js';
import type { PurchaseJobDeps } from './deps.js';
import { purchaseCapturePayload } from './payload.js';
import { captureAtPayPal, type CaptureStepResult } from './paypal-capture.js';

export type CaptureJobResult = CaptureStepResult | { outcome: 'already-answered' };

export async function capturePurchase(data: unknown, deps: PurchaseJobDeps): Promise<CaptureJobResult> {
  const { orderId, requestId } = parsePayload(purchaseCapturePayload, data);
  const { state } = await loadPurchase(deps.core, orderId);
  switch (captureJobStanding(state, requestId)) {
    case 'unknownApproval':
      // No retry will find an approval its own stream does not hold.
      throw new UnrecoverableError(`Order ${orderId} has no capture request ${requestId}`);
    case 'alreadyCaptured':
      return { outcome: 'already-captured' };
    case 'alreadyAnswered':
      return { outcome: 'already-answered' };
    case 'capture':
      return captureAtPayPal(deps, orderId, requestId);
  }
}
