// Proves the one number and date format per language: Intl grouping for bigints of any size, USD cents without floats, dates, and message parameters formatted by name.
import { describe, expect, it } from 'vitest';
import {
  decimalSeparator,
  formatDate,
  formatDateTime,
  formatInteger,
  formatLongDate,
  formatMessageParam,
  formatMessageParams,
  formatUsdCentsText,
  groupSeparator,
} from './format.js';
import { billingText, errorText } from './index.js';

describe('formatInteger', () => {
  it.each([
    [0n, 'en', '0'],
    [0n, 'es', '0'],
    [999n, 'en', '999'],
    [1234n, 'en', '1,234'],
    // Spanish (RAE, CLDR) leaves a four-digit number ungrouped.
    [1234n, 'es', '1234'],
    [12_345n, 'es', '12.345'],
    [300_000n, 'en', '300,000'],
    [300_000n, 'es', '300.000'],
    [-12_345n, 'en', '-12,345'],
    [-12_345n, 'es', '-12.345'],
    // Beyond 2^53: every digit kept, none rounded.
    [9_007_199_254_740_993n, 'en', '9,007,199,254,740,993'],
    [9_007_199_254_740_993n, 'es', '9.007.199.254.740.993'],
    [123_456_789_012_345_678_901n, 'en', '123,456,789,012,345,678,901'],
  ] as const)('given %s in %s, when formatted, then it reads %s', (value, language, text) => {
    expect(formatInteger(value, language)).toBe(text);
  });

  it('given each language, when its separators are asked for, then Intl gives the language’s own', () => {
    expect([groupSeparator('en'), decimalSeparator('en')]).toEqual([',', '.']);
    expect([groupSeparator('es'), decimalSeparator('es')]).toEqual(['.', ',']);
  });
});

describe('formatUsdCentsText', () => {
  it.each([
    [0n, 'en', '0.00'],
    [5n, 'es', '0,05'],
    [123_456n, 'en', '1,234.56'],
    [123_456n, 'es', '1234,56'],
    [1_234_567_890n, 'es', '12.345.678,90'],
    [-150n, 'en', '-1.50'],
    [900_719_925_474_099_312n, 'en', '9,007,199,254,740,993.12'],
  ] as const)('given %s cents in %s, then %s', (cents, language, text) => {
    expect(formatUsdCentsText(cents, language)).toBe(text);
  });
});

describe('dates', () => {
  const at = '2026-11-22T15:04:00Z';
  it('given an instant, when written per language, then en is the spec’s en-GB 12-hour and es the Spanish 24-hour', () => {
    expect(formatDateTime(at, 'en', { timeZone: 'UTC' })).toBe('22/11/2026, 3:04 pm');
    expect(formatDateTime(at, 'es', { timeZone: 'UTC' })).toBe('22/11/2026, 15:04');
    expect(formatDateTime('2026-11-22T00:04:00Z', 'en', { timeZone: 'UTC' })).toBe('22/11/2026, 12:04 am');
    expect(formatDateTime(at, 'es', { timeZone: 'UTC', showZone: true })).toBe('22/11/2026, 15:04 UTC');
    expect(formatDate(at, 'en', { timeZone: 'UTC' })).toBe('22/11/2026');
    expect(formatDate(at, 'es', { timeZone: 'UTC' })).toBe('22/11/2026');
    expect(formatLongDate(at, 'en', { timeZone: 'UTC' })).toBe('22 November 2026');
    expect(formatLongDate(at, 'es', { timeZone: 'UTC' })).toBe('22 de noviembre de 2026');
  });

  it('given text that is not a date, when formatted, then it comes back as it was', () => {
    expect(formatDate('yesterday', 'en')).toBe('yesterday');
    expect(formatDateTime('', 'es')).toBe('');
  });
});

describe('formatMessageParam', () => {
  it('given amount parameters as wire digits, bigints or integers, then they are grouped', () => {
    expect(formatMessageParam('requiredMlx', '300000', 'es')).toBe('300.000');
    expect(formatMessageParam('price', 300000, 'en')).toBe('300,000');
    expect(formatMessageParam('amount', 12_500n, 'es')).toBe('12.500');
    expect(formatMessageParam('debit', '9000000000000000', 'en')).toBe('9,000,000,000,000,000');
  });

  it('given text already formatted, a fraction or a non-amount name, then nothing changes', () => {
    expect(formatMessageParam('amount', '12,500', 'en')).toBe('12,500');
    expect(formatMessageParam('amount', '1.5', 'en')).toBe('1.5');
    expect(formatMessageParam('amount', 1.5, 'en')).toBe(1.5);
    expect(formatMessageParam('year', 2026, 'en')).toBe(2026);
    expect(formatMessageParam('minutes', '15000', 'en')).toBe('15000');
    expect(formatMessageParam('userId', '1234567', 'es')).toBe('1234567');
  });

  it('given an ISO instant in a date parameter, then it is written as a date; other text is kept', () => {
    expect(formatMessageParam('holdUntil', '2026-11-30T03:50:12.345Z', 'en', { timeZone: 'UTC', showZone: true })).toBe(
      '30/11/2026, 3:50 am UTC',
    );
    expect(formatMessageParam('date', '2026-11-30T03:50:12Z', 'es', { timeZone: 'UTC' })).toBe('30 de noviembre de 2026');
    expect(formatMessageParam('date', '30 November 2026', 'en')).toBe('30 November 2026');
    expect(formatMessageParams({ heldMlx: '800000', name: '300000' }, 'en')).toEqual({ heldMlx: '800,000', name: '300000' });
  });
});

describe('server messages', () => {
  it('given an error with amounts, when written in each language, then each uses its own grouping', () => {
    const params = { requiredMlx: '301000', availableMlx: '1000' };
    expect(errorText('errors:insufficientFunds', 'en', params)).toContain('301,000 MLX including the fee, and 1,000 MLX');
    expect(errorText('errors:insufficientFunds', 'es', params)).toContain('301.000');
    expect(errorText('errors:insufficientFunds', 'es', params)).toContain('1000');
    expect(errorText('errors:planPriceChanged', 'es', { price: '300000' })).toContain('300.000 MLX');
    expect(billingText('subscribed', 'en', { price: '300000', date: '22 November 2026' })).toContain('300,000');
  });
});
