/**
 * Pricing a purchase of MLX for USD, without floats. The server prices every order (the client's
 * figures are never trusted): the USD amount must lie within the spec's limits, the reserve must
 * be able to cover the largest purchase at the current rate (otherwise the Buy screen says it is
 * unavailable), and the MLX is the USD amount at the rate, rounded down (usdCentsToMlx), so a
 * buyer never receives more than was paid for.
 */
import { type ExchangeRate, usdCentsToMlx } from '../wallet/money.js';

/** 5 USD: the smallest purchase (spec). */
export const PURCHASE_MIN_USD_CENTS = 500n;
/** 500 USD: the largest purchase (spec). */
export const PURCHASE_MAX_USD_CENTS = 50_000n;
/** Top-up options on the checkout step are whole multiples of 5 USD. */
const TOP_UP_STEP_USD_CENTS = 500n;
/** Longest amount text read: "500.00" with room for spaces; a longer text is junk, not money. */
const USD_AMOUNT_TEXT_LENGTH_MAX = 20;
/** Whole dollars (no leading zeros, at most 9 digits) and up to two decimals, dot as the decimal point. */
const usdAmountText = /^(0|[1-9][0-9]{0,8})(?:\.([0-9]{1,2}))?$/;

export type UsdAmountParseResult = { ok: true; usdCents: bigint } | { ok: false; messageKey: 'errors:invalidUsdAmount' };

/**
 * Reads a USD amount as the Buy form sends it ("10", "10.5", "10.50") into cents. More than two
 * decimals, signs, exponents, separators and anything else are refused: PayPal takes two decimals
 * and a rounded amount would charge something other than what the person typed.
 */
export function parseUsdAmount(text: string): UsdAmountParseResult {
  const invalid = { ok: false, messageKey: 'errors:invalidUsdAmount' } as const;
  if (typeof text !== 'string' || text.length > USD_AMOUNT_TEXT_LENGTH_MAX) return invalid;
  const match = usdAmountText.exec(text.trim());
  if (!match) return invalid;
  const dollars = BigInt(match[1] ?? '0');
  const cents = BigInt((match[2] ?? '').padEnd(2, '0'));
  return { ok: true, usdCents: dollars * 100n + cents };
}

/** Two decimals with a dot, as PayPal's amount.value takes it: 1050n → "10.50". */
export function usdCentsToText(usdCents: bigint): string {
  if (usdCents < 0n) throw new RangeError('usdCentsToText: cents must not be negative');
  return `${usdCents / 100n}.${(usdCents % 100n).toString(10).padStart(2, '0')}`;
}

export type PurchaseRefusalKey = 'errors:purchaseAmountOutOfRange' | 'errors:purchaseUnavailable';
export type PurchasePrice = { ok: true; mlx: bigint } | { ok: false; messageKey: PurchaseRefusalKey };

/**
 * Whether the reserve can cover the largest purchase (500 USD) at this rate. The spec shows the Buy
 * screen as unavailable otherwise, whatever the amount asked for, so that nobody starts a payment
 * the reserve may not be able to honour by the time it is captured.
 */
export function reserveCoversMaximum(rate: ExchangeRate, reserveAvailableMlx: bigint): boolean {
  return reserveAvailableMlx >= usdCentsToMlx(PURCHASE_MAX_USD_CENTS, rate);
}

/** The server's price of an order: the MLX `usdCents` buys at `rate`, or why it cannot be sold. */
export function pricePurchase(input: { usdCents: bigint; rate: ExchangeRate; reserveAvailableMlx: bigint }): PurchasePrice {
  const { usdCents, rate, reserveAvailableMlx } = input;
  if (usdCents < PURCHASE_MIN_USD_CENTS || usdCents > PURCHASE_MAX_USD_CENTS)
    return { ok: false, messageKey: 'errors:purchaseAmountOutOfRange' };
  if (!reserveCoversMaximum(rate, reserveAvailableMlx)) return { ok: false, messageKey: 'errors:purchaseUnavailable' };
  const mlx = usdCentsToMlx(usdCents, rate);
  // A rate so high that the amount buys no whole MLX: selling nothing for money is no sale.
  if (mlx <= 0n) return { ok: false, messageKey: 'errors:purchaseUnavailable' };
  return { ok: true, mlx };
}

/**
 * The amounts offered when a checkout needs `missingMlx` more than the buyer holds: the smallest
 * multiple of 5 USD (at least 5 USD) that buys at least the missing MLX at the rate, then that
 * plus 5 and plus 10 USD. Amounts above the 500 USD limit are left out (none when even the
 * smallest is above it). Rounding the USD up makes the rounded-down MLX cover what is missing.
 */
export function topUpOptionsUsdCents(missingMlx: bigint, rate: ExchangeRate): bigint[] {
  const needed = missingMlx > 0n ? missingMlx : 0n;
  const exactCents = ceilDiv(needed * rate.numerator * 100n, rate.denominator);
  const minimum = maxOf(PURCHASE_MIN_USD_CENTS, ceilDiv(exactCents, TOP_UP_STEP_USD_CENTS) * TOP_UP_STEP_USD_CENTS);
  return [minimum, minimum + TOP_UP_STEP_USD_CENTS, minimum + 2n * TOP_UP_STEP_USD_CENTS].filter(
    (cents) => cents <= PURCHASE_MAX_USD_CENTS,
  );
}

const ceilDiv = (numerator: bigint, denominator: bigint): bigint => (numerator + denominator - 1n) / denominator;
const maxOf = (a: bigint, b: bigint): bigint => (a > b ? a : b);
