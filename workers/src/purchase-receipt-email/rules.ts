/** The purchase receipt's dispatch rule. */
import { toPurchaseEvent, type PurchaseEvent } from '@quern/core/purchases';
import { typedRule } from '../job/dispatch-rule.js';
import {
  PURCHASE_RECEIPT_EMAIL_JOB_NAME,
  PURCHASE_RECEIPT_EMAIL_QUEUE,
  purchaseReceiptEmailJobId,
  purchaseReceiptEmailPayload,
} from './payload.js';

type PurchaseEventOf<T extends PurchaseEvent['type']> = Extract<PurchaseEvent, { type: T }>;

/** The buyer's receipt e-mail, once the MLX is credited; done when the purchase stream records it sent. */
export const purchaseReceiptEmailRule = typedRule<PurchaseEventOf<'PurchaseCredited'>, PurchaseEventOf<'PurchaseReceiptSent'>>({
  read: toPurchaseEvent,
  request: 'PurchaseCredited',
  completions: ['PurchaseReceiptSent'],
  queue: PURCHASE_RECEIPT_EMAIL_QUEUE,
  name: PURCHASE_RECEIPT_EMAIL_JOB_NAME,
  jobId: ({ data }) => purchaseReceiptEmailJobId(purchaseReceiptEmailPayload.parse({ orderId: data.orderId }).orderId),
  payload: ({ data }) => purchaseReceiptEmailPayload.parse({ orderId: data.orderId }),
  matchCompletion: ({ data }) => purchaseReceiptEmailJobId(data.orderId),
});
