/** Key names of the wallet read models (all under rm:, so a rebuild finds them). */

/** Hash: wallet_id, kind, address, owner_user_id (user wallets), posted, held, pending_credit. */
export const walletKey = (walletId: string): string => `rm:wallet:${walletId}`;
/** Sorted set of completed transactions: score = log position, member = the item as compact JSON. */
export const walletHistoryKey = (walletId: string): string => `rm:wallet:${walletId}:history`;
/** Hash: transfer id or deposit id -> the pending item as JSON. */
export const walletPendingKey = (walletId: string): string => `rm:wallet:${walletId}:pending`;
/** Hash: millix address -> wallet id. */
export const WALLET_ID_BY_ADDRESS_KEY = 'rm:wallet-id-by-address';
/**
 * Hash: transfer id -> amount in MLX, of every send reserved and neither posted nor voided yet
 * (the sends waiting for settlement, across all wallets); the metrics read its length.
 */
export const PENDING_SETTLEMENTS_KEY = 'rm:pending-settlements';
/**
 * Hash: checkout order id -> the shop's own order reference (ADR 043), from CheckoutPaid, so the
 * history rows of the payment and of its refunds can name the order as the shop does.
 */
export const CHECKOUT_REFERENCE_KEY = 'rm:checkout-reference';
/** Checkout order id → its cart's first item's name (what a row names the order by without a reference). */
export const CHECKOUT_FIRST_ITEM_KEY = 'rm:checkout-first-item';
