// Proves the web's one formatting module writes and reads amounts and dates by the page language's rules: Intl grouping, strict whole-MLX parsing, calendar days, and the i18next hook that formats every amount parameter.
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatCalendarDay, formatDateTime, formatInterpolation, formatMlx, formatUsdCents, parseWholeMlx } from './format.js';
import { quernFormatter } from './i18n.js';

describe('formatMlx', () => {
  it.each([
    [0n, 'en', '0'],
    ['0', 'es', '0'],
    ['1234', 'en', '1,234'],
    ['1234', 'es', '1234'],
    ['12500', 'es', '12.500'],
    [-12_500n, 'en', '-12,500'],
    ['9007199254740993', 'en', '9,007,199,254,740,993'],
    ['9007199254740993', 'es', '9.007.199.254.740.993'],
  ] as const)('given %s in %s, then %s', (amount, language, text) => {
    expect(formatMlx(amount, language)).toBe(text);
  });

  it('given wire text that is not digits, then it is shown as it came', () => {
    expect(formatMlx('12.5', 'en')).toBe('12.5');
    expect(formatMlx('-1', 'en')).toBe('-1');
  });

  it('given cents, then two decimals in the language', () => {
    expect(formatUsdCents(123_456n, 'en')).toBe('1,234.56');
    expect(formatUsdCents(1_234_567n, 'es')).toBe('12.345,67');
  });
});

describe('parseWholeMlx', () => {
  it.each([
    ['12500', 'en', 12_500n],
    ['12,500', 'en', 12_500n],
    ['12.500', 'es', 12_500n],
    ['1234', 'es', 1234n],
    ['1.234', 'es', 1234n],
    ['  1,000,000 ', 'en', 1_000_000n],
    ['0', 'en', 0n],
    ['9,007,199,254,740,993', 'en', 9_007_199_254_740_993n],
    ['9.007.199.254.740.993', 'es', 9_007_199_254_740_993n],
  ] as const)('given %j in %s, then it reads %s', (text, language, amount) => {
    expect(parseWholeMlx(text, language)).toEqual({ ok: true, amount });
  });

  it.each([
    ['12.5', 'en'],
    ['12,5', 'es'],
    ['12.500', 'en'],
    ['12,500', 'es'],
    ['1,00', 'en'],
    ['1.0000', 'es'],
    ['1x', 'en'],
    ['-5', 'en'],
    ['+5', 'es'],
    ['1 000', 'en'],
    [',100', 'en'],
    ['1'.repeat(41), 'en'],
  ] as const)('given %j in %s, then it is refused as not a whole amount', (text, language) => {
    expect(parseWholeMlx(text, language)).toEqual({ ok: false, error: 'notWhole' });
  });

  it('given nothing typed, then it is empty, not zero', () => {
    expect(parseWholeMlx('   ', 'es')).toEqual({ ok: false, error: 'empty' });
  });
});

describe('dates', () => {
  it('given a calendar day from a date input, then it reads in the language; an impossible day is null', () => {
    expect(formatCalendarDay('2026-01-31', 'en')).toBe('31/01/2026');
    expect(formatCalendarDay('2026-01-31', 'es')).toBe('31/01/2026');
    expect(formatCalendarDay('2026-02-30', 'en')).toBeNull();
    expect(formatCalendarDay('', 'es')).toBeNull();
    expect(formatDateTime('2026-11-22T15:04:00Z', 'es', { timeZone: 'UTC' })).toBe('22/11/2026, 15:04');
  });
});

describe('the i18next hook', () => {
  it('given a string with an amount parameter as wire digits, when translated, then it is grouped in that language only', async () => {
    const instance = createInstance();
    await instance.use(quernFormatter).init({
      lng: 'es',
      interpolation: { escapeValue: false, alwaysFormat: true },
      resources: {
        en: { translation: { need: 'An additional {{requiredMlx}} MLX is needed ({{year}})' } },
        es: { translation: { need: 'Faltan {{requiredMlx}} MLX ({{year}})' } },
      },
    });
    expect(instance.t('need', { requiredMlx: '300000', year: 2026 })).toBe('Faltan 300.000 MLX (2026)');
    expect(instance.t('need', { requiredMlx: '300000', year: 2026, lng: 'en' })).toBe('An additional 300,000 MLX is needed (2026)');
    expect(formatInterpolation('300000', 'xx', 'requiredMlx')).toBe('300,000');
    expect(formatInterpolation('300000', 'es', undefined)).toBe('300000');
  });
});
