/**
 * Key names of the payments read model (all under rm:, so a rebuild finds them). The prefixes are
 * stored data, so they keep their first spelling: renaming one would hide every merchant's payments
 * until a rebuild.
 */

/** Sorted set: order id -> log position of its CheckoutPaid; the list's cursor order (newest first). */
export const merchantPaymentsKey = (merchantUserId: string): string => `rm:merchant-payments:${merchantUserId}`;
/**
 * Sorted set, every score 0: `<paid ms, 15 digits>:<order id>`, so ZRANGE BYLEX walks payments in
 * created order and a page can resume strictly after its last member (ties broken by order id).
 */
export const merchantPaymentsByTimeKey = (merchantUserId: string): string => `rm:merchant-payments-by-time:${merchantUserId}`;
/** Hash: merchant, shopper, amount, usd_rate (absent without a rate), created_at, position. */
export const paymentKey = (orderId: string): string => `rm:payment:${orderId}`;
/** Hash: refund id -> JSON { amount, created_at, position }; the refunded total is their sum. */
export const paymentRefundsKey = (orderId: string): string => `rm:payment-refunds:${orderId}`;

/** Milliseconds as 15 digits: enough until the year 33658, and lexical order is numeric order. */
export const TIME_DIGITS = 15;
export const timeMember = (ms: number, orderId: string): string => `${String(ms).padStart(TIME_DIGITS, '0')}:${orderId}`;
/** The order id of a by-time member. */
export const orderIdOfTimeMember = (member: string): string => member.slice(TIME_DIGITS + 1);
