// Proves the Buy form's amount logic: the USD input keeps digits and one decimal point (either
// separator, at most two decimals, no leading zeros) with the caret mapped, shows the language's
// decimal point and two decimals once left; MLX converts to the cents that buy at least that MLX
// and back exactly as the server credits (rounded down); switching currency carries the amount;
// the exchange box formats MLX with thousands separators and USD with two decimals.
import { parseExchangeRate, usdCentsToMlx, type ExchangeRate } from '@quern/core/wallet';
import { describe, expect, it } from 'vitest';
import {
  displayEntry,
  exchangeOf,
  mlxPerUsd,
  padUsdText,
  readUsdInput,
  switchCurrency,
  USD_INTEGER_DIGITS_MAX,
  usdCentsForMlx,
  usdCentsOf,
} from './buyAmount.js';

function rateOf(text: string): ExchangeRate {
  const parsed = parseExchangeRate(text);
  if (!parsed.ok) throw new Error(`bad rate ${text}`);
  return parsed.rate;
}

/** Quern's default: 1 USD = 80,000 MLX. */
const RATE_80K = rateOf('0.0000125');
/** The e2e server's: 1 USD = 83,333.33… MLX, so conversions must round. */
const RATE_83K = rateOf('0.000012');

describe('readUsdInput', () => {
  it.each([
    ['10', '10'],
    ['10.5', '10.5'],
    ['10,5', '10.5'],
    ['10.555', '10.55'],
    ['1.2.3', '1.23'],
    ['$12a', '12'],
    ['007', '7'],
    ['0.50', '0.50'],
    ['.5', '0.5'],
    ['10.', '10.'],
    ['', ''],
    ['-5', '5'],
    ['1 000', '1000'],
  ])('given %j typed, then the USD text is %j', (typed, text) => {
    expect(readUsdInput(typed).text).toBe(text);
  });

  it('given more whole dollars than any purchase has, then the extra digits are dropped', () => {
    expect(USD_INTEGER_DIGITS_MAX).toBe(6);
    expect(readUsdInput('12345678').text).toBe('123456');
    expect(readUsdInput('12345678.91').text).toBe('123456.91');
  });

  it('given a letter typed mid-amount, then the caret stays after the character it followed', () => {
    // "10x.5" with the caret after the x: two kept characters precede it.
    expect(readUsdInput('10x.5', 3)).toEqual({ text: '10.5', keptBeforeCaret: 2 });
  });

  it('given leading zeros before the caret, then the caret moves back with them', () => {
    expect(readUsdInput('0012', 3)).toEqual({ text: '12', keptBeforeCaret: 1 });
  });

  it('given a lone decimal point, then a zero is put before it and the caret after both', () => {
    expect(readUsdInput('.', 1)).toEqual({ text: '0.', keptBeforeCaret: 2 });
  });
});

describe('display and padding', () => {
  it('given USD, then the decimal point is the language’s, and MLX is grouped in thousands', () => {
    expect(displayEntry({ currency: 'USD', text: '10.5' }, 'en')).toBe('10.5');
    expect(displayEntry({ currency: 'USD', text: '10.5' }, 'es')).toBe('10,5');
    expect(displayEntry({ currency: 'MLX', text: '1234567' }, 'en')).toBe('1,234,567');
    expect(displayEntry({ currency: 'MLX', text: '1234567' }, 'es')).toBe('1.234.567');
  });

  it.each([
    ['10', '10.00'],
    ['10.5', '10.50'],
    ['10.', '10.00'],
    ['0.05', '0.05'],
    ['', ''],
  ])('given %j, when the field is left, then it shows %j', (text, padded) => {
    expect(padUsdText(text)).toBe(padded);
  });
});

