/**
 * Payment links' wire shapes (ADR 084): what `POST /api/v1/payment-links` takes, what every link
 * call answers, the list's page, the public view `/pay/{slug}` reads and the visitor's request
 * for an invoice. The same schemas serve the web app's form, tRPC and the REST routes.
 *
 * A link with `amount` asks exactly that (fixed); without it the visitor types the amount (open),
 * optionally within `min_amount` and `max_amount`. Amounts are decimal text: whole MLX, or USD with
 * at most two decimals (an invoice made in USD is priced in MLX at the rate of its creation).
 */
import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN } from '../wallet/events.js';
import { MLX_AMOUNT_TEXT_LENGTH_MAX } from '../wallet/money.js';
import { linkAmountText, readLinkAmount } from './amount.js';
import { PAYMENT_LINK_CURRENCIES, PAYMENT_LINK_ID_PATTERN, type PaymentLinkAmount } from './events.js';
import type { PaymentLinkState } from './state.js';

export const PAYMENT_LINK_DESCRIPTION_LENGTH_MAX = 500;
/** The most links a merchant keeps: their list is read whole from one index stream, so it is bounded. */
export const PAYMENT_LINKS_PER_MERCHANT_MAX = 500;
export const PAYMENT_LINKS_PAGE_SIZE = 25;
export const PAYMENT_LINKS_PAGE_MAX = 100;

const amountText = (messageKey: string, description: string) =>
  z.string({ error: messageKey }).max(MLX_AMOUNT_TEXT_LENGTH_MAX, { error: messageKey }).optional().meta({ description });

const paymentLinkCreateShape = z.strictObject({
  amount: amountText(
    'errors:invalidAmount',
    'The amount every visitor pays, as decimal text (whole MLX, or USD with at most two decimals). Leave it out to let the visitor type it.',
  ),
  currency: z
    .enum(PAYMENT_LINK_CURRENCIES, { error: 'errors:invoiceCurrencyInvalid' })
    .default('MLX')
    .meta({ description: '`MLX` (the default) or `USD`, priced in MLX when each invoice is made.' }),
  min_amount: amountText('errors:paymentLinkBoundsInvalid', 'Open amount only: the least a visitor may pay.'),
  max_amount: amountText('errors:paymentLinkBoundsInvalid', 'Open amount only: the most a visitor may pay.'),
  description: z
    .string({ error: 'errors:invoiceDescriptionInvalid' })
    .trim()
    .min(1, { error: 'errors:invoiceDescriptionInvalid' })
    .max(PAYMENT_LINK_DESCRIPTION_LENGTH_MAX, { error: 'errors:invoiceDescriptionInvalid' })
    .refine((text) => !/\p{Cc}/u.test(text), { error: 'errors:invoiceDescriptionInvalid' })
    .optional()
    .meta({ description: 'What is paid for: shown to visitors and given to each invoice.' }),
});

export interface PaymentLinkCreateInput {
  amount: PaymentLinkAmount;
  description?: string;
}

type CreateShape = z.output<typeof paymentLinkCreateShape>;

function readBound(text: string | undefined, input: CreateShape, field: string, ctx: z.RefinementCtx): string | undefined | typeof z.NEVER {
  if (text === undefined) return undefined;
  const read = readLinkAmount(text, input.currency);
  if (!('messageKey' in read)) return read.units.toString();
  ctx.addIssue({ code: 'custom', message: read.messageKey, path: [field] });
  return z.NEVER;
}

