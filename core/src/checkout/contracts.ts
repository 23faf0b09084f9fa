/**
 * Checkout schemas shared by the popup, the tRPC procedures and the REST route (spec section 7:
 * `POST /api/quern/checkout` with cart, price, currency, to). Prices are whole MLX, as digit
 * strings or safe integers; the currency is MLX only (any case); the cart's total must be the
 * price. Messages are i18n keys ("errors:..."). Amounts leave the server as decimal strings.
 */
import { z } from 'zod';
import { MLX_TOTAL_SUPPLY } from '../wallet/money.js';
import { type CartLine, cartTotalMlx } from './cart.js';

export const CHECKOUT_CART_LINES_MAX = 100;
export const CHECKOUT_QUANTITY_MAX = 1_000_000n;
/** The 4001 answer's code: the shopper lacks MLX; the popup offers top-ups (spec sections 4, 8). */
export const CHECKOUT_INSUFFICIENT_FUNDS_CODE = 4001;

/** A whole positive number as a digit string or a safe integer, read exactly. */
const wholeNumber = (messageKey: string) =>
  z
    .union(
      [
        z.string().regex(/^[1-9][0-9]{0,19}$/, { error: messageKey }),
        z
          .number({ error: messageKey })
          .int({ error: messageKey })
          .positive({ error: messageKey })
          .max(Number.MAX_SAFE_INTEGER, { error: messageKey }),
      ],
      { error: messageKey },
    )
    .transform((value) => BigInt(value));

/**
 * The shop's own order reference (ADR 043): letters, digits and `. _ - : / #`, 1 to 64 of them, so
 * it is safe in a URL, a log line, a CSV cell and a web page as it is. It is bound to the order and
 * its token, so a token of one shop order is no proof for another of the same amount.
 */
export const CHECKOUT_REFERENCE_PATTERN = /^[A-Za-z0-9._:/#-]{1,64}$/;
export const checkoutReference = z
  .string({ error: 'errors:checkoutInvalidReference' })
  .regex(CHECKOUT_REFERENCE_PATTERN, { error: 'errors:checkoutInvalidReference' });

const priceMlx = wholeNumber('errors:checkoutInvalidPrice').refine((v) => v <= MLX_TOTAL_SUPPLY, { error: 'errors:checkoutInvalidPrice' });

const cartLine = z.strictObject(
  {
    name: z.string({ error: 'errors:checkoutInvalidCart' }).trim().min(1, { error: 'errors:checkoutInvalidCart' }).max(200, {
      error: 'errors:checkoutInvalidCart',
    }),
    price: priceMlx,
    quantity: wholeNumber('errors:checkoutInvalidQuantity').refine((v) => v <= CHECKOUT_QUANTITY_MAX, {
      error: 'errors:checkoutInvalidQuantity',
    }),
  },
  { error: 'errors:checkoutInvalidCart' },
);

/** A line every field of which parsed (prices and quantities are bigints only then). */
function lineWasRead(line: unknown): boolean {
  const l = line as { name?: unknown; price?: unknown; quantity?: unknown } | null;
  const name = l?.name;
  return (
    typeof l?.price === 'bigint' && typeof l.quantity === 'bigint' && typeof name === 'string' && name.length > 0 && name.length <= 200
  );
}

export const checkoutInput = z
  .strictObject({
    cart: z
      .array(cartLine, { error: 'errors:checkoutInvalidCart' })
      .min(1, { error: 'errors:checkoutInvalidCart' })
      .max(CHECKOUT_CART_LINES_MAX, { error: 'errors:checkoutInvalidCart' })
      // A faulty line is named on its own field and on `cart` too, where a form shows the cart's message.
      .superRefine(
        (lines, ctx) => {
          if (!lines.every(lineWasRead)) ctx.addIssue({ code: 'custom', message: 'errors:checkoutInvalidCart' });
        },
        // Run even when a line is not an object at all (zod skips checks after such an issue by default).
        { when: (payload) => Array.isArray(payload.value) },
      ),
    price: priceMlx,
    currency: z
      .string({ error: 'errors:checkoutCurrencyNotSupported' })
      .max(10, { error: 'errors:checkoutCurrencyNotSupported' })
      .refine((v) => v.trim().toLowerCase() === 'mlx', { error: 'errors:checkoutCurrencyNotSupported' })
      .transform(() => 'mlx' as const),
    /** The merchant's username or e-mail. */
    to: z.string({ error: 'errors:checkoutMerchantNotFound' }).trim().min(1, { error: 'errors:checkoutMerchantNotFound' }).max(254, {
      error: 'errors:checkoutMerchantNotFound',
    }),
    /** Optional: the shop's order reference, given back with the order. */
    reference: checkoutReference.optional(),
  })
  .superRefine((input, ctx) => {
    // Only a cart whose every amount was read can have a total (zod runs this after field issues too).
    const amounts = [input.price, ...input.cart.flatMap((line) => [line.price, line.quantity])];
    const lines = input.cart.length;
    if (lines < 1 || lines > CHECKOUT_CART_LINES_MAX || !amounts.every((amount) => typeof amount === 'bigint')) return;
    const cart: CartLine[] = input.cart.map((line) => ({ name: line.name, priceMlx: line.price, quantity: line.quantity }));
    if (cartTotalMlx(cart) !== input.price) ctx.addIssue({ code: 'custom', path: ['price'], message: 'errors:checkoutTotalMismatch' });
  });
export type CheckoutInput = z.input<typeof checkoutInput>;
export type CheckoutRequest = z.output<typeof checkoutInput>;

/** The cart lines of a parsed request, as cart.ts prices them. */
export const cartLinesOf = (request: CheckoutRequest): CartLine[] =>
  request.cart.map((line) => ({ name: line.name, priceMlx: line.price, quantity: line.quantity }));

export const checkoutPaidOutput = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Proves the payment to the merchant (token.ts); bound to this order, merchant and amount. */
  token: z.string(),
  order: z.string(),
});

/** Not enough MLX: `debit` is the MLX still missing, `rate` USD per MLX as the rate call gives it. */
export const checkoutShortOutput = z.object({
  success: z.literal(false),
  code: z.literal(CHECKOUT_INSUFFICIENT_FUNDS_CODE),
  message: z.string(),
  data: z.object({ debit: z.string(), rate: z.string().nullable() }),
});

export const checkoutPayOutput = z.union([checkoutPaidOutput, checkoutShortOutput]);
export type CheckoutPayOutput = z.infer<typeof checkoutPayOutput>;

export const checkoutMerchantInput = z.strictObject({
  to: z.string().trim().min(1, { error: 'errors:checkoutMerchantNotFound' }).max(254, { error: 'errors:checkoutMerchantNotFound' }),
});
/** The merchant the popup will pay, by display name, or not found (nothing is paid to a stranger). */
export const checkoutMerchantOutput = z.union([
  z.object({ found: z.literal(true), displayName: z.string(), username: z.string() }),
  z.object({ found: z.literal(false) }),
]);
export type CheckoutMerchant = z.infer<typeof checkoutMerchantOutput>;
