/**
 * The invoice-payment job's data (issue 27): a deposit to another address of a wallet than its own
 * (an invoice's), at one stage. The job finds the invoice by that address and records the payment's
 * stage on it; the amount is the deposit's.
 */
import { DEPOSIT_ID_PATTERN, WALLET_ID_PATTERN } from '@quern/core/wallet';
import { z } from 'zod';

export const INVOICE_PAYMENT_QUEUE = 'invoice-payment';
export const INVOICE_PAYMENT_JOB_NAME = 'record-invoice-payment';

export const INVOICE_PAYMENT_STAGES = ['seen', 'settled', 'failed'] as const;
export type InvoicePaymentStage = (typeof INVOICE_PAYMENT_STAGES)[number];

/**
 * `invoice-payment-<stage>-<depositId>` with the deposit id's ':' written as '.' (BullMQ refuses
 * ':' in job ids; '.' occurs in no deposit id). A deposit id names one output of one network
 * transaction, so it names the payment without its wallet.
 */
export const invoicePaymentJobId = (stage: InvoicePaymentStage, depositId: string): string =>
  `invoice-payment-${stage}-${depositId.replaceAll(':', '.')}`;

export const invoicePaymentPayload = z
  .object({
    walletId: z.string().regex(WALLET_ID_PATTERN),
    depositId: z.string().regex(DEPOSIT_ID_PATTERN),
    toAddress: z.string().min(1).max(120),
    amountMlx: z.string().regex(/^[1-9][0-9]{0,19}$/),
    stage: z.enum(INVOICE_PAYMENT_STAGES),
  })
  .strict();
export type InvoicePaymentPayload = z.infer<typeof invoicePaymentPayload>;