function readCreate(input: CreateShape, ctx: z.RefinementCtx): PaymentLinkCreateInput {
  const described = input.description === undefined ? {} : { description: input.description };
  if (input.amount !== undefined) {
    if (input.min_amount !== undefined || input.max_amount !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'errors:paymentLinkBoundsWithFixed', path: ['min_amount'] });
      return z.NEVER;
    }
    const read = readLinkAmount(input.amount, input.currency);
    if ('messageKey' in read) {
      ctx.addIssue({ code: 'custom', message: read.messageKey, path: ['amount'] });
      return z.NEVER;
    }
    return { amount: { kind: 'fixed', currency: input.currency, value: read.units.toString() }, ...described };
  }
  const minimum = readBound(input.min_amount, input, 'min_amount', ctx);
  const maximum = readBound(input.max_amount, input, 'max_amount', ctx);
  if (minimum !== undefined && maximum !== undefined && BigInt(minimum) > BigInt(maximum)) {
    ctx.addIssue({ code: 'custom', message: 'errors:paymentLinkBoundsInvalid', path: ['max_amount'] });
    return z.NEVER;
  }
  return {
    amount: {
      kind: 'open',
      currency: input.currency,
      ...(minimum === undefined ? {} : { minimum }),
      ...(maximum === undefined ? {} : { maximum }),
    },
    ...described,
  };
}

export const paymentLinkCreateInput = paymentLinkCreateShape.transform(readCreate);
/** The web app's procedure: the same body, with the key the form made for this attempt. */
export const paymentLinkCreateTrpcInput = paymentLinkCreateShape
  .extend({ idempotencyKey: z.string().regex(IDEMPOTENCY_KEY_PATTERN, { error: 'errors:idempotencyKeyInvalid' }) })
  .transform(({ idempotencyKey, ...body }, ctx) => ({ idempotencyKey, input: readCreate(body, ctx) }));

const amountFields = {
  amount_type: z.enum(['fixed', 'open']).meta({ description: '`fixed`: every visitor pays `amount`; `open`: the visitor types it.' }),
  currency: z.enum(PAYMENT_LINK_CURRENCIES),
  amount: z.string().nullable().meta({ description: 'A fixed link: the amount as decimal text; null for an open one.' }),
  min_amount: z.string().nullable().meta({ description: 'An open link: the least a visitor may pay; null when unbounded.' }),
  max_amount: z.string().nullable().meta({ description: 'An open link: the most a visitor may pay; null when unbounded.' }),
};

export const paymentLinkOutput = z.object({
  id: z.string().meta({ description: 'The link id, `pl_` and 32 hex digits.' }),
  object: z.literal('payment_link'),
  url: z.string().meta({ description: 'The link to share: each visit makes a fresh invoice.' }),
  slug: z.string(),
  active: z.boolean().meta({ description: 'Whether the link makes invoices now.' }),
  ...amountFields,
  description: z.string().nullable(),
  created_at: z.string().meta({ description: 'When it was created (ISO 8601).' }),
});
export type PaymentLinkOutput = z.infer<typeof paymentLinkOutput>;

export const paymentLinkUrl = (publicUrl: string, slug: string): string => `${publicUrl}/pay/${slug}`;

function amountOutput(amount: PaymentLinkAmount) {
  const text = (units: string | undefined) => (units === undefined ? null : linkAmountText(units, amount.currency));
  return amount.kind === 'fixed'
    ? { amount_type: 'fixed' as const, currency: amount.currency, amount: text(amount.value), min_amount: null, max_amount: null }
    : {
        amount_type: 'open' as const,
        currency: amount.currency,
        amount: null,
        min_amount: text(amount.minimum),
        max_amount: text(amount.maximum),
      };
}

export function toPaymentLinkOutput(link: PaymentLinkState, publicUrl: string): PaymentLinkOutput {
  return {
    id: link.linkId,
    object: 'payment_link',
    url: paymentLinkUrl(publicUrl, link.slug),
    slug: link.slug,
    active: link.active,
    ...amountOutput(link.amount),
    description: link.description ?? null,
    created_at: link.createdAt,
  };
}

export const paymentLinkIdParams = z.strictObject({ id: z.string().max(200).meta({ description: 'The payment link id, `pl_…`.' }) });
export const paymentLinkIdInput = z.strictObject({
  id: z.string({ error: 'errors:paymentLinkNotFound' }).max(200, { error: 'errors:paymentLinkNotFound' }),
});

