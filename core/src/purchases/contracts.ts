/**
 * Purchase schemas shared by the web's Buy screen, the tRPC procedures and the REST routes
 * (spec section 7). Amounts leave the server as decimal strings (cents, whole MLX), as in the
 * wallet contracts. Messages are i18n keys ("errors:...").
 */
import { z } from 'zod';
import { PURCHASE_ID_PATTERN } from './events.js';
import { PURCHASE_MAX_USD_CENTS, PURCHASE_MIN_USD_CENTS } from './pricing.js';

const decimal = z.string().regex(/^(0|[1-9][0-9]{0,19})$/);
export const purchaseOrderId = z.string().regex(PURCHASE_ID_PATTERN, { error: 'errors:purchaseNotFound' });

/** How the browser loads PayPal's JavaScript SDK: the local server's script in development and tests, PayPal's in production. */
export const payPalBrowserConfig = z.object({ clientId: z.string(), sdkBaseUrl: z.string() });
export type PayPalBrowserConfig = z.infer<typeof payPalBrowserConfig>;

/** What the Buy screen needs before the buyer types: the limits and how to load the buttons. */
export const buySetupOutput = z.object({
  minUsdCents: z.literal(String(PURCHASE_MIN_USD_CENTS)),
  maxUsdCents: z.literal(String(PURCHASE_MAX_USD_CENTS)),
  paypal: payPalBrowserConfig,
});
export type BuySetup = z.infer<typeof buySetupOutput>;

/** The reserve's MLX available to sell (tRPC); REST answers the bare number, as the spec says. */
export const reserveBalanceOutput = z.object({ mlx: decimal });

/** The web app asks for an order by its USD amount ("10", "10.5", "10.50"); the server prices it. */
export const createOrderInput = z.strictObject({ usd: z.string().max(20) });
export const createOrderOutput = z.object({
  id: z.string(),
  usdCents: decimal,
  usdPerMlx: z.string(),
  mlx: decimal,
});
export type CreatedOrder = z.infer<typeof createOrderOutput>;

export const captureOrderInput = z.strictObject({ orderId: purchaseOrderId });
/**
 * The capture as the buyer's page needs it. DECLINED carries PayPal's issue (INSTRUMENT_DECLINED
 * restarts the payment; any other issue's description is shown). PENDING: PayPal has not answered
 * in time; the worker keeps going and the credit follows.
 */
export const captureOrderOutput = z.object({
  orderId: z.string(),
  status: z.enum(['COMPLETED', 'DECLINED', 'PENDING']),
  captureId: z.string().optional(),
  issue: z.string().optional(),
  description: z.string().optional(),
  mlx: decimal,
  usdCents: decimal,
});
export type CaptureOutcome = z.infer<typeof captureOrderOutput>;

/** The spec's `POST /api/reserve/transfer`: `id` is the capture id (or the order id), `amount` the order's MLX. */
export const creditPurchaseInput = z.strictObject({
  id: purchaseOrderId,
  amount: z.union([decimal, z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]).transform((v) => String(v)),
});
export const creditPurchaseOutput = z.object({
  success: z.literal(true),
  id: z.string(),
  orderId: z.string(),
  captureId: z.string(),
  amount: decimal,
});
export type PurchaseCreditOutput = z.infer<typeof creditPurchaseOutput>;

export const purchaseStatusInput = z.strictObject({ orderId: purchaseOrderId });
export const purchaseStatusOutput = z.object({
  orderId: z.string(),
  status: z.enum(['ordered', 'approved', 'declined', 'captured', 'credited', 'partiallyRefunded', 'refunded', 'reversed']),
  usdCents: decimal,
  usdPerMlx: z.string(),
  mlx: decimal,
  captureId: z.string().optional(),
  creditTransferId: z.string().optional(),
});
export type PurchaseStatusView = z.infer<typeof purchaseStatusOutput>;
