// Proves a payment's status and USD value: the status follows the refunded total, the USD value is exact integer arithmetic rounded half up to cents, and the export's date bounds refuse what is not a date.
import { describe, expect, it } from 'vitest';
import { exportBoundMs, paymentsExportQuery, paymentsListQuery } from './contracts.js';
import { paymentStatusOf, usdValueOf } from './amounts.js';

describe('payment amounts', () => {
  it('given refunds, when the status is derived, then none is paid, some is partially refunded, all is refunded', () => {
    expect(paymentStatusOf(100n, 0n)).toBe('paid');
    expect(paymentStatusOf(100n, 1n)).toBe('partially_refunded');
    expect(paymentStatusOf(100n, 99n)).toBe('partially_refunded');
    expect(paymentStatusOf(100n, 100n)).toBe('refunded');
  });

  it('given a rate, when the USD value is computed, then it is exact and rounds half up to cents', () => {
    expect(usdValueOf(800_000n, '0.0000125')).toBe('10.00');
    // 1 MLX at 0.005 is exactly half a cent: up. At 0.0049999 it is below half: down.
    expect(usdValueOf(1n, '0.005')).toBe('0.01');
    expect(usdValueOf(1n, '0.0049999')).toBe('0.00');
    // Beyond what a double holds exactly: 9,007,199,254,740,993 MLX at 0.1 USD.
    expect(usdValueOf(9_007_199_254_740_993n, '0.1')).toBe('900719925474099.30');
    expect(usdValueOf(123n, '1')).toBe('123.00');
  });

  it('given no rate or an unreadable one, when the USD value is computed, then it is null', () => {
    expect(usdValueOf(100n, null)).toBeNull();
    expect(usdValueOf(100n, undefined)).toBeNull();
    expect(usdValueOf(100n, 'abc')).toBeNull();
  });
});

describe('payments query schemas', () => {
  it('given days and date-times, when read, then days cover the whole UTC day and impossible dates are refused', () => {
    expect(exportBoundMs('2026-03-01', 'from')).toBe(Date.parse('2026-03-01T00:00:00.000Z'));
    expect(exportBoundMs('2026-03-01', 'to')).toBe(Date.parse('2026-03-01T23:59:59.999Z'));
    expect(exportBoundMs('2026-03-01T12:00:00+01:00', 'to')).toBe(Date.parse('2026-03-01T11:00:00.000Z'));
    for (const bad of ['2026-02-31', '2026-13-01', '2026-03-01T12:00:00', 'yesterday', '', '2026-3-1'])
      expect(exportBoundMs(bad, 'from'), bad).toBeNaN();
  });

  it('given a reversed or malformed range, when parsed, then it is refused with a field message', () => {
    const reversed = paymentsExportQuery.safeParse({ from: '2026-03-02', to: '2026-03-01' });
    expect(reversed.success).toBe(false);
    expect(reversed.error?.issues[0]).toMatchObject({ path: ['to'], message: 'errors:paymentsRangeReversed' });
    expect(paymentsExportQuery.safeParse({ from: '2026-03-01', to: '2026-03-01' }).success).toBe(true);
    expect(paymentsExportQuery.safeParse({ from: '2026-03-01' }).success).toBe(false);
    expect(paymentsExportQuery.safeParse({ from: '2026-03-01', to: '2026-03-01', extra: '1' }).success).toBe(false);
  });

  it('given limits, when parsed, then 1..100 in plain digits pass and anything else is refused', () => {
    expect(paymentsListQuery.parse({ limit: '100' })).toEqual({ limit: 100 });
    expect(paymentsListQuery.parse({})).toEqual({});
    for (const bad of ['0', '101', '1e2', '07', '-1', ' 5', 'ten'])
      expect(paymentsListQuery.safeParse({ limit: bad }).success, bad).toBe(false);
    expect(paymentsListQuery.safeParse({ starting_after: 'nope' }).error?.issues[0]?.message).toBe('errors:paymentsUnknownCursor');
  });
});
