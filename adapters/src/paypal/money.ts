/**
 * USD amounts cross the PayPal boundary as strings with exactly two decimals ("10.00"); inside
 * Quern they are integer cents. The conversions are string and integer arithmetic only, so no
 * float rounding can ever change an amount.
 */

/** PayPal's string for an amount in cents: 1000 → "10.00", 5 → "0.05". */
export function centsToPayPalValue(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`USD cents must be a non-negative safe integer, got ${cents}`);
  const whole = Math.floor(cents / 100);
  const fraction = cents % 100;
  return `${whole}.${fraction.toString().padStart(2, '0')}`;
}

/** A PayPal USD amount string as cents. USD has two decimals; PayPal may omit them ("10"). */
const USD_VALUE_PATTERN = /^(\d{1,13})(?:\.(\d{2}))?$/;

export function payPalValueToCents(value: string): number {
  const match = USD_VALUE_PATTERN.exec(value);
  if (!match) throw new RangeError(`not a USD amount with two decimals: ${JSON.stringify(value)}`);
  const cents = Number(match[1]) * 100 + Number(match[2] ?? '0');
  if (!Number.isSafeInteger(cents)) throw new RangeError(`USD amount too large: ${value}`);
  return cents;
}

/** The local server's stricter rule for request bodies: exactly two decimals, as PayPal documents for USD. */
export function isTwoDecimalValue(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,10}\.\d{2}$/.test(value);
}
