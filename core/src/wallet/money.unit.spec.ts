// Proves MLX amounts, USD cents and exchange rates are parsed, formatted and converted exactly, with no floats.
import { describe, expect, it } from 'vitest';
import {
  MLX_TOTAL_SUPPLY,
  SEND_FEE_MLX,
  formatMlx,
  formatMlxPerUsd,
  formatUsdCents,
  mlxFromWire,
  mlxToUsdCents,
  mlxToWire,
  parseExchangeRate,
  parseMlxAmount,
  usdCentsToMlx,
} from './money.js';

const rate = (text: string) => {
  const parsed = parseExchangeRate(text);
  if (!parsed.ok) throw new Error(`bad test rate ${text}`);
  return parsed.rate;
};

describe('parseMlxAmount', () => {
  it.each([
    ['1000', 1000n],
    ['1,000', 1000n],
    ['1.000', 1000n],
    ['1 000', 1000n],
    ['1\u00a0000\u00a0000', 1_000_000n],
    ['  12,345,678  ', 12_345_678n],
    ['007', 7n],
    ['9,000,000,000,000,000', MLX_TOTAL_SUPPLY],
    ['8999999999999999', 8_999_999_999_999_999n],
  ])('given %j, when parsed, then it is %s MLX', (text, amountMlx) => {
    expect(parseMlxAmount(text)).toEqual({ ok: true, amountMlx });
  });

  it.each([
    [''],
    ['   '],
    ['0'],
    ['0,000'],
    ['-5'],
    ['+5'],
    ['1.5'],
    ['12.5'],
    ['12,5'],
    ['1x'],
    ['1,00'],
    ['1,50'],
    ['1,0000'],
    ['1,000.000'],
    [',100'],
    ['100,'],
    ['1,,000'],
    ['1e6'],
    ['0x10'],
    ['12a'],
    ['١٢٣'],
    ['1'.repeat(41)],
  ])('given %j, when parsed, then it is an invalid amount', (text) => {
    expect(parseMlxAmount(text)).toEqual({ ok: false, messageKey: 'errors:invalidAmount' });
  });

  it('given more than the total supply, when parsed, then it is too large', () => {
    expect(parseMlxAmount('9000000000000001')).toEqual({ ok: false, messageKey: 'errors:amountTooLarge' });
    expect(parseMlxAmount('99,999,999,999,999,999,999')).toEqual({ ok: false, messageKey: 'errors:amountTooLarge' });
  });

  it('given a non-string, when parsed, then it is invalid rather than a crash', () => {
    expect(parseMlxAmount(1000 as unknown as string)).toEqual({ ok: false, messageKey: 'errors:invalidAmount' });
  });
});

describe('wire form', () => {
  it('given bigints, when written and read, then the digits round-trip exactly above 2^53', () => {
    const amountMlx = MLX_TOTAL_SUPPLY - 1n;
    expect(mlxToWire(amountMlx)).toBe('8999999999999999');
    expect(mlxFromWire(mlxToWire(amountMlx))).toBe(amountMlx);
    expect(mlxFromWire('0')).toBe(0n);
  });

  it('given anything but canonical digits, when read, then it throws', () => {
    for (const bad of ['', '01', '-1', '1.0', '1e3', ' 1', '1,000', '1'.repeat(21)]) expect(() => mlxFromWire(bad)).toThrow(TypeError);
    expect(() => mlxToWire(-1n)).toThrow(RangeError);
  });
});

describe('formatting', () => {
  it('given amounts, when formatted in en and es, then thousands are grouped with , and .', () => {
    expect(formatMlx(0n, 'en')).toBe('0');
    expect(formatMlx(999n, 'en')).toBe('999');
    expect(formatMlx(1000n, 'en')).toBe('1,000');
    expect(formatMlx(1000n, 'es')).toBe('1000'); // Spanish leaves four digits ungrouped (RAE)
    expect(formatMlx(10_000n, 'es')).toBe('10.000');
    expect(formatMlx(MLX_TOTAL_SUPPLY, 'en')).toBe('9,000,000,000,000,000');
    expect(formatMlx(8_999_999_999_999_999n, 'es')).toBe('8.999.999.999.999.999');
    expect(formatMlx(-1_234_567n, 'en')).toBe('-1,234,567');
  });

  it('given cents, when formatted, then two decimals with the language separators', () => {
    expect(formatUsdCents(0n, 'en')).toBe('0.00');
    expect(formatUsdCents(5n, 'en')).toBe('0.05');
    expect(formatUsdCents(123_456n, 'en')).toBe('1,234.56');
    expect(formatUsdCents(123_456n, 'es')).toBe('1234,56');
    expect(formatUsdCents(-50_000n, 'en')).toBe('-500.00');
  });
});

