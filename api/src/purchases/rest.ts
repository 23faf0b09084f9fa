/**
 * The spec's purchase calls (section 7) at their exact paths, with PayPal's response shapes where
 * the spec's client reads them (`id`; `purchase_units[].payments.captures[]`), and PayPal's webhook
 * receiver. Errors on /api/paypal/* also carry PayPal's `details[issue, description]` and
 * `debug_id` (rest.ts's error handler), which the spec's client reads.
 */
import { Router } from 'express';
import { AppError } from '@quern/core';
import { IDEMPOTENCY_KEY_PATTERN } from '@quern/core/wallet';
import { PURCHASE_ID_PATTERN, creditPurchaseInput, parseUsdAmount, usdCentsToText } from '@quern/core/purchases';
import { z } from 'zod';
import type { RequestContext } from '../http/context.js';
import { rawBodyOf } from '../http/json-body.js';
import { type ContextFactory, authedRoute, restRoute } from '../http/rest.js';
import { clientAddressForLimits } from '../http/client-address.js';
import type { Session } from '../identity/sessions.js';

/** USD as PayPal writes it in a cart line: "10", "10.5", "10.50" (or a number with at most two decimals). */
const usdValue = z.union([z.string().max(20), z.number().nonnegative().max(1_000_000)]).transform((v) => String(v));

/**
 * The spec's payment order cart (section 3): id, quantity, amount (MLX), value (USD),
 * currency_code USD. Only `value` × `quantity` counts; `amount` is the client's estimate and the
 * server prices the MLX itself.
 */
const cartLine = z.object({
  id: z.string().max(100).optional(),
  quantity: z.union([z.number().int().min(1).max(100), z.string().regex(/^[1-9][0-9]?$/)]).optional(),
  amount: z.unknown().optional(),
  value: usdValue,
  currency_code: z.literal('USD', { error: 'errors:currencyNotSupported' }).optional(),
});
const createOrderBody = z.strictObject({ cart: z.union([cartLine, z.array(cartLine).min(1).max(10)]) });

/** A cart that is not a list of USD lines is one mistake, named on `cart`, whichever line made it. */
function parseCart(body: unknown): z.infer<typeof createOrderBody>['cart'] {
  const parsed = createOrderBody.safeParse(body);
  if (parsed.success) return parsed.data.cart;
  const unknownField = parsed.error.issues.find((issue) => issue.code === 'unrecognized_keys' && issue.path.length === 0);
  if (unknownField) throw parsed.error;
  throw new AppError('VALIDATION', 'errors:invalidCart', { cart: 'errors:invalidCart' });
}

/** The cart's total in cents, exactly; a line that is not a USD amount makes the whole cart invalid. */
function cartTotalText(cart: z.infer<typeof createOrderBody>['cart']): string {
  const lines = Array.isArray(cart) ? cart : [cart];
  let total = 0n;
  for (const line of lines) {
    const value = parseUsdAmount(line.value);
    if (!value.ok) throw new AppError('VALIDATION', 'errors:invalidCart', { cart: 'errors:invalidCart' });
    total += value.usdCents * BigInt(line.quantity ?? 1);
  }
  return usdCentsToText(total);
}

const orderIdParam = z.object({ orderID: z.string().regex(PURCHASE_ID_PATTERN, { error: 'errors:purchaseNotFound' }) });

function requestIdOf(ctx: RequestContext): string | undefined {
  const key = ctx.http.req.get('idempotency-key') ?? ctx.http.req.get('paypal-request-id');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key))
    throw new AppError('VALIDATION', 'errors:invalidRequest', { 'Idempotency-Key': 'errors:invalidRequest' });
  return key;
}

export function purchaseRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  const authed = <O>(handler: (ctx: RequestContext, session: Session) => Promise<O>) => authedRoute(createContext, handler);
  const body = (ctx: RequestContext) => ctx.http.req.body ?? {};

  // The spec: "a number". Whole MLX are far below 2^53 (the supply is 9e15), so the number is exact.
  routes.get(
    '/api/quern/reserve-balance',
    restRoute(createContext, null, async (ctx) => Number((await ctx.purchases.reserveBalance()).mlx)),
  );

  routes.post(
    '/api/paypal/orders',
    authed(async (ctx, session) => {
      const cart = parseCart(body(ctx));
      const order = await ctx.purchases.createOrder(session, cartTotalText(cart), requestIdOf(ctx), ctx.language);
      return {
        id: order.id,
        status: 'CREATED',
        amount: order.mlx,
        value: usdCentsToText(BigInt(order.usdCents)),
        currency_code: 'USD',
        rate: order.usdPerMlx,
      };
    }),
  );

  routes.post(
    '/api/paypal/orders/:orderID/capture',
    authed(async (ctx, session) => {
      const { orderID } = orderIdParam.parse(ctx.http.req.params);
      const outcome = await ctx.purchases.capture(session, orderID);
      if (outcome.status === 'DECLINED')
        throw new AppError(
          'VALIDATION',
          'errors:paymentProviderIssue',
          {},
          {
            issue: outcome.issue ?? 'CAPTURE_FAILED',
            description: outcome.description ?? '',
          },
        );
      const value = usdCentsToText(BigInt(outcome.usdCents));
      const captures =
        outcome.status === 'COMPLETED' && outcome.captureId
          ? [{ id: outcome.captureId, status: 'COMPLETED', amount: { currency_code: 'USD', value } }]
          : [];
      return {
        id: orderID,
        status: outcome.status === 'COMPLETED' ? 'COMPLETED' : 'APPROVED',
        purchase_units: [{ reference_id: 'default', amount: { currency_code: 'USD', value }, payments: { captures } }],
        amount: outcome.mlx,
      };
    }),
  );

  routes.post(
    '/api/reserve/transfer',
    authed((ctx, session) => ctx.purchases.credit(session, creditPurchaseInput.parse(body(ctx)))),
  );

  // PayPal's deliveries carry no session: they are trusted only once PayPal verified them.
  routes.post(
    '/api/paypal/webhooks',
    restRoute(createContext, null, (ctx) => {
      const raw = rawBodyOf(ctx.http.req);
      if (!raw) throw new AppError('VALIDATION', 'errors:webhookNotVerified');
      return ctx.purchases.webhook(ctx.http.req.headers, raw, clientAddressForLimits(ctx.http.req));
    }),
  );
  return routes;
}
