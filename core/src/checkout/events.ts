/**
 * Checkout events (ADR 029): a shopper paid a merchant for a cart, in one atomic append with the
 * ledger transfer (wallet reference kind 'checkout'). One stream per checkout *intent*,
 * `checkout-<intentId>`, where the intent id is a digest of shopper, merchant, cart and price
 * (cart.ts): the same checkout, however often it is submitted, lands on the same stream, and the
 * decider pays it once per repeat window. An order id is `<intentId>-<n>`, the n-th payment of
 * that intent, so the order names its stream. Amounts are decimal strings (JSON has no bigint).
 */
import { z } from 'zod';
import { CHECKOUT_REFERENCE_PATTERN } from './contracts.js';

export const CHECKOUT_STREAM_PREFIX = 'checkout-';
export const checkoutStream = (intentId: string): string => `${CHECKOUT_STREAM_PREFIX}${intentId}`;
export const isCheckoutStream = (streamId: string): boolean => streamId.startsWith(CHECKOUT_STREAM_PREFIX);

/** 128 bits of SHA-256 in lower-case hex: long enough that two intents never share a stream. */
export const CHECKOUT_INTENT_ID_PATTERN = /^[0-9a-f]{32}$/;
/** `<intentId>-<n>`, n from 1; fits the wallet's reference id pattern (at most 64 characters). */
export const CHECKOUT_ORDER_ID_PATTERN = /^([0-9a-f]{32})-([1-9][0-9]{0,8})$/;

export const checkoutOrderId = (intentId: string, sequence: number): string => `${intentId}-${sequence}`;

/** The intent and the payment's number an order id names, or undefined when it is not one. */
export function parseCheckoutOrderId(orderId: string): { intentId: string; sequence: number } | undefined {
  const match = typeof orderId === 'string' ? CHECKOUT_ORDER_ID_PATTERN.exec(orderId) : null;
  if (!match) return undefined;
  return { intentId: match[1] as string, sequence: Number(match[2]) };
}

/**
 * The shopper paid: `mlx` moved shopper → merchant (fee 0) as transfer `transferId` in the same
 * append. `usdPerMlx` is the rate in force then (absent when none was set); `cartDigest` is the
 * SHA-256 of the cart as priced (cart.ts), so a dispute can check the cart the merchant claims.
 */
export interface CheckoutPaid {
  type: 'CheckoutPaid';
  data: {
    orderId: string;
    shopperUserId: string;
    merchantUserId: string;
    mlx: string;
    cartDigest: string;
    usdPerMlx?: string;
    transferId: string;
    paidAt: string;
    /** The shop's own order reference, when the checkout gave one (ADR 043). */
    reference?: string;
    /** The cart's first item's name (issue 25: a payment is named by its reference or first item). */
    firstItem?: string;
  };
}

export type CheckoutEvent = CheckoutPaid;
export type CheckoutEventType = CheckoutEvent['type'];

// A tolerant reader, as for wallet and purchase events: unknown fields dropped, malformed refused.
const amount = z.string().regex(/^[1-9][0-9]{0,19}$/);
const rate = z.string().regex(/^(0|[1-9][0-9]{0,8})(\.[0-9]{0,17}[1-9])?$/);
const text = z.string().min(1).max(200);

const checkoutPaidData: z.ZodType<CheckoutPaid['data']> = z.object({
  orderId: z.string().regex(CHECKOUT_ORDER_ID_PATTERN),
  shopperUserId: text,
  merchantUserId: text,
  mlx: amount,
  cartDigest: z.string().regex(/^[0-9a-f]{64}$/),
  usdPerMlx: rate.optional(),
  transferId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
  paidAt: z.string().min(1).max(40),
  reference: z.string().regex(CHECKOUT_REFERENCE_PATTERN).optional(),
  firstItem: text.optional(),
});

export const isCheckoutEventType = (type: string): type is CheckoutEventType => type === 'CheckoutPaid';

/**
 * The event types refunds append to an order's stream (ADR 033: a refund is decided on its order's
 * revision). Checkout's fold and audit pass over them by name, so checkout needs nothing of the
 * refunds capability; refunds/events.ts owns their shape (its spec checks the two agree).
 */
export const ORDER_STREAM_REFUND_EVENT_TYPES: readonly string[] = ['CheckoutRefunded'];
export const isOrderStreamRefundType = (type: string): boolean => ORDER_STREAM_REFUND_EVENT_TYPES.includes(type);

/** A recorded event as a CheckoutEvent, or undefined when it is not one or has not its shape. */
export function toCheckoutEvent(recorded: { type: string; data: unknown }): CheckoutEvent | undefined {
  if (!isCheckoutEventType(recorded.type)) return undefined;
  const parsed = checkoutPaidData.safeParse(recorded.data);
  return parsed.success ? { type: 'CheckoutPaid', data: parsed.data } : undefined;
}
