/**
 * Refund events (issue 12): a merchant gave MLX of a paid checkout order back to its shopper.
 * `CheckoutRefunded` is appended to the order's own checkout stream (`checkout-<intentId>`, see
 * checkout/events.ts) in one atomic append with the merchant → shopper transfer (wallet reference
 * kind 'checkoutRefund'), so refunds of one order are decided in turn on that stream's revision
 * and their total can never pass the amount paid. Amounts are decimal strings.
 */
import { z } from 'zod';
import { CHECKOUT_ORDER_ID_PATTERN } from '../checkout/events.js';

/** `re_` and 32 lower-case hex digits: a digest of the merchant and the request's Idempotency-Key. */
export const REFUND_ID_PATTERN = /^re_[0-9a-f]{32}$/;
/** The wallet transfer that carries a refund's MLX. */
export const refundTransferId = (refundId: string): string => `refund-${refundId}`;

export interface CheckoutRefunded {
  type: 'CheckoutRefunded';
  data: {
    refundId: string;
    orderId: string;
    merchantUserId: string;
    shopperUserId: string;
    /** MLX given back by this refund (never above what the order still had unrefunded). */
    mlx: string;
    transferId: string;
    refundedAt: string;
  };
}

export type RefundEvent = CheckoutRefunded;

const amount = z.string().regex(/^[1-9][0-9]{0,19}$/);
const text = z.string().min(1).max(200);

const checkoutRefundedData: z.ZodType<CheckoutRefunded['data']> = z.object({
  refundId: z.string().regex(REFUND_ID_PATTERN),
  orderId: z.string().regex(CHECKOUT_ORDER_ID_PATTERN),
  merchantUserId: text,
  shopperUserId: text,
  mlx: amount,
  transferId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
  refundedAt: z.string().min(1).max(40),
});

export const isRefundEventType = (type: string): type is RefundEvent['type'] => type === 'CheckoutRefunded';

/** A recorded event as a RefundEvent, or undefined when it is not one or has not its shape. */
export function toRefundEvent(recorded: { type: string; data: unknown }): RefundEvent | undefined {
  if (!isRefundEventType(recorded.type)) return undefined;
  const parsed = checkoutRefundedData.safeParse(recorded.data);
  return parsed.success ? { type: 'CheckoutRefunded', data: parsed.data } : undefined;
}