const linkCursor = z
  .string({ error: 'errors:paymentLinksUnknownCursor' })
  .max(100, { error: 'errors:paymentLinksUnknownCursor' })
  .regex(PAYMENT_LINK_ID_PATTERN, { error: 'errors:paymentLinksUnknownCursor' });

export const paymentLinksListQuery = z.strictObject({
  limit: z
    .string({ error: 'errors:paymentLinksInvalidLimit' })
    .regex(/^[0-9]{1,3}$/, { error: 'errors:paymentLinksInvalidLimit' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: 'errors:paymentLinksInvalidLimit' })
        .max(PAYMENT_LINKS_PAGE_MAX, { error: 'errors:paymentLinksInvalidLimit' }),
    )
    .optional()
    .meta({ description: `How many links, 1 to ${PAYMENT_LINKS_PAGE_MAX}; ${PAYMENT_LINKS_PAGE_SIZE} by default.` }),
  starting_after: linkCursor
    .optional()
    .meta({ description: 'The `next_cursor` of a previous page: the list goes on towards older links.' }),
});

export const paymentLinksListInput = z.strictObject({
  limit: z
    .number({ error: 'errors:paymentLinksInvalidLimit' })
    .int({ error: 'errors:paymentLinksInvalidLimit' })
    .min(1, { error: 'errors:paymentLinksInvalidLimit' })
    .max(PAYMENT_LINKS_PAGE_MAX, { error: 'errors:paymentLinksInvalidLimit' })
    .optional(),
  cursor: linkCursor.optional(),
});

export const paymentLinksListOutput = z.object({
  object: z.literal('list'),
  data: z.array(paymentLinkOutput),
  has_more: z.boolean(),
  next_cursor: z.string().nullable().meta({ description: 'Pass as `starting_after` for the next page; null when `has_more` is false.' }),
});
export type PaymentLinksList = z.infer<typeof paymentLinksListOutput>;

const slugField = z.string({ error: 'errors:paymentLinkNotFound' }).max(200, { error: 'errors:paymentLinkNotFound' });

export const paymentLinkViewInput = z.strictObject({ slug: slugField });

/** What `/pay/{slug}` shows anyone: who is paid, for what and how much; never the link's id. */
export const paymentLinkPublicOutput = z.object({
  slug: z.string(),
  active: z.boolean(),
  merchant: z.object({ name: z.string(), username: z.string() }),
  description: z.string().nullable(),
  ...amountFields,
});
export type PaymentLinkPublicOutput = z.infer<typeof paymentLinkPublicOutput>;

export function toPaymentLinkPublicOutput(link: PaymentLinkState, merchant: { name: string; username: string }): PaymentLinkPublicOutput {
  return { slug: link.slug, active: link.active, merchant, description: link.description ?? null, ...amountOutput(link.amount) };
}

/** A visit's own id, made by the page once per visit: a double click of one visit makes one invoice. */
export const PAYMENT_LINK_VISIT_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export const paymentLinkPayInput = z.strictObject({
  slug: slugField,
  // Whole MLX or USD with two decimals at most; the link's currency and bounds are checked once it is read.
  amount: z
    .string({ error: 'errors:invalidAmount' })
    .max(MLX_AMOUNT_TEXT_LENGTH_MAX, { error: 'errors:invalidAmount' })
    .regex(/^(0|[1-9][0-9]{0,19})(\.[0-9]{1,2})?$/, { error: 'errors:invalidAmount' })
    .optional(),
  visitId: z
    .string({ error: 'errors:paymentLinkVisitInvalid' })
    .regex(PAYMENT_LINK_VISIT_ID_PATTERN, { error: 'errors:paymentLinkVisitInvalid' }),
});

export const paymentLinkPayOutput = z.object({
  invoice_id: z.string(),
  hosted_url: z.string(),
});
export type PaymentLinkPayOutput = z.infer<typeof paymentLinkPayOutput>;
