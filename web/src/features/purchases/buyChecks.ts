/**
 * What Continue checks before the PayPal view opens, in the spec's order (section 8, Buy): a
 * current rate, then the 5–500 USD limits, then the reserve's balance (asked only once the amount
 * is valid), then whether the reserve covers the largest purchase (500 USD ÷ rate). The pricing
 * itself is core's pricePurchase, the function the server prices the order with, so the MLX
 * shown is the MLX credited. Each refusal is the server's own message key.
 */
import { PURCHASE_MAX_USD_CENTS, PURCHASE_MIN_USD_CENTS, pricePurchase } from '@quern/core/purchases';
import type { ExchangeRate } from '@quern/core/wallet';
import { type AmountEntry, usdCentsOf } from './buyAmount.js';

export type BuyRefusalKey =
  | 'errors:exchangeRateUnavailable'
  | 'errors:purchaseAmountOutOfRange'
  | 'errors:reserveBalanceUnavailable'
  | 'errors:purchaseUnavailable';

export interface PurchaseQuote {
  usdCents: bigint;
  /** What the server credits for usdCents at the rate (rounded down). */
  mlx: bigint;
  rate: ExchangeRate;
}

export type PurchaseCheck = { ok: true; quote: PurchaseQuote } | { ok: false; messageKey: BuyRefusalKey };

export interface PurchaseCheckDeps {
  /** The current rate, or null when there is none or it could not be read. */
  rate(): Promise<ExchangeRate | null>;
  /** The reserve's MLX available to sell; rejects when it could not be read. */
  reserveMlx(): Promise<bigint>;
}

/** The limits alone: the amount in cents when it lies within 5–500 USD, else null. */
export function usdCentsWithinLimits(entry: AmountEntry, rate: ExchangeRate | null): bigint | null {
  const usdCents = usdCentsOf(entry, rate);
  if (usdCents === null || usdCents < PURCHASE_MIN_USD_CENTS || usdCents > PURCHASE_MAX_USD_CENTS) return null;
  return usdCents;
}

export async function checkPurchase(entry: AmountEntry, deps: PurchaseCheckDeps): Promise<PurchaseCheck> {
  const rate = await deps.rate().catch(() => null);
  if (rate === null) return { ok: false, messageKey: 'errors:exchangeRateUnavailable' };
  const usdCents = usdCentsWithinLimits(entry, rate);
  if (usdCents === null) return { ok: false, messageKey: 'errors:purchaseAmountOutOfRange' };
  let reserveAvailableMlx: bigint;
  try {
    reserveAvailableMlx = await deps.reserveMlx();
  } catch (error) {
    console.error('Buy: the reserve balance could not be read', error);
    return { ok: false, messageKey: 'errors:reserveBalanceUnavailable' };
  }
  const price = pricePurchase({ usdCents, rate, reserveAvailableMlx });
  if (!price.ok) return { ok: false, messageKey: price.messageKey };
  return { ok: true, quote: { usdCents, mlx: price.mlx, rate } };
}
