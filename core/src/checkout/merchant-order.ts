/**
 * The integrator API's order verification (ADR 031): what a merchant's server gets for one of its
 * paid checkout orders, and the input of `POST /api/v1/orders/verify`. The answer is a plain JSON
 * object with snake_case names like the spec's other calls; amounts are decimal strings.
 */
import { z } from 'zod';
import { PAYMENT_STATUSES, type PaymentStatus } from '../payments/contracts.js';
import { checkoutReference } from './contracts.js';

/** A paid checkout order as its merchant verifies it (read by refunds/order-view.ts, which knows the refunds). */
export interface CheckoutOrderView {
  orderId: string;
  /** Paid, then partially or wholly refunded by the merchant (ADR 033). */
  status: PaymentStatus;
  mlx: bigint;
  refundedMlx: bigint;
  currency: 'MLX';
  /** USD per MLX when it was paid; absent when no rate was set. */
  usdPerMlx?: string;
  shopperUserId: string;
  shopperUsername?: string;
  merchantUserId: string;
  transferId: string;
  createdAt: string;
  /** The shop's own order reference, when the checkout gave one. */
  reference?: string;
}

/** `<orderId>.<43 characters>` is 108 at most (token.ts); the bound keeps nonsense cheap to refuse. */
const TOKEN_MAX = 200;

const token = z
  .string({ error: 'errors:checkoutTokenInvalid' })
  .min(1, { error: 'errors:checkoutTokenInvalid' })
  .max(TOKEN_MAX, { error: 'errors:checkoutTokenInvalid' });

/** The shop's order reference it expects: given, the order must carry exactly that one (ADR 043). */
const expectedReference = checkoutReference.optional().meta({
  description: "The shop's own order reference the checkout was given; the order must carry exactly this one.",
});

export const merchantOrderVerifyInput = z.strictObject({ token, reference: expectedReference });
/** `GET /api/v1/orders/{order}` takes an optional `token` and `reference` (and nothing else). */
export const merchantOrderQuery = z.strictObject({ token: token.optional(), reference: expectedReference });

/** The answer's schema: the OpenAPI reference is generated from it (api/src/v1). */
export const merchantOrderOutput = z.object({
  id: z.string().meta({ description: 'The order id the checkout reported to the shop.' }),
  status: z.enum(PAYMENT_STATUSES).meta({ description: 'Paid, then partially or wholly refunded by the merchant.' }),
  amount: z.string().meta({ description: 'Whole MLX, as a decimal string.' }),
  amount_refunded: z.string().meta({ description: 'Whole MLX refunded so far, as a decimal string.' }),
  currency: z.literal('MLX'),
  rate: z.string().nullable().meta({ description: 'USD per MLX when the order was paid; null when no rate was set.' }),
  shopper_username: z.string().nullable(),
  reference: z
    .string()
    .nullable()
    .meta({ description: "The shop's own order reference given to the checkout; null when none was. Check it before fulfilling." }),
  created_at: z.string().meta({ description: 'ISO 8601 time of the payment.' }),
});
export type MerchantOrder = z.infer<typeof merchantOrderOutput>;

export function merchantOrderOf(view: CheckoutOrderView): MerchantOrder {
  return {
    id: view.orderId,
    status: view.status,
    amount: view.mlx.toString(),
    amount_refunded: view.refundedMlx.toString(),
    currency: view.currency,
    rate: view.usdPerMlx ?? null,
    shopper_username: view.shopperUsername ?? null,
    reference: view.reference ?? null,
    created_at: view.createdAt,
  };
}
