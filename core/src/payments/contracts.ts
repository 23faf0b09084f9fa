/**
 * The merchant's payments (issue 12, ADR 034): the schemas of `GET /api/v1/payments` (a cursor
 * list, newest first), `GET /api/v1/payments/export` (CSV by time range), `GET /api/v1/balance`
 * and the web app's `payments.list`. Query values arrive as strings; amounts leave as decimal
 * strings; messages are i18n keys ("errors:...").
 */
import { z } from 'zod';
import { CHECKOUT_ORDER_ID_PATTERN } from '../checkout/events.js';

export const PAYMENTS_PAGE_SIZE = 20;
export const PAYMENTS_PAGE_MAX = 100;

/** `limit` as a query string: 1..100, digits only (no "1e2", no "07"). */
const limitText = z
  .string({ error: 'errors:paymentsInvalidLimit' })
  .regex(/^[1-9][0-9]{0,2}$/, { error: 'errors:paymentsInvalidLimit' })
  .transform(Number)
  .refine((n) => n <= PAYMENTS_PAGE_MAX, { error: 'errors:paymentsInvalidLimit' });

/** A payment id is a checkout order id; anything else cannot be a cursor of this list. */
const paymentId = z
  .string({ error: 'errors:paymentsUnknownCursor' })
  .max(100, { error: 'errors:paymentsUnknownCursor' })
  .regex(CHECKOUT_ORDER_ID_PATTERN, { error: 'errors:paymentsUnknownCursor' });

export const paymentsListQuery = z.strictObject({
  limit: limitText.optional().meta({ description: `How many payments, 1 to ${PAYMENTS_PAGE_MAX}; ${PAYMENTS_PAGE_SIZE} by default.` }),
  starting_after: paymentId
    .optional()
    .meta({ description: 'A payment id of a previous page (its `next_cursor`): the list continues after it, towards older payments.' }),
});
export type PaymentsListQuery = z.output<typeof paymentsListQuery>;

/** The web app's page request: the same bounds, as tRPC input. */
export const paymentsListInput = z.strictObject({
  limit: z
    .number()
    .int()
    .min(1, { error: 'errors:paymentsInvalidLimit' })
    .max(PAYMENTS_PAGE_MAX, { error: 'errors:paymentsInvalidLimit' })
    .optional(),
  cursor: paymentId.optional(),
});

export const PAYMENT_STATUSES = ['paid', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const paymentRefundOutput = z.object({
  id: z.string(),
  amount: z.string().meta({ description: 'Whole MLX given back, as a decimal string.' }),
  created_at: z.string().meta({ description: 'ISO 8601 time of the refund.' }),
});

export const paymentOutput = z.object({
  id: z.string().meta({ description: 'The order id the checkout reported to the shop.' }),
  object: z.literal('payment'),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.string().meta({ description: 'Whole MLX paid, as a decimal string.' }),
  amount_refunded: z.string().meta({ description: 'Whole MLX refunded so far, as a decimal string.' }),
  currency: z.literal('MLX'),
  usd_rate: z.string().nullable().meta({ description: 'USD per MLX when the order was paid; null when no rate was set.' }),
  usd_value: z
    .string()
    .nullable()
    .meta({ description: 'amount × usd_rate in USD, rounded half up to cents ("12.35"); null without a rate.' }),
  shopper_username: z.string().nullable(),
  created_at: z.string().meta({ description: 'ISO 8601 time of the payment.' }),
  refunds: z.array(paymentRefundOutput).meta({ description: 'Refunds of this payment, oldest first.' }),
});
export type Payment = z.infer<typeof paymentOutput>;

export const paymentsListOutput = z.object({
  object: z.literal('list'),
  data: z.array(paymentOutput),
  has_more: z.boolean(),
  next_cursor: z.string().nullable().meta({ description: 'Pass as `starting_after` for the next page; null when `has_more` is false.' }),
});
export type PaymentsList = z.infer<typeof paymentsListOutput>;

/** A day (`2026-03-01`, UTC) or an ISO 8601 date-time with a zone (`2026-03-01T12:00:00Z`). */
const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const DATE_TIME = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,3})?)?(Z|[+-][0-9]{2}:[0-9]{2})$/;

/** The instant a bound names, or NaN: a day starts at 00:00 UTC, and a `to` day ends at its last millisecond. */
export function exportBoundMs(text: string, end: 'from' | 'to'): number {
  if (DAY.test(text)) {
    const ms = Date.parse(`${text}T00:00:00.000Z`);
    // Date.parse accepts 2026-02-31; a round trip refuses it.
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) return Number.NaN;
    return end === 'from' ? ms : ms + 86_400_000 - 1;
  }
  if (!DATE_TIME.test(text)) return Number.NaN;
  const ms = Date.parse(text);
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  return month < 1 || month > 12 || day < 1 || day > 31 ? Number.NaN : ms;
}

const bound = (end: 'from' | 'to') =>
  z
    .string({ error: 'errors:paymentsInvalidDate' })
    .max(40, { error: 'errors:paymentsInvalidDate' })
    .refine((text) => !Number.isNaN(exportBoundMs(text, end)), { error: 'errors:paymentsInvalidDate' });

export const paymentsExportQuery = z
  .strictObject({
    from: bound('from').meta({ description: 'First day (UTC) or instant of the export, inclusive.' }),
    to: bound('to').meta({ description: 'Last day (UTC, the whole day) or instant of the export, inclusive.' }),
  })
  .superRefine((query, ctx) => {
    const fromMs = exportBoundMs(query.from, 'from');
    const toMs = exportBoundMs(query.to, 'to');
    if (!Number.isNaN(fromMs) && !Number.isNaN(toMs) && fromMs > toMs)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'errors:paymentsRangeReversed' });
  });
export type PaymentsExportQuery = z.output<typeof paymentsExportQuery>;

/** The export's time range in ms, inclusive, and the days that name its file. */
export function exportRangeOf(query: PaymentsExportQuery): { fromMs: number; toMs: number; fromDay: string; toDay: string } {
  const fromMs = exportBoundMs(query.from, 'from');
  const toMs = exportBoundMs(query.to, 'to');
  return { fromMs, toMs, fromDay: new Date(fromMs).toISOString().slice(0, 10), toDay: new Date(toMs).toISOString().slice(0, 10) };
}

export const balanceOutput = z.object({
  stable: z.string().meta({ description: 'Whole MLX the wallet can spend now, as a decimal string.' }),
  unstable: z.string().meta({ description: 'Whole MLX on the way in, not yet confirmed, as a decimal string.' }),
});
export type Balance = z.infer<typeof balanceOutput>;
