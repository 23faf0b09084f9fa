/** The refund claim e-mail's registration: its queue, its rule and its processor (ADR 072, ADR 087). */
import { emailJobModule } from '../job/job-module.js';
import { sendInvoiceRefundEmail } from './job.js';
import { INVOICE_REFUND_EMAIL_QUEUE } from './payload.js';
import { invoiceRefundEmailRule } from './rules.js';

export const invoiceRefundEmailModule = emailJobModule(INVOICE_REFUND_EMAIL_QUEUE, [invoiceRefundEmailRule], sendInvoiceRefundEmail);
