// Proves the billing calendar (ADR 037): monthly on the billing day, clamped to short months and
// back to the 31st after them, leap years, the retry offsets 0/1/3/5 days, and that a late charge
// (a retry) moves the billing day while an on-time one keeps it.
import { describe, expect, it } from 'vitest';
import { addMonthsOnBillingDay, attemptDueAt, paidThroughAfter } from './schedule.js';

const at = (iso: string) => new Date(iso);

describe('addMonthsOnBillingDay', () => {
  it('given the 31st, then it clamps to February and comes back to the 31st in March', () => {
    const jan = at('2026-01-31T10:00:00.000Z');
    expect(addMonthsOnBillingDay(jan, 1, 31).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonthsOnBillingDay(at('2026-02-28T10:00:00.000Z'), 1, 31).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addMonthsOnBillingDay(at('2028-01-31T10:00:00.000Z'), 1, 31).toISOString()).toBe('2028-02-29T10:00:00.000Z');
  });

  it('given December, then it rolls into January of the next year', () => {
    expect(addMonthsOnBillingDay(at('2026-12-15T23:59:59.999Z'), 1, 15).toISOString()).toBe('2027-01-15T23:59:59.999Z');
    expect(addMonthsOnBillingDay(at('2026-01-30T00:00:00.000Z'), 12, 30).toISOString()).toBe('2027-01-30T00:00:00.000Z');
  });
});

describe('attemptDueAt and paidThroughAfter', () => {
  it('given a due time, then the attempts fall on it and 1, 3 and 5 days later', () => {
    const due = at('2026-03-10T08:00:00.000Z');
    expect([1, 2, 3, 4].map((a) => attemptDueAt(due, a).toISOString())).toEqual([
      '2026-03-10T08:00:00.000Z',
      '2026-03-11T08:00:00.000Z',
      '2026-03-13T08:00:00.000Z',
      '2026-03-15T08:00:00.000Z',
    ]);
    expect(() => attemptDueAt(due, 5)).toThrow(RangeError);
  });

  it('given an on-time charge that ran late, then the period counts from the due time; a retry counts from the charge', () => {
    const dueAt = at('2026-02-28T10:00:00.000Z');
    expect(paidThroughAfter({ attempt: 1, dueAt, chargedAt: at('2026-02-28T10:05:00.000Z'), billingDay: 31 })).toEqual({
      paidThrough: at('2026-03-31T10:00:00.000Z'),
      billingDay: 31,
    });
    expect(paidThroughAfter({ attempt: 3, dueAt, chargedAt: at('2026-03-03T12:00:00.000Z'), billingDay: 31 })).toEqual({
      paidThrough: at('2026-04-03T12:00:00.000Z'),
      billingDay: 3,
    });
  });
});
