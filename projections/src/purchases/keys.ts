/** Key names of the purchases read model (all under rm:, so a rebuild finds them). */

/** Sorted set: order id -> time ordered (ms), for orders without a recorded capture. */
export const PURCHASES_AWAITING_CAPTURE_KEY = 'rm:purchases:awaiting-capture';
/** Sorted set: order id -> time captured (ms), for captured orders neither credited nor refunded. */
export const PURCHASES_AWAITING_CREDIT_KEY = 'rm:purchases:awaiting-credit';
