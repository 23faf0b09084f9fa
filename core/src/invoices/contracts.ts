/**
 * The invoice's wire shapes (issue 27, ADR 081): what `POST /api/v1/invoices` takes, what every
 * invoice call answers (`invoiceOutput`, also the `data` of the `invoice.*` webhooks), the list's
 * page and the public view the hosted page `/i/{id}` reads, which shows no metadata.
 *
 * Amounts are decimal text as everywhere in the API: whole MLX, and USD with at most two decimals.
 * A USD invoice is priced once, when it is created, at the rate then in force, rounded up to whole
 * MLX so the merchant never receives less than the price asked; the rate is recorded with it.
 */
import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN } from '../wallet/events.js';
import { type ExchangeRate, MLX_AMOUNT_TEXT_LENGTH_MAX, MLX_TOTAL_SUPPLY, mlxToWire } from '../wallet/money.js';
import { toPaymentUri } from '../wallet/payment-uri.js';
import { parseUsdAmount, usdCentsToText } from '../purchases/pricing.js';
import {
  INVOICE_CURRENCIES,
  INVOICE_ID_PATTERN,
  INVOICE_METADATA_KEYS_MAX,
  INVOICE_PAYMENT_ROUTES,
  INVOICE_STATUSES,
  type InvoiceCurrency,
  type InvoiceStatus,
  type InvoiceTerms,
} from './events.js';
import { failedRefundIdsOf, invoiceRefundOutput, type RefundContext, toInvoiceRefundOutput } from './refund-contracts.js';
import { type InvoiceState, invoiceAmounts, invoicePaidAt, invoiceStatus, isPaidLate, refundsHeldMlx } from './state.js';

/** How long an invoice waits for its payment: 15 minutes unless asked, from one minute to seven days. */
export const INVOICE_EXPIRY_SECONDS_DEFAULT = 900;
export const INVOICE_EXPIRY_SECONDS_MIN = 60;
export const INVOICE_EXPIRY_SECONDS_MAX = 7 * 24 * 3600;
/** The largest USD invoice: 1,000,000 USD, in cents. */
export const INVOICE_USD_CENTS_MAX = 100_000_000n;
export const INVOICE_REFERENCE_LENGTH_MAX = 64;
export const INVOICE_DESCRIPTION_LENGTH_MAX = 500;
const METADATA_KEY_LENGTH_MAX = 40;
const METADATA_VALUE_LENGTH_MAX = 500;
const REDIRECT_URL_LENGTH_MAX = 2048;

/**
 * An http(s) URL without credentials or spaces: where the hosted page sends the payer once paid.
 * Core has no URL parser (it runs anywhere); the authority must be a plain host[:port].
 */