describe('conversions', () => {
  it('given the rates, then one USD buys what the server would credit for 100 cents', () => {
    expect(mlxPerUsd(RATE_80K)).toBe(80_000n);
    expect(mlxPerUsd(RATE_83K)).toBe(83_333n);
  });

  it('given MLX, then the cents are the price rounded up, so the credit is never less than typed', () => {
    expect(usdCentsForMlx(800_000n, RATE_80K)).toBe(1000n);
    expect(usdCentsForMlx(800_001n, RATE_80K)).toBe(1001n);
    expect(usdCentsForMlx(0n, RATE_80K)).toBe(0n);
    for (const mlx of [1n, 799n, 833_333n, 833_334n, 41_666_666n]) {
      const cents = usdCentsForMlx(mlx, RATE_83K);
      expect(usdCentsToMlx(cents, RATE_83K)).toBeGreaterThanOrEqual(mlx);
      // One cent less would not buy it: the price is the smallest that does.
      expect(usdCentsToMlx(cents - 1n, RATE_83K)).toBeLessThan(mlx);
    }
  });

  it('given an entry, then its cents: USD read exactly, MLX at the rate, nothing when empty or without a rate', () => {
    expect(usdCentsOf({ currency: 'USD', text: '10.5' }, null)).toBe(1050n);
    expect(usdCentsOf({ currency: 'USD', text: '10.' }, null)).toBe(1000n);
    expect(usdCentsOf({ currency: 'USD', text: '' }, RATE_80K)).toBeNull();
    expect(usdCentsOf({ currency: 'MLX', text: '800000' }, RATE_80K)).toBe(1000n);
    expect(usdCentsOf({ currency: 'MLX', text: '800000' }, null)).toBeNull();
    expect(usdCentsOf({ currency: 'MLX', text: '' }, RATE_80K)).toBeNull();
  });

  it('given USD, when switched to MLX and back, then the MLX the server credits, then its price', () => {
    const mlx = switchCurrency({ currency: 'USD', text: '10.00' }, 'MLX', RATE_83K);
    expect(mlx).toEqual({ currency: 'MLX', text: '833333' });
    expect(switchCurrency(mlx, 'USD', RATE_83K)).toEqual({ currency: 'USD', text: '10.00' });
    expect(switchCurrency({ currency: 'MLX', text: '1000000' }, 'USD', RATE_80K)).toEqual({ currency: 'USD', text: '12.50' });
  });

  it('given no rate or nothing typed, when switched, then the amount starts empty in the new currency', () => {
    expect(switchCurrency({ currency: 'USD', text: '10' }, 'MLX', null)).toEqual({ currency: 'MLX', text: '' });
    expect(switchCurrency({ currency: 'MLX', text: '' }, 'USD', RATE_80K)).toEqual({ currency: 'USD', text: '' });
    expect(switchCurrency({ currency: 'USD', text: '10' }, 'USD', null)).toEqual({ currency: 'USD', text: '10' });
  });
});

describe('exchangeOf', () => {
  it('given USD typed, then the MLX it buys with thousands separators', () => {
    expect(exchangeOf({ currency: 'USD', text: '10' }, RATE_83K, 'en')).toEqual({ currency: 'MLX', amount: '833,333' });
    expect(exchangeOf({ currency: 'USD', text: '500' }, RATE_80K, 'es')).toEqual({ currency: 'MLX', amount: '40.000.000' });
  });

  it('given MLX typed, then the USD it costs with two decimals', () => {
    expect(exchangeOf({ currency: 'MLX', text: '1000000' }, RATE_80K, 'en')).toEqual({ currency: 'USD', amount: '12.50' });
    expect(exchangeOf({ currency: 'MLX', text: '1000000' }, RATE_80K, 'es')).toEqual({ currency: 'USD', amount: '12,50' });
  });

  it('given nothing to convert or no rate, then nothing', () => {
    expect(exchangeOf({ currency: 'USD', text: '' }, RATE_80K, 'en')).toBeNull();
    expect(exchangeOf({ currency: 'USD', text: '10' }, null, 'en')).toBeNull();
  });
});
