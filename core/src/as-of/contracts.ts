/**
 * The schemas of the answers as of a moment (ADR 089): `as_of` on `GET /api/v1/balance` and
 * `GET /api/v1/payments/{id}`, and the web app's `payments.balanceAsOf` (the balance at the end
 * of a UTC day). Query values arrive as strings; messages are i18n keys ("errors:...").
 */
import { z } from 'zod';
import { balanceOutput } from '../payments/contracts.js';
import { type AsOf, endOfDayMs, parseAsOf } from './moment.js';

const asOfText = z
  .string({ error: 'errors:asOfInvalid' })
  .max(40, { error: 'errors:asOfInvalid' })
  .transform((text, ctx): AsOf => {
    const asOf = parseAsOf(text);
    if (asOf) return asOf;
    ctx.addIssue({ code: 'custom', message: 'errors:asOfInvalid' });
    return z.NEVER;
  })
  .meta({
    description:
      'A moment of the past: a cursor of the events feed (a log position in digits; the answer includes the event at it) or an ISO 8601 date-time with a time zone (every event at or before it). Left out, the answer is the present.',
  });

export const balanceQuery = z.strictObject({ as_of: asOfText.optional() });
export type BalanceQuery = z.output<typeof balanceQuery>;

export const paymentQuery = z.strictObject({ as_of: asOfText.optional() });
export type PaymentQuery = z.output<typeof paymentQuery>;

/** Any text: an id that is no payment of the merchant's is answered 404, as an unknown one. */
export const paymentIdParams = z.strictObject({
  id: z
    .string({ error: 'errors:paymentNotFound' })
    .max(200, { error: 'errors:paymentNotFound' })
    .meta({ description: 'The payment id (the order id of `GET /api/v1/payments`).' }),
});

/** The web app's question: the balance at the end of this UTC day (the present for today). */
export const balanceAtDayInput = z.strictObject({
  day: z
    .string({ error: 'errors:asOfInvalidDay' })
    .max(10, { error: 'errors:asOfInvalidDay' })
    .refine((day) => endOfDayMs(day) !== undefined, { error: 'errors:asOfInvalidDay' }),
});

export const balanceAtDayOutput = z.object({
  day: z.string(),
  /** The instant the balance is of: the day's last millisecond, or now for a day not over yet. */
  as_of: z.string(),
  balance: balanceOutput,
});
export type BalanceAtDay = z.infer<typeof balanceAtDayOutput>;