const REDIRECT_URL = /^https?:\/\/[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:[/?#][^\s]*)?$/;
const isRedirectUrl = (text: string): boolean => text.length <= REDIRECT_URL_LENGTH_MAX && REDIRECT_URL.test(text);

const optionalText = (max: number, messageKey: string, description: string) =>
  z
    .string({ error: messageKey })
    .trim()
    .min(1, { error: messageKey })
    .max(max, { error: messageKey })
    .refine((text) => !/\p{Cc}/u.test(text), { error: messageKey })
    .optional()
    .meta({ description });

const invoiceFields = {
  amount: z
    .string({ error: 'errors:invalidAmount' })
    .max(MLX_AMOUNT_TEXT_LENGTH_MAX, { error: 'errors:invalidAmount' })
    .meta({ description: 'The price, as decimal text: whole MLX, or USD with at most two decimals.', example: '25000' }),
  currency: z
    .enum(INVOICE_CURRENCIES, { error: 'errors:invoiceCurrencyInvalid' })
    .default('MLX')
    .meta({ description: '`MLX` (the default) or `USD`, priced in MLX at the rate when the invoice is created.' }),
  reference: optionalText(INVOICE_REFERENCE_LENGTH_MAX, 'errors:invoiceReferenceInvalid', "The shop's order id, up to 64 characters."),
  description: optionalText(INVOICE_DESCRIPTION_LENGTH_MAX, 'errors:invoiceDescriptionInvalid', 'What is paid for, shown to the payer.'),
  metadata: z
    .record(
      z
        .string()
        .min(1)
        .max(METADATA_KEY_LENGTH_MAX)
        .refine((text) => !/\p{Cc}/u.test(text)),
      z
        .string({ error: 'errors:invoiceMetadataInvalid' })
        .max(METADATA_VALUE_LENGTH_MAX)
        .refine((text) => !/\p{Cc}/u.test(text), { error: 'errors:invoiceMetadataInvalid' }),
      { error: 'errors:invoiceMetadataInvalid' },
    )
    .refine((metadata) => Object.keys(metadata).length <= INVOICE_METADATA_KEYS_MAX, { error: 'errors:invoiceMetadataInvalid' })
    .optional()
    .meta({
      description: `Up to ${INVOICE_METADATA_KEYS_MAX} string keys (40 characters) with string values (500): yours, never shown to the payer.`,
    }),
  expires_in_seconds: z
    .number({ error: 'errors:invoiceExpiryInvalid' })
    .int({ error: 'errors:invoiceExpiryInvalid' })
    .min(INVOICE_EXPIRY_SECONDS_MIN, { error: 'errors:invoiceExpiryInvalid' })
    .max(INVOICE_EXPIRY_SECONDS_MAX, { error: 'errors:invoiceExpiryInvalid' })
    .optional()
    .meta({ description: 'Seconds the invoice waits for payment: 60 to 604800 (7 days); 900 by default.' }),
  redirect_url: z
    .string({ error: 'errors:invoiceRedirectUrlInvalid' })
    .refine(isRedirectUrl, { error: 'errors:invoiceRedirectUrlInvalid' })
    .optional()
    .meta({ description: 'An http(s) URL the hosted page links to once the invoice is paid.' }),
  customer_email: z
    .string({ error: 'errors:invalidEmail' })
    .trim()
    .max(254, { error: 'errors:invalidEmail' })
    .pipe(z.email({ error: 'errors:invalidEmail' }))
    .optional()
    .meta({ description: "The payer's e-mail, if you know it: a refund's claim link is mailed there. Never shown on the hosted page." }),
};

/** The price as asked: MLX, or USD cents still to be priced at the current rate. */
export type InvoicePrice = { currency: 'MLX'; amountMlx: bigint } | { currency: 'USD'; usdCents: bigint };

function readPrice(amount: string, currency: InvoiceCurrency): InvoicePrice | { messageKey: string } {
  if (currency === 'USD') {
    const parsed = parseUsdAmount(amount);
    if (!parsed.ok || parsed.usdCents <= 0n) return { messageKey: 'errors:invalidUsdAmount' };
    if (parsed.usdCents > INVOICE_USD_CENTS_MAX) return { messageKey: 'errors:amountTooLarge' };
    return { currency, usdCents: parsed.usdCents };
  }
  if (!/^[1-9][0-9]{0,19}$/.test(amount)) return { messageKey: 'errors:invalidAmount' };
  const amountMlx = BigInt(amount);
  return amountMlx <= MLX_TOTAL_SUPPLY ? { currency, amountMlx } : { messageKey: 'errors:amountTooLarge' };
}

const invoiceCreateShape = z.strictObject(invoiceFields);

function readCreate(input: z.output<typeof invoiceCreateShape>, ctx: z.RefinementCtx) {
  const price = readPrice(input.amount, input.currency);
  if ('messageKey' in price) {
    ctx.addIssue({ code: 'custom', message: price.messageKey, path: ['amount'] });
    return z.NEVER;
  }
  return {
    price,
    reference: input.reference,
    description: input.description,
    metadata: input.metadata ?? {},
    expiresInSeconds: input.expires_in_seconds ?? INVOICE_EXPIRY_SECONDS_DEFAULT,
    redirectUrl: input.redirect_url,
    customerEmail: input.customer_email,
  };
}

export const invoiceCreateInput = invoiceCreateShape.transform(readCreate);
/** The web app's procedure: the same body, with the key the page made for this attempt. */
export const invoiceCreateTrpcInput = invoiceCreateShape
  .extend({ idempotencyKey: z.string().regex(IDEMPOTENCY_KEY_PATTERN, { error: 'errors:idempotencyKeyInvalid' }) })
  .transform(({ idempotencyKey, ...body }, ctx) => ({ idempotencyKey, input: readCreate(body, ctx) }));
export type InvoiceCreateInput = z.output<typeof invoiceCreateInput>;
/** The request as sent, for the Idempotency-Key's check that a retry is the same request. */
export type InvoiceCreateBody = z.input<typeof invoiceCreateInput>;

/** The MLX a USD price asks at the rate, rounded up: the merchant never receives less than asked. */
export function usdCentsToInvoiceMlx(usdCents: bigint, rate: ExchangeRate): bigint {
  const scaledRate = rate.numerator * 100n;
  return (usdCents * rate.denominator + scaledRate - 1n) / scaledRate;
}

/** The terms an invoice is created with, its price fixed now (`rate` is required for USD). */
export function invoiceTermsOf(
  input: InvoiceCreateInput,
  now: Date,
  rate: ExchangeRate | undefined,
): InvoiceTerms | { messageKey: string } {
  const expiresAt = new Date(now.getTime() + input.expiresInSeconds * 1000).toISOString();
  const optional = {
    ...(input.reference === undefined ? {} : { reference: input.reference }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.redirectUrl === undefined ? {} : { redirectUrl: input.redirectUrl }),
    ...(input.customerEmail === undefined ? {} : { customerEmail: input.customerEmail }),
  };
  if (input.price.currency === 'MLX')
    return { amountMlx: mlxToWire(input.price.amountMlx), currency: 'MLX', metadata: input.metadata, expiresAt, ...optional };
  if (!rate) return { messageKey: 'errors:exchangeRateUnavailable' };
  const amountMlx = usdCentsToInvoiceMlx(input.price.usdCents, rate);
  if (amountMlx <= 0n || amountMlx > MLX_TOTAL_SUPPLY) return { messageKey: 'errors:amountTooLarge' };
  return {
    amountMlx: mlxToWire(amountMlx),
    currency: 'USD',
    usdCents: input.price.usdCents.toString(),
    usdPerMlx: rate.usdPerMlx,
    metadata: input.metadata,
    expiresAt,
    ...optional,
  };
}

const mlxText = (description: string) => z.string().meta({ description: `${description}, whole MLX as decimal text.` });
const time = (description: string) => z.string().meta({ description: `${description} (ISO 8601).` });

export const invoicePaymentOutput = z.object({
  id: z.string().meta({ description: "The deposit's id (a payment from a millix wallet) or the transfer's (from a Quern balance)." }),
  method: z
    .enum(INVOICE_PAYMENT_ROUTES)
    .meta({ description: '`network`: from any millix wallet to the address; `quern`: from a Quern balance.' }),
  amount_mlx: mlxText('What this payment brought'),
  status: z.enum(['pending', 'settled', 'failed']).meta({ description: '`pending` until the network makes it stable.' }),
  late: z.boolean().meta({ description: 'Seen after the invoice expired: credited all the same.' }),
  created_at: time('When it was first seen'),
});

export const invoiceOutput = z.object({
  id: z.string().meta({ description: 'The invoice id, `in_` and 32 hex digits.' }),
  object: z.literal('invoice'),
  status: z.enum(INVOICE_STATUSES),
  amount_mlx: mlxText('The price'),
  amount_paid_mlx: mlxText('Stable payments so far'),
  amount_pending_mlx: mlxText('Payments seen, not yet stable'),
  amount_due_mlx: mlxText('What is still missing (0 once paid)'),
  amount_overpaid_mlx: mlxText('Stable payments beyond the price'),
  currency: z.enum(INVOICE_CURRENCIES).meta({ description: 'The currency the price was asked in.' }),
  amount_usd: z.string().nullable().meta({ description: 'A USD invoice: the price asked, "12.50"; null for MLX.' }),
  usd_rate: z.string().nullable().meta({ description: 'A USD invoice: USD per MLX it was priced at, fixed at creation; null for MLX.' }),
  reference: z.string().nullable(),
  description: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  address: z.string().meta({ description: "The invoice's own millix address: pay it from any millix wallet." }),
  payment_uri: z.string().meta({ description: 'The address and the amount due as a `millix:` URI (ADR 079), for QR codes.' }),
  hosted_url: z.string().meta({ description: 'The hosted pay page, open to anyone with the link.' }),
  redirect_url: z.string().nullable(),
  paid_late: z.boolean().meta({ description: 'Paid, by a payment seen after the expiry.' }),
  payments: z.array(invoicePaymentOutput).meta({ description: 'Every payment seen, oldest first.' }),
  customer_email: z.string().nullable().meta({ description: "The payer's e-mail the invoice was created with; null without one." }),
  amount_refunded_mlx: mlxText('What refunds hold or sent back (not canceled, not failed)'),
  refunds: z.array(invoiceRefundOutput).meta({ description: 'Every refund, oldest first.' }),
  expires_at: time('When the invoice stops waiting'),
  created_at: time('When it was created'),
  paid_at: z.string().nullable().meta({ description: 'When the stable payments reached the price (ISO 8601); null until then.' }),
  expired_at: z.string().nullable(),
  voided_at: z.string().nullable(),
});
export type InvoiceOutput = z.infer<typeof invoiceOutput>;

export const invoiceIdParams = z.strictObject({ id: z.string().max(200).meta({ description: 'The invoice id, `in_…`.' }) });

/** The hosted page's address of an invoice under the public origin. */
export const invoiceHostedUrl = (publicUrl: string, invoiceId: string): string => `${publicUrl}/i/${invoiceId}`;

const STAGE_ON_WIRE = { seen: 'pending', settled: 'settled', failed: 'failed' } as const;

/** The URI a wallet pays: the amount still due while something is due, else the price. */
function paymentUriOf(invoice: InvoiceState, label: string | undefined): string {
  const { dueMlx } = invoiceAmounts(invoice);
  return toPaymentUri({
    address: invoice.address,
    amountMlx: dueMlx > 0n ? dueMlx : invoice.amountMlx,
    ...(label === undefined ? {} : { label }),
    ...(invoice.terms.description === undefined ? {} : { message: invoice.terms.description }),
  });
}

/**
 * The invoice as the API answers it. `refunds` gives the claim links (the api has the app secret;
 * a webhook carries none) and the outcomes of claimed refunds' payouts, read from the wallet.
 */
export function toInvoiceOutput(invoice: InvoiceState, publicUrl: string, refunds: RefundContext = {}): InvoiceOutput {
  const amounts = invoiceAmounts(invoice);
  const statuses = refunds.payoutStatuses ?? new Map();
  const t = invoice.terms;
  return {
    id: invoice.invoiceId,
    object: 'invoice',
    status: invoiceStatus(invoice),
    amount_mlx: mlxToWire(invoice.amountMlx),
    amount_paid_mlx: mlxToWire(amounts.settledMlx),
    amount_pending_mlx: mlxToWire(amounts.pendingMlx),
    amount_due_mlx: mlxToWire(amounts.dueMlx),
    amount_overpaid_mlx: mlxToWire(amounts.overpaidMlx),
    currency: t.currency,
    amount_usd: t.usdCents === undefined ? null : usdCentsToText(BigInt(t.usdCents)),
    usd_rate: t.usdPerMlx ?? null,
    reference: t.reference ?? null,
    description: t.description ?? null,
    metadata: { ...t.metadata },
    address: invoice.address,
    payment_uri: paymentUriOf(invoice, t.reference),
    hosted_url: invoiceHostedUrl(publicUrl, invoice.invoiceId),
    redirect_url: t.redirectUrl ?? null,
    paid_late: isPaidLate(invoice),
    payments: [...invoice.payments.values()]
      .sort((a, b) => Date.parse(a.seenAt) - Date.parse(b.seenAt))
      .map((payment) => ({
        id: payment.paymentId,
        method: payment.route,
        amount_mlx: mlxToWire(payment.amountMlx),
        status: STAGE_ON_WIRE[payment.stage],
        late: payment.late,
        created_at: payment.seenAt,
      })),
    customer_email: t.customerEmail ?? null,
    amount_refunded_mlx: mlxToWire(refundsHeldMlx(invoice, failedRefundIdsOf(statuses))),
    refunds: [...invoice.refunds.values()]
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
      .map((refund) => toInvoiceRefundOutput(invoice, refund, statuses, refunds.claimUrl)),
    expires_at: t.expiresAt,
    created_at: invoice.createdAt,
    paid_at: invoicePaidAt(invoice) ?? null,
    expired_at: invoice.expiredAt ?? null,
    voided_at: invoice.voidedAt ?? null,
  };
}

/** The list: newest first, by cursor, optionally of one status. */
export const INVOICES_PAGE_SIZE = 25;
export const INVOICES_PAGE_MAX = 100;
const invoiceCursor = z
  .string({ error: 'errors:invoicesUnknownCursor' })
  .max(100, { error: 'errors:invoicesUnknownCursor' })
  .regex(INVOICE_ID_PATTERN, { error: 'errors:invoicesUnknownCursor' });
const statusFilter = z.enum(INVOICE_STATUSES, { error: 'errors:invoicesInvalidStatus' });

export const invoicesListQuery = z.strictObject({
  limit: z
    .string({ error: 'errors:invoicesInvalidLimit' })
    .regex(/^[0-9]{1,3}$/, { error: 'errors:invoicesInvalidLimit' })
    .transform(Number)
    .pipe(z.number().min(1, { error: 'errors:invoicesInvalidLimit' }).max(INVOICES_PAGE_MAX, { error: 'errors:invoicesInvalidLimit' }))
    .optional()
    .meta({ description: `How many invoices, 1 to ${INVOICES_PAGE_MAX}; ${INVOICES_PAGE_SIZE} by default.` }),
  starting_after: invoiceCursor
    .optional()
    .meta({ description: 'The `next_cursor` of a previous page: the list goes on towards older invoices.' }),
  status: statusFilter.optional().meta({ description: 'Only invoices with this status now.' }),
});
export type InvoicesListQuery = z.output<typeof invoicesListQuery>;

/** The web app's page request: the same bounds, as tRPC input. */
export const invoicesListInput = z.strictObject({
  limit: z
    .number({ error: 'errors:invoicesInvalidLimit' })
    .int({ error: 'errors:invoicesInvalidLimit' })
    .min(1, { error: 'errors:invoicesInvalidLimit' })
    .max(INVOICES_PAGE_MAX, { error: 'errors:invoicesInvalidLimit' })
    .optional(),
  cursor: invoiceCursor.optional(),
  status: statusFilter.optional(),
  // tRPC's infinite queries (the web's "Load more") send the direction of the page asked for; the list pages forward only.
  direction: z.literal('forward', { error: 'errors:invoicesUnknownCursor' }).optional(),
});

export const invoicesListOutput = z.object({
  object: z.literal('list'),
  data: z.array(invoiceOutput),
  has_more: z.boolean(),
  next_cursor: z.string().nullable().meta({ description: 'Pass as `starting_after` for the next page; null when `has_more` is false.' }),
});
export type InvoicesList = z.infer<typeof invoicesListOutput>;

/**
 * What the hosted page shows anyone with the link: who is paid and how much, never the merchant's
 * metadata. Only an invoice still waiting for money shows its address: an expired or void one
 * takes no more, and a paid one needs none.
 */
export const invoicePublicOutput = z.object({
  id: z.string(),
  status: z.enum(INVOICE_STATUSES),
  merchant: z.object({ name: z.string(), username: z.string() }),
  amount_mlx: z.string(),
  amount_paid_mlx: z.string(),
  amount_due_mlx: z.string(),
  amount_pending_mlx: z.string(),
  currency: z.enum(INVOICE_CURRENCIES),
  amount_usd: z.string().nullable(),
  usd_rate: z.string().nullable(),
  reference: z.string().nullable(),
  description: z.string().nullable(),
  address: z.string().nullable(),
  payment_uri: z.string().nullable(),
  /** The QR code of `payment_uri`, as SVG markup rendered by the server; null with no address. */
  qr_svg: z.string().nullable(),
  redirect_url: z.string().nullable(),
  paid_late: z.boolean(),
  expires_at: z.string(),
  paid_at: z.string().nullable(),
});
export type InvoicePublicOutput = z.infer<typeof invoicePublicOutput>;

/** An invoice named by its id: the hosted page's view and payment, and the merchant's get and void. */
export const invoicePublicInput = z.strictObject({
  id: z.string({ error: 'errors:invoiceNotFound' }).max(200, { error: 'errors:invoiceNotFound' }),
});

/** Expired and void invoices take no more payments, and a paid one needs none: only these show where to pay. */
export const showsWhereToPay = (status: InvoiceStatus): boolean =>
  status === 'open' || status === 'processing' || status === 'partially_paid';

/** The public view; `qrSvg` is the QR code of `payment_uri`, needed only when the invoice shows where to pay. */
export function toInvoicePublicOutput(
  output: InvoiceOutput,
  merchant: { name: string; username: string },
  qrSvg: string | null,
): InvoicePublicOutput {
  const payable = showsWhereToPay(output.status) && qrSvg !== null;
  return {
    id: output.id,
    status: output.status,
    merchant,
    amount_mlx: output.amount_mlx,
    amount_paid_mlx: output.amount_paid_mlx,
    amount_due_mlx: output.amount_due_mlx,
    amount_pending_mlx: output.amount_pending_mlx,
    currency: output.currency,
    amount_usd: output.amount_usd,
    usd_rate: output.usd_rate,
    reference: output.reference,
    description: output.description,
    address: payable ? output.address : null,
    payment_uri: payable ? output.payment_uri : null,
    qr_svg: payable ? qrSvg : null,
    redirect_url: output.status === 'paid' ? output.redirect_url : null,
    paid_late: output.paid_late,
    expires_at: output.expires_at,
    paid_at: output.paid_at,
  };
}
