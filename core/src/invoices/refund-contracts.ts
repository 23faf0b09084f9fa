/**
 * The wire shapes of invoice refunds (ADR 087): what `POST /api/v1/invoices/{id}/refunds` takes,
 * the refund as every call answers it (also inside the invoice), and the public view and claim of
 * the payer's link. Amounts are whole MLX as decimal text.
 */
import { z } from 'zod';
import { positiveMlxText } from '../refunds/contracts.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../wallet/events.js';
import { mlxToWire } from '../wallet/money.js';
import type { InvoiceRefund, InvoiceState } from './state.js';

export const INVOICE_REFUND_STATUSES = ['awaiting_claim', 'canceled', 'pending', 'succeeded', 'failed'] as const;
/** How a refund stands: waiting for the payer's claim, canceled, or its payout's outcome once claimed. */
export type InvoiceRefundStatus = (typeof INVOICE_REFUND_STATUSES)[number];

export const invoiceRefundCreateInput = z.strictObject({
  amount: positiveMlxText.optional().meta({
    description: 'MLX to give back, as decimal text; absent: all that reached the invoice and is not refunded yet.',
    example: '1500',
  }),
});
export type InvoiceRefundCreateInput = z.output<typeof invoiceRefundCreateInput>;

/** The web's procedures: the invoice, and for a new refund the key the page made for this attempt. */
export const invoiceRefundCreateTrpcInput = invoiceRefundCreateInput.extend({
  id: z.string({ error: 'errors:invoiceNotFound' }).max(200, { error: 'errors:invoiceNotFound' }),
  idempotencyKey: z.string().regex(IDEMPOTENCY_KEY_PATTERN, { error: 'errors:idempotencyKeyInvalid' }),
});
export const invoiceRefundCancelTrpcInput = z.strictObject({
  id: z.string({ error: 'errors:invoiceNotFound' }).max(200, { error: 'errors:invoiceNotFound' }),
  refundId: z.string({ error: 'errors:invoiceRefundNotFound' }).max(200, { error: 'errors:invoiceRefundNotFound' }),
});

export const invoiceRefundParams = z.strictObject({
  id: z.string().max(200).meta({ description: 'The invoice id, `in_…`.' }),
  refund_id: z.string().max(200).meta({ description: 'The refund id, `ir_…`.' }),
});

const time = (description: string) =>
  z
    .string()
    .nullable()
    .meta({ description: `${description} (ISO 8601); null until then.` });

export const invoiceRefundOutput = z.object({
  id: z.string().meta({ description: 'The refund id, `ir_` and 32 hex digits.' }),
  object: z.literal('invoice_refund'),
  invoice: z.string().meta({ description: 'The invoice it refunds.' }),
  amount_mlx: z.string().meta({ description: 'MLX sent back, whole MLX as decimal text (the payout fee of 1000 MLX is yours).' }),
  status: z.enum(INVOICE_REFUND_STATUSES).meta({
    description:
      '`awaiting_claim` until the payer names an address on the claim link; `canceled` if you withdrew it first; then its payout: `pending`, `succeeded` or `failed` (a failed refund holds nothing: refund again).',
  }),
  claim_url: z.string().nullable().meta({
    description:
      'The single-use link where the payer names the address to refund to: pass it on. Null once claimed or canceled, and in webhooks.',
  }),
  emailed: z.boolean().meta({ description: "True once the claim link was mailed to the invoice's `customer_email`." }),
  payout: z.string().nullable().meta({ description: 'The payout that sends it (`po_…`), once claimed.' }),
  to_address: z.string().nullable().meta({ description: 'The millix address the payer named, once claimed.' }),
  created_at: z.string().meta({ description: 'When it was created (ISO 8601).' }),
  claimed_at: time('When the payer claimed it'),
  canceled_at: time('When it was canceled'),
});
export type InvoiceRefundOutput = z.infer<typeof invoiceRefundOutput>;

export interface RefundContext {
  /** The claim link of a refund; undefined where no app secret is at hand (webhooks). */
  claimUrl?: (refundId: string) => string;
  /** The outcome of each claimed refund's payout (refunds.ts refundPayoutStatuses). */
  payoutStatuses?: ReadonlyMap<string, InvoiceRefundStatus>;
}

export const failedRefundIdsOf = (statuses: ReadonlyMap<string, InvoiceRefundStatus>): Set<string> =>
  new Set([...statuses].filter(([, status]) => status === 'failed').map(([refundId]) => refundId));

export function refundStatusOf(refund: InvoiceRefund, payoutStatuses: ReadonlyMap<string, InvoiceRefundStatus>): InvoiceRefundStatus {
  if (refund.canceledAt !== undefined) return 'canceled';
  if (!refund.claim) return 'awaiting_claim';
  return payoutStatuses.get(refund.refundId) ?? 'pending';
}

export function toInvoiceRefundOutput(
  invoice: InvoiceState,
  refund: InvoiceRefund,
  payoutStatuses: ReadonlyMap<string, InvoiceRefundStatus>,
  claimUrl: RefundContext['claimUrl'],
): InvoiceRefundOutput {
  const status = refundStatusOf(refund, payoutStatuses);
  return {
    id: refund.refundId,
    object: 'invoice_refund',
    invoice: invoice.invoiceId,
    amount_mlx: mlxToWire(refund.amountMlx),
    status,
    claim_url: status === 'awaiting_claim' && claimUrl ? claimUrl(refund.refundId) : null,
    emailed: refund.emailedAt !== undefined,
    payout: refund.claim?.payoutId ?? null,
    to_address: refund.claim?.toAddress ?? null,
    created_at: refund.createdAt,
    claimed_at: refund.claim?.claimedAt ?? null,
    canceled_at: refund.canceledAt ?? null,
  };
}

/** What the payer's link shows: who refunds how much, for what, and where the refund stands. */
export const refundClaimInput = z.strictObject({
  refundId: z.string({ error: 'errors:refundClaimNotFound' }).max(200, { error: 'errors:refundClaimNotFound' }),
  token: z.string({ error: 'errors:refundClaimNotFound' }).max(200, { error: 'errors:refundClaimNotFound' }),
});
export const refundClaimSubmitInput = refundClaimInput.extend({
  address: z
    .string({ error: 'errors:allFieldsRequired' })
    .trim()
    .min(1, { error: 'errors:allFieldsRequired' })
    .max(200, { error: 'errors:invalidAddress' }),
});

export const refundClaimOutput = z.object({
  refund_id: z.string(),
  status: z.enum(INVOICE_REFUND_STATUSES),
  amount_mlx: z.string(),
  merchant: z.object({ name: z.string(), username: z.string() }),
  reference: z.string().nullable(),
  description: z.string().nullable(),
  to_address: z.string().nullable(),
  claimed_at: z.string().nullable(),
});
export type RefundClaimOutput = z.infer<typeof refundClaimOutput>;
