/** The receipt e-mail job's data: the order only; figures, buyer and address come from the log. */
import { PURCHASE_ID_PATTERN } from '@quern/core/purchases';
import { z } from 'zod';

export const PURCHASE_RECEIPT_EMAIL_QUEUE = 'purchase-receipt-email';
export const PURCHASE_RECEIPT_EMAIL_JOB_NAME = 'send-purchase-receipt-email';

export const purchaseReceiptEmailJobId = (orderId: string): string => `purchase-receipt-email-${orderId}`;

export const purchaseReceiptEmailPayload = z.object({ orderId: z.string().regex(PURCHASE_ID_PATTERN) }).strict();
export type PurchaseReceiptEmailPayload = z.infer<typeof purchaseReceiptEmailPayload>;

/** The mail's Message-ID key: Message-IDs allow '.', order ids allow '_' but never '.', so the swap is one-to-one. */
export const purchaseReceiptMessageKey = (orderId: string): string => `purchase-receipt-${orderId.replaceAll('_', '.')}`;
