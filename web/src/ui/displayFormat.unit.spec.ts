// Proves the shared display formats: MLX with thousands separators per language, USD equivalents
// with two decimals only when a valid rate exists, British 12-hour dates (short on phones), and a
// server message's MLX parameters grouped like every other amount.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  displayParams,
  formatAmountWire,
  formatMlxWire,
  formatStyledDate,
  formatRateWire,
  formatUsdEquivalent,
  formatUsdWire,
} from './displayFormat.js';

afterEach(() => vi.restoreAllMocks());

describe('amounts', () => {
  it('given wire amounts, then they are grouped for the language, beyond what a float holds exactly', () => {
    expect(formatMlxWire('9000000000000000', 'en')).toBe('9,000,000,000,000,000');
    expect(formatMlxWire('9007199254740993', 'es')).toBe('9.007.199.254.740.993');
    expect(formatMlxWire('0', 'en')).toBe('0');
  });

  it.each(['-5', '1.5', '1e9', '', '01'])('given the malformed wire amount %j, then nothing is shown and it is logged', (wire) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(formatMlxWire(wire, 'en')).toBeNull();
    expect(consoleError).toHaveBeenCalled();
  });

  it('given a rate, then the USD equivalent has two decimals, rounded half up', () => {
    expect(formatUsdEquivalent('1234567', '0.000012', 'en')).toBe('14.81');
    expect(formatUsdEquivalent('1234567', '0.000012', 'es')).toBe('14,81');
    expect(formatUsdEquivalent('125000000', '0.01', 'en')).toBe('1,250,000.00');
    expect(formatUsdEquivalent('0', '0.01', 'en')).toBe('0.00');
  });

  it.each([[null], [undefined], [''], ['0'], ['abc'], ['-1']])('given the rate %j, then there is no USD equivalent', (rate) => {
    expect(formatUsdEquivalent('1000', rate, 'en')).toBeNull();
  });
});

describe('USD amounts sent as decimal text', () => {
  it("given a price from the server, then it is written like every other USD amount: grouped, two decimals, the language's marks", () => {
    expect(formatUsdWire('1234.50', 'en')).toBe('1,234.50');
    expect(formatUsdWire('1234.50', 'es')).toBe('1234,50');
    expect(formatUsdWire('12500.05', 'es')).toBe('12.500,05');
    expect(formatUsdWire('1000000.00', 'en')).toBe('1,000,000.00');
    expect(formatUsdWire('0.07', 'en')).toBe('0.07');
    expect(formatUsdWire('12.5', 'en')).toBe('12.50');
  });

  it.each(['', 'abc', '-1.00', '1.234', '1e3', '1,234.50'])('given %j, which is no USD amount, then there is nothing to show', (text) => {
    expect(formatUsdWire(text, 'en')).toBeNull();
  });

  it('given an amount and its currency, then MLX is whole and grouped, USD has cents, and unreadable text is shown as sent', () => {
    expect(formatAmountWire('25000', 'MLX', 'en')).toBe('25,000');
    expect(formatAmountWire('2500', 'MLX', 'es')).toBe('2500');
    expect(formatAmountWire('25000', 'MLX', 'es')).toBe('25.000');
    expect(formatAmountWire('1234.50', 'USD', 'en')).toBe('1,234.50');
    expect(formatAmountWire('1234.50', 'USD', 'es')).toBe('1234,50');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(formatAmountWire('lots', 'MLX', 'en')).toBe('lots');
    expect(formatAmountWire('lots', 'USD', 'en')).toBe('lots');
  });
});

describe('rates sent as decimal text', () => {
  it("given a USD-per-MLX rate, then every decimal is kept, with the language's decimal mark", () => {
    expect(formatRateWire('0.000012', 'en')).toBe('0.000012');
    expect(formatRateWire('0.000012', 'es')).toBe('0,000012');
    expect(formatRateWire('1250.5', 'en')).toBe('1,250.5');
    expect(formatRateWire('3', 'es')).toBe('3');
  });

  it('given text that is no rate, then it is shown as sent', () => {
    expect(formatRateWire('soon', 'en')).toBe('soon');
  });
});

describe('displayParams', () => {
  it('given MLX amounts in wire digits, then they are grouped; other values are left alone', () => {
    expect(displayParams({ requiredMlx: '3001000', availableMlx: '0', minutes: 5, name: '1000' }, 'es')).toEqual({
      requiredMlx: '3.001.000',
      availableMlx: '0',
      minutes: 5,
      name: '1000',
    });
  });

  it('given an MLX parameter that is not wire digits, then it is shown as sent', () => {
    expect(displayParams({ requiredMlx: 'lots' }, 'en')).toEqual({ requiredMlx: 'lots' });
  });
});

describe('dates', () => {
  it('given an instant, then desktop reads "22/11/2026, 3:04 pm" and phones "22/11/2026"', () => {
    expect(formatStyledDate('2026-11-22T15:04:00Z', 'long', 'UTC')).toBe('22/11/2026, 3:04 pm');
    expect(formatStyledDate('2026-11-22T00:04:00Z', 'long', 'UTC')).toBe('22/11/2026, 12:04 am');
    expect(formatStyledDate('2026-11-22T15:04:00Z', 'short', 'UTC')).toBe('22/11/2026');
  });

  it('given text that is no date, then it is shown as it came rather than as "Invalid Date"', () => {
    expect(formatStyledDate('yesterday', 'long', 'UTC')).toBe('yesterday');
  });
});
