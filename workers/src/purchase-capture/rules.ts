/** The purchase capture's dispatch rule (ADR 026). */
import { toPurchaseEvent, type PurchaseEvent } from '@quern/core/purchases';
import { typedRule } from '../job/dispatch-rule.js';
import { PURCHASE_CAPTURE_JOB_NAME, PURCHASE_CAPTURE_QUEUE, purchaseCaptureJobId, purchaseCapturePayload } from './payload.js';

type PurchaseEventOf<T extends PurchaseEvent['type']> = Extract<PurchaseEvent, { type: T }>;

const captureRequest = ({ data }: PurchaseEventOf<'PurchaseCaptureRequested'>) =>
  purchaseCapturePayload.parse({ orderId: data.orderId, requestId: data.requestId });

/**
 * A purchase's capture at PayPal (ADR 026). The request is the buyer's approval; it is done when
 * a capture result names that approval. A result recorded before results named their approval
 * closes no job: such a job, re-derived, finds the result in the log and calls PayPal for nothing.
 */
export const purchaseCaptureRule = typedRule<
  PurchaseEventOf<'PurchaseCaptureRequested'>,
  PurchaseEventOf<'PurchaseCaptured' | 'PurchaseCaptureFailed'>
>({
  read: toPurchaseEvent,
  request: 'PurchaseCaptureRequested',
  completions: ['PurchaseCaptured', 'PurchaseCaptureFailed'],
  queue: PURCHASE_CAPTURE_QUEUE,
  name: PURCHASE_CAPTURE_JOB_NAME,
  jobId: (event) => {
    const { orderId, requestId } = captureRequest(event);
    return purchaseCaptureJobId(orderId, requestId);
  },
  payload: (event) => captureRequest(event),
  matchCompletion: ({ data }) => purchaseCaptureJobId(data.orderId, data.requestId ?? ''),
});
