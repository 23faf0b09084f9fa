/**
 * A payment's derived figures, exact: its status from the amounts paid and refunded, and its USD
 * value as amount × rate in integers (the rate is a decimal string), rounded half up to cents.
 */
import { mlxToUsdCents, parseExchangeRate } from '../wallet/money.js';
import type { PaymentStatus } from './contracts.js';

export function paymentStatusOf(amountMlx: bigint, refundedMlx: bigint): PaymentStatus {
  if (refundedMlx <= 0n) return 'paid';
  return refundedMlx >= amountMlx ? 'refunded' : 'partially_refunded';
}

/** "12.35": dollars, a dot and two digits; null without a (readable) rate. */
export function usdValueOf(amountMlx: bigint, usdPerMlx: string | null | undefined): string | null {
  if (usdPerMlx === null || usdPerMlx === undefined) return null;
  const parsed = parseExchangeRate(usdPerMlx);
  if (!parsed.ok || amountMlx < 0n) return null;
  const cents = mlxToUsdCents(amountMlx, parsed.rate);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}
