/**
 * The credit job's data: the order and when it was captured (the grace counts from it). The MLX,
 * the buyer and the capture come from the purchase stream, never from the job.
 */
import { PURCHASE_ID_PATTERN } from '@quern/core/purchases';
import { z } from 'zod';

export const PURCHASE_CREDIT_QUEUE = 'purchase-credit';
export const PURCHASE_CREDIT_JOB_NAME = 'credit-purchase';

/** One credit per order, whoever asks and however often. */
export const purchaseCreditJobId = (orderId: string): string => `purchase-credit-${orderId}`;

export const purchaseCreditPayload = z
  .object({
    orderId: z.string().regex(PURCHASE_ID_PATTERN),
    /** From PurchaseCaptured, checked loosely: a time the job cannot read only skips the grace, never the credit. */
    capturedAt: z.string().min(1).max(40),
  })
  .strict();
export type PurchaseCreditPayload = z.infer<typeof purchaseCreditPayload>;
