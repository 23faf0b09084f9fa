// Proves the shared display formats: MLX with thousands separators per language, USD equivalents
// with two decimals only when a valid rate exists, British 12-hour dates (short on phones), and a
// server message's MLX parameters grouped like every other amount.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { displayParams, formatMlxWire, formatStyledDate, formatUsdEquivalent } from './displayFormat.js';

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
