/**
 * Invoice events (issue 27). One stream per invoice, `invoice-<id>`: created once ('no_stream'),
 * then each payment seen, each settled or failed, the expiry and a void, each under the revision
 * it was decided on. A payment is a deposit to the invoice's own address (from any millix wallet)
 * or a transfer from a Quern balance; its id is the deposit's or the transfer's, so seeing the
 * same payment twice records it once.
 */
import { z } from 'zod';
import { PAYOUT_ID_PATTERN } from '../payouts/events.js';

export const INVOICE_STREAM_PREFIX = 'invoice-';
export const invoiceStream = (invoiceId: string): string => `${INVOICE_STREAM_PREFIX}${invoiceId}`;

/** `in_` and 32 lower-case hex digits: opaque, unguessable, safe in URLs and stream names. */
export const INVOICE_ID_PATTERN = /^in_[0-9a-f]{32}$/;
/** A refund of an invoice (ADR 087): `ir_` and 32 hex digits, a digest of the merchant and the request's Idempotency-Key. */
export const INVOICE_REFUND_ID_PATTERN = /^ir_[0-9a-f]{32}$/;
/** A payment's id: the deposit's id or the transfer's (bounded like every id the ledger names). */
export const INVOICE_PAYMENT_ID_PATTERN = /^[A-Za-z0-9_:-]{1,128}$/;

/** The most metadata keys an invoice carries (issue 27). */
export const INVOICE_METADATA_KEYS_MAX = 20;