describe('exchange rate', () => {
  it('given decimal text, when parsed, then it is an exact fraction with canonical text', () => {
    expect(rate('0.000012')).toEqual({ usdPerMlx: '0.000012', numerator: 12n, denominator: 1_000_000n });
    expect(rate('0.0000120')).toEqual({ usdPerMlx: '0.000012', numerator: 12n, denominator: 1_000_000n });
    expect(rate('002.50')).toEqual({ usdPerMlx: '2.5', numerator: 25n, denominator: 10n });
    expect(rate('3')).toEqual({ usdPerMlx: '3', numerator: 3n, denominator: 1n });
  });

  it.each([[''], ['0'], ['0.000'], ['-0.1'], ['1e-5'], ['.5'], ['5.'], ['0,5'], ['0.0000000000000000001'], ['1234567890']])(
    'given %j, when parsed as a rate, then it is refused',
    (text) => {
      expect(parseExchangeRate(text)).toEqual({ ok: false, messageKey: 'errors:invalidRate' });
    },
  );

  it('given MLX, when converted to cents, then it rounds half up', () => {
    const usdPerMlx = rate('0.000012');
    expect(mlxToUsdCents(1_000_000n, usdPerMlx)).toBe(1200n); // 12.00 USD exactly
    expect(mlxToUsdCents(1250n, usdPerMlx)).toBe(2n); // 1.5 cents -> 2
    expect(mlxToUsdCents(1249n, usdPerMlx)).toBe(1n); // 1.4988 cents -> 1
    expect(mlxToUsdCents(0n, usdPerMlx)).toBe(0n);
    expect(mlxToUsdCents(MLX_TOTAL_SUPPLY, usdPerMlx)).toBe(10_800_000_000_000n); // 108 billion USD, exact
  });

  it('given cents, when converted to MLX, then it rounds down so the buyer never gets more than paid for', () => {
    const usdPerMlx = rate('0.000012');
    expect(usdCentsToMlx(500n, usdPerMlx)).toBe(416_666n); // 5 USD = 416,666.67 MLX
    expect(usdCentsToMlx(100n, rate('0.3'))).toBe(3n); // 3.33 -> 3
    expect(usdCentsToMlx(0n, usdPerMlx)).toBe(0n);
    expect(mlxToUsdCents(usdCentsToMlx(500n, usdPerMlx), usdPerMlx)).toBeLessThanOrEqual(500n);
  });

  it('given negative inputs, when converting, then it throws', () => {
    expect(() => mlxToUsdCents(-1n, rate('1'))).toThrow(RangeError);
    expect(() => usdCentsToMlx(-1n, rate('1'))).toThrow(RangeError);
  });

  it('keeps the constants the spec and the architecture name', () => {
    expect(SEND_FEE_MLX).toBe(1000n);
    expect(MLX_TOTAL_SUPPLY).toBe(9n * 10n ** 15n);
  });
});

describe('formatMlxPerUsd', () => {
  it('given rates, when shown as 1 USD = N MLX, then N is exact, grouped per language, with two cut decimals only when not whole', () => {
    expect(formatMlxPerUsd(rate('0.0000125'), 'en')).toBe('80,000');
    expect(formatMlxPerUsd(rate('0.0000125'), 'es')).toBe('80.000');
    expect(formatMlxPerUsd(rate('0.000012'), 'en')).toBe('83,333.33');
    expect(formatMlxPerUsd(rate('0.000012'), 'es')).toBe('83.333,33');
    expect(formatMlxPerUsd(rate('0.0000001'), 'en')).toBe('10,000,000');
    expect(formatMlxPerUsd(rate('3'), 'en')).toBe('0.33');
    expect(formatMlxPerUsd(rate('1'), 'en')).toBe('1');
  });
});
