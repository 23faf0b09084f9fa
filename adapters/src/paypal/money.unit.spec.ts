// Cents ↔ PayPal's "10.00" strings must be exact in both directions, for every amount.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToPayPalValue, isTwoDecimalValue, payPalValueToCents } from './money.js';

describe('USD amount conversion', () => {
  it('writes cents as PayPal writes USD', () => {
    expect(centsToPayPalValue(1000)).toBe('10.00');
    expect(centsToPayPalValue(5)).toBe('0.05');
    expect(centsToPayPalValue(0)).toBe('0.00');
    expect(centsToPayPalValue(123456789)).toBe('1234567.89');
  });

  it('reads PayPal values as cents, without float rounding', () => {
    expect(payPalValueToCents('10.00')).toBe(1000);
    expect(payPalValueToCents('0.29')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floats
    expect(payPalValueToCents('1.10')).toBe(110);
    expect(payPalValueToCents('10')).toBe(1000);
  });

  it('round-trips every amount', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e12 }), (cents) => payPalValueToCents(centsToPayPalValue(cents)) === cents));
  });

  it('refuses what is not a USD amount', () => {
    for (const bad of ['1.5', '1.555', '-1.00', '1e3', '', ' 1.00', '1,00']) expect(() => payPalValueToCents(bad)).toThrow(RangeError);
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53]) expect(() => centsToPayPalValue(bad)).toThrow(RangeError);
  });

  it('accepts only two-decimal strings in request bodies', () => {
    expect(isTwoDecimalValue('10.00')).toBe(true);
    expect(isTwoDecimalValue('10')).toBe(false);
    expect(isTwoDecimalValue('10.0')).toBe(false);
    expect(isTwoDecimalValue(10)).toBe(false);
  });
});
