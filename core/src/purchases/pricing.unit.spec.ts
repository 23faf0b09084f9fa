// Proves the server's pricing of a purchase: USD text read exactly into cents, the 5–500 USD limits at their edges, "currently unavailable" when the reserve cannot cover 500 USD, MLX rounded down even at 18-decimal rates, and the checkout's top-up options.
import { describe, expect, it } from 'vitest';
import { parseExchangeRate, usdCentsToMlx } from '../wallet/money.js';
import {
  PURCHASE_MAX_USD_CENTS,
  PURCHASE_MIN_USD_CENTS,
  parseUsdAmount,
  pricePurchase,
  reserveCoversMaximum,
  topUpOptionsUsdCents,
  usdCentsToText,
} from './pricing.js';

const rate = (text: string) => {
  const parsed = parseExchangeRate(text);
  if (!parsed.ok) throw new Error(`bad test rate ${text}`);
  return parsed.rate;
};
const PLENTY = 10n ** 15n;

describe('parseUsdAmount', () => {
  it.each([
    ['10', 1000n],
    ['10.5', 1050n],
    ['10.50', 1050n],
    [' 5 ', 500n],
    ['0.01', 1n],
    ['500.00', 50_000n],
    ['0', 0n],
  ])('given %j, when parsed, then it is %s cents', (text, cents) => {
    expect(parseUsdAmount(text)).toEqual({ ok: true, usdCents: cents });
  });

  it.each([
    '10.505',
    '-5',
    '+5',
    '1e3',
    '10,50',
    '1,000',
    '.5',
    '5.',
    '',
    ' ',
    'abc',
    '05',
    '0x10',
    '10.5.0',
    'NaN',
    'Infinity',
    '1'.repeat(21),
  ])('given %j, when parsed, then it is refused', (text) => {
    expect(parseUsdAmount(text)).toEqual({ ok: false, messageKey: 'errors:invalidUsdAmount' });
  });

  it('given a non-string, when parsed, then it is refused rather than thrown', () => {
    expect(parseUsdAmount(10 as unknown as string).ok).toBe(false);
  });
});

describe('usdCentsToText', () => {
  it('given cents, when written, then it has two decimals', () => {
    expect([usdCentsToText(1050n), usdCentsToText(500n), usdCentsToText(7n)]).toEqual(['10.50', '5.00', '0.07']);
  });
});

describe('pricePurchase', () => {
  const r = rate('0.000012');

  it.each([
    [PURCHASE_MIN_USD_CENTS - 1n, false],
    [PURCHASE_MIN_USD_CENTS, true],
    [PURCHASE_MAX_USD_CENTS, true],
    [PURCHASE_MAX_USD_CENTS + 1n, false],
    [0n, false],
  ])('given %s cents, when priced, then allowed is %s', (usdCents, allowed) => {
    const price = pricePurchase({ usdCents, rate: r, reserveAvailableMlx: PLENTY });
    expect(price.ok).toBe(allowed);
    if (!price.ok) expect(price.messageKey).toBe('errors:purchaseAmountOutOfRange');
  });

  it('given 5 USD at 0.000012 USD per MLX, when priced, then it buys 416,666 MLX (rounded down)', () => {
    expect(pricePurchase({ usdCents: 500n, rate: r, reserveAvailableMlx: PLENTY })).toEqual({ ok: true, mlx: 416_666n });
  });

  it('given a rate with 18 decimals, when priced, then MLX is rounded down exactly (no floats)', () => {
    const fine = rate('0.000000000000000003');
    // 500 USD / 3e-18 = 1.666…e20 MLX: beyond 2^53, so any float would be off.
    expect(pricePurchase({ usdCents: 50_000n, rate: fine, reserveAvailableMlx: 10n ** 21n })).toEqual({
      ok: true,
      mlx: 166_666_666_666_666_666_666n,
    });
    const odd = rate('0.123456789012345678');
    const price = pricePurchase({ usdCents: 777n, rate: odd, reserveAvailableMlx: PLENTY });
    expect(price).toEqual({ ok: true, mlx: 62n });
    // Rounded down: one more MLX would cost more than paid.
    expect(63n * 123_456_789_012_345_678n > 777n * 10n ** 16n).toBe(true);
  });

  it('given a reserve one MLX short of what 500 USD buys, when priced, then every amount is currently unavailable', () => {
    const maxMlx = usdCentsToMlx(PURCHASE_MAX_USD_CENTS, r);
    expect(reserveCoversMaximum(r, maxMlx)).toBe(true);
    expect(reserveCoversMaximum(r, maxMlx - 1n)).toBe(false);
    expect(pricePurchase({ usdCents: 500n, rate: r, reserveAvailableMlx: maxMlx - 1n })).toEqual({
      ok: false,
      messageKey: 'errors:purchaseUnavailable',
    });
    expect(pricePurchase({ usdCents: 500n, rate: r, reserveAvailableMlx: maxMlx }).ok).toBe(true);
  });

  it('given a rate at which the amount buys no whole MLX, when priced, then it is unavailable', () => {
    expect(pricePurchase({ usdCents: 500n, rate: rate('10'), reserveAvailableMlx: PLENTY })).toEqual({
      ok: false,
      messageKey: 'errors:purchaseUnavailable',
    });
  });
});

describe('topUpOptionsUsdCents', () => {
  it('given a little missing, when offered, then 5, 10 and 15 USD', () => {
    expect(topUpOptionsUsdCents(1n, rate('0.000012'))).toEqual([500n, 1000n, 1500n]);
    expect(topUpOptionsUsdCents(0n, rate('0.000012'))).toEqual([500n, 1000n, 1500n]);
  });

  it('given 1,000,000 MLX missing at 0.000012, when offered, then 12 USD rounds up to 15, then 20 and 25', () => {
    expect(topUpOptionsUsdCents(1_000_000n, rate('0.000012'))).toEqual([1500n, 2000n, 2500n]);
  });

  it('given exactly 10 USD worth missing, when offered, then 10 USD is the minimum (not 15)', () => {
    expect(topUpOptionsUsdCents(1_000_000n, rate('0.00001'))).toEqual([1000n, 1500n, 2000n]);
  });

  it('given any missing amount, when the minimum is bought, then it covers what is missing', () => {
    const r = rate('0.000000123456789');
    for (const missing of [1n, 999n, 40_500_000n, 123_456_789n]) {
      const [minimum] = topUpOptionsUsdCents(missing, r);
      expect(usdCentsToMlx(minimum as bigint, r)).toBeGreaterThanOrEqual(missing);
    }
  });

  it('given more missing than 500 USD buys, when offered, then options above the limit are left out', () => {
    expect(topUpOptionsUsdCents(41_250_000n, rate('0.000012'))).toEqual([49_500n, 50_000n]);
    expect(topUpOptionsUsdCents(10n ** 12n, rate('0.000012'))).toEqual([]);
  });
});