export const INVOICE_CURRENCIES = ['MLX', 'USD'] as const;
export type InvoiceCurrency = (typeof INVOICE_CURRENCIES)[number];
/** How a payment reached the invoice: a deposit from any millix wallet, or a Quern user's balance. */
export const INVOICE_PAYMENT_ROUTES = ['network', 'quern'] as const;
/** An invoice's statuses (state.ts says when each holds). */
export const INVOICE_STATUSES = ['open', 'processing', 'partially_paid', 'paid', 'expired', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/**
 * Every event after InvoiceCreated carries the invoice's merchant and its status once the event
 * applies, so that a read model and the webhooks follow status changes from the events alone,
 * without folding the stream; `previousStatus` tells a change of status from another payment in
 * the same one (a second payment seen while processing, an overpayment once paid).
 */
type StatusAfter = { merchantUserId: string; status: InvoiceStatus; previousStatus: InvoiceStatus };
export type InvoicePaymentRoute = (typeof INVOICE_PAYMENT_ROUTES)[number];

/** What the merchant asked for, fixed for the invoice's life. Amounts are wire text (whole MLX, USD cents). */
export type InvoiceTerms = {
  amountMlx: string;
  currency: InvoiceCurrency;
  /** USD invoices: the price asked, and the rate it was converted at when the invoice was created. */
  usdCents?: string;
  usdPerMlx?: string;
  reference?: string;
  description?: string;
  metadata: Record<string, string>;
  redirectUrl?: string;
  /** The payer's e-mail, when the merchant gave one: a refund's claim link is mailed there (ADR 087). Sealed (ADR 042). */
  customerEmail?: string;
  expiresAt: string;
};

export interface InvoiceCreated {
  type: 'InvoiceCreated';
  data: InvoiceTerms & { invoiceId: string; merchantUserId: string; address: string; createdAt: string };
}

/** A payment is seen, not yet stable: a deposit waiting for its confirmations. A Quern transfer is settled at once instead. */
export interface InvoicePaymentSeen {
  type: 'InvoicePaymentSeen';
  data: { invoiceId: string; paymentId: string; route: InvoicePaymentRoute; amountMlx: string; seenAt: string } & StatusAfter;
}

/** A payment is stable: its MLX belong to the merchant. */
export interface InvoicePaymentSettled {
  type: 'InvoicePaymentSettled';
  data: { invoiceId: string; paymentId: string; route: InvoicePaymentRoute; amountMlx: string; settledAt: string } & StatusAfter;
}

/** A payment seen that the network then refused: it never counted. */
export interface InvoicePaymentFailed {
  type: 'InvoicePaymentFailed';
  data: {
    invoiceId: string;
    paymentId: string;
    failedAt: string;
    /** Set when the refusal is the first the invoice hears of the payment (the network's order is not the jobs'). */
    route?: InvoicePaymentRoute;
    amountMlx?: string;
  } & StatusAfter;
}

export interface InvoiceExpired {
  type: 'InvoiceExpired';
  data: { invoiceId: string; expiredAt: string } & StatusAfter;
}

export interface InvoiceVoided {
  type: 'InvoiceVoided';
  data: { invoiceId: string; voidedAt: string } & StatusAfter;
}

/**
 * The merchant refunds part or all of what reached the invoice (ADR 087). No MLX moves yet: the
 * payer claims the refund through a single-use link, naming the address it goes to.
 * `notifyByEmail` says the invoice had the payer's e-mail, so the link is mailed there.
 */
export interface InvoiceRefundCreated {
  type: 'InvoiceRefundCreated';
  data: { invoiceId: string; refundId: string; amountMlx: string; notifyByEmail: boolean; createdAt: string } & StatusAfter;
}

/** The payer claimed the refund: appended atomically with the payout that sends it to `toAddress`. */
export interface InvoiceRefundClaimed {
  type: 'InvoiceRefundClaimed';
  data: { invoiceId: string; refundId: string; payoutId: string; toAddress: string; claimedAt: string } & StatusAfter;
}

/** The merchant withdrew an unclaimed refund: its link claims nothing any more. */
export interface InvoiceRefundCanceled {
  type: 'InvoiceRefundCanceled';
  data: { invoiceId: string; refundId: string; canceledAt: string } & StatusAfter;
}

/** The claim link went to the payer's e-mail (the e-mail job's completion). */
export interface InvoiceRefundEmailSent {
  type: 'InvoiceRefundEmailSent';
  data: { invoiceId: string; refundId: string; messageId: string; sentAt: string } & StatusAfter;
}

export type InvoiceRefundEvent = InvoiceRefundCreated | InvoiceRefundClaimed | InvoiceRefundCanceled | InvoiceRefundEmailSent;

export type InvoiceEvent =
  | InvoiceCreated
  | InvoicePaymentSeen
  | InvoicePaymentSettled
  | InvoicePaymentFailed
  | InvoiceExpired
  | InvoiceVoided
  | InvoiceRefundEvent;

const time = z.string().min(1).max(40);
const mlx = z.string().regex(/^[1-9][0-9]{0,19}$/);
const invoiceId = z.string().regex(INVOICE_ID_PATTERN);
const paymentId = z.string().regex(INVOICE_PAYMENT_ID_PATTERN);
const route = z.enum(INVOICE_PAYMENT_ROUTES);
const status = z.enum(INVOICE_STATUSES);
const merchantUserId = z.string().min(1).max(200);
const refundId = z.string().regex(INVOICE_REFUND_ID_PATTERN);
const statusAfter = { merchantUserId, status, previousStatus: status };

const schemas = {
  InvoiceCreated: z.object({
    invoiceId,
    merchantUserId: z.string().min(1).max(200),
    address: z.string().min(1).max(120),
    amountMlx: mlx,
    currency: z.enum(INVOICE_CURRENCIES),
    usdCents: mlx.optional(),
    usdPerMlx: z
      .string()
      .regex(/^[0-9]{1,20}(\.[0-9]{1,20})?$/)
      .optional(),
    reference: z.string().min(1).max(64).optional(),
    description: z.string().min(1).max(500).optional(),
    metadata: z
      .record(z.string().min(1).max(40), z.string().max(500))
      .refine((metadata) => Object.keys(metadata).length <= INVOICE_METADATA_KEYS_MAX),
    redirectUrl: z.string().min(1).max(2048).optional(),
    // Sealed in the log (ADR 042): a sealed 254-character address is longer than the address.
    customerEmail: z.string().min(1).max(2000).optional(),
    expiresAt: time,
    createdAt: time,
  }),
  InvoicePaymentSeen: z.object({
    invoiceId,
    paymentId,
    route,
    amountMlx: mlx,
    seenAt: time,
    merchantUserId,
    status,
    previousStatus: status,
  }),
  InvoicePaymentSettled: z.object({
    invoiceId,
    paymentId,
    route,
    amountMlx: mlx,
    settledAt: time,
    merchantUserId,
    status,
    previousStatus: status,
  }),
  InvoicePaymentFailed: z.object({
    invoiceId,
    paymentId,
    failedAt: time,
    route: route.optional(),
    amountMlx: mlx.optional(),
    merchantUserId,
    status,
    previousStatus: status,
  }),
  InvoiceExpired: z.object({ invoiceId, expiredAt: time, merchantUserId, status, previousStatus: status }),
  InvoiceVoided: z.object({ invoiceId, voidedAt: time, merchantUserId, status, previousStatus: status }),
  InvoiceRefundCreated: z.object({ invoiceId, refundId, amountMlx: mlx, notifyByEmail: z.boolean(), createdAt: time, ...statusAfter }),
  InvoiceRefundClaimed: z.object({
    invoiceId,
    refundId,
    payoutId: z.string().regex(PAYOUT_ID_PATTERN),
    toAddress: z.string().min(1).max(200),
    claimedAt: time,
    ...statusAfter,
  }),
  InvoiceRefundCanceled: z.object({ invoiceId, refundId, canceledAt: time, ...statusAfter }),
  InvoiceRefundEmailSent: z.object({ invoiceId, refundId, messageId: z.string().min(1).max(300), sentAt: time, ...statusAfter }),
} as const;

export const isInvoiceEventType = (type: string): type is InvoiceEvent['type'] => Object.hasOwn(schemas, type);

/** A recorded event as an InvoiceEvent, or undefined when it is not one or has not its shape. */
export function toInvoiceEvent(recorded: { type: string; data: unknown }): InvoiceEvent | undefined {
  if (!isInvoiceEventType(recorded.type)) return undefined;
  const parsed = schemas[recorded.type].safeParse(recorded.data);
  return parsed.success ? ({ type: recorded.type, data: parsed.data } as InvoiceEvent) : undefined;
}
