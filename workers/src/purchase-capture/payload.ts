/**
 * The capture job's data: the order and the approval (PurchaseCaptureRequested) it captures.
 * Nothing else: the amount and the buyer come from the purchase stream, and the request id is
 * the PayPal-Request-Id, so a retried or re-run capture is the same capture at PayPal.
 */
import { PURCHASE_ID_PATTERN } from '@quern/core/purchases';
import { z } from 'zod';

export const PURCHASE_CAPTURE_QUEUE = 'purchase-capture';
export const PURCHASE_CAPTURE_JOB_NAME = 'capture-purchase';

/** Provider ids have no ':' (which BullMQ refuses in job ids); the order id is in it so two orders never share a job. */
export const purchaseCaptureJobId = (orderId: string, requestId: string): string => `purchase-capture-${orderId}-${requestId}`;

const purchaseId = z.string().regex(PURCHASE_ID_PATTERN);
export const purchaseCapturePayload = z.object({ orderId: purchaseId, requestId: purchaseId }).strict();
export type PurchaseCapturePayload = z.infer<typeof purchaseCapturePayload>;
