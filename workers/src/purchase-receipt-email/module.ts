/** The purchase receipt's registration: its queue, its rule and its processor (ADR 072). */
import { emailJobModule } from '../job/job-module.js';
import { sendPurchaseReceiptEmail } from './job.js';
import { PURCHASE_RECEIPT_EMAIL_QUEUE } from './payload.js';
import { purchaseReceiptEmailRule } from './rules.js';

export const purchaseReceiptEmailModule = emailJobModule(
  PURCHASE_RECEIPT_EMAIL_QUEUE,
  [purchaseReceiptEmailRule],
  sendPurchaseReceiptEmail,
);
