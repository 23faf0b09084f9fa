// Proves what as_of accepts and names: digits are a cursor (a log position, up to 2^63 − 1), an
// ISO 8601 date-time with a zone is an instant, anything else (a plain day, an impossible date, a
// time without a zone, signs, spaces) is refused with the as_of message; and how days are keyed.
import { describe, expect, it } from 'vitest';
import { isAppError } from '../shared/errors.js';
import { dayOf, endOfDayMs, epochDayOf, isAfter, parseAsOf, refuseFutureTime, requireAsOf } from './moment.js';

describe('parseAsOf', () => {
  it('given digits, then it names a log position, including 0 (before the first event) and the largest 64-bit one', () => {
    expect(parseAsOf('0')).toEqual({ kind: 'position', position: 0n });
    expect(parseAsOf('1024')).toEqual({ kind: 'position', position: 1024n });
    expect(parseAsOf('9223372036854775807')).toEqual({ kind: 'position', position: 2n ** 63n - 1n });
  });

  it('given an ISO 8601 date-time with a zone, then it names that instant, offsets applied', () => {
    expect(parseAsOf('2026-03-01T12:00:00Z')).toEqual({ kind: 'time', ms: Date.UTC(2026, 2, 1, 12) });
    expect(parseAsOf('2026-03-01T12:00Z')).toEqual({ kind: 'time', ms: Date.UTC(2026, 2, 1, 12) });
    expect(parseAsOf('2026-03-01T12:00:00.250+02:00')).toEqual({ kind: 'time', ms: Date.UTC(2026, 2, 1, 10, 0, 0, 250) });
    expect(parseAsOf('2024-02-29T23:59:59.999Z')).toEqual({ kind: 'time', ms: Date.UTC(2024, 1, 29, 23, 59, 59, 999) });
  });

  it.each([
    '',
    ' ',
    '-1',
    '+5',
    '01',
    '1.5',
    '1e3',
    '9223372036854775808',
    '12345678901234567890',
    '2026-03-01',
    '2026-03-01T12:00:00',
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-03-01T24:00:00Z',
    '2026-03-01T12:60:00Z',
    '2026-03-01 12:00:00Z',
    'yesterday',
    '1969-12-31T23:59:59Z',
  ])('given %j, then it names no moment and requireAsOf refuses it with the as_of message', (text) => {
    expect(parseAsOf(text)).toBeUndefined();
    let refused: unknown;
    try {
      requireAsOf(text);
    } catch (error) {
      refused = error;
    }
    expect(isAppError(refused) && refused.code === 'VALIDATION' && refused.messageKey === 'errors:asOfInvalid').toBe(true);
  });
});

describe('refuseFutureTime', () => {
  const now = Date.UTC(2026, 2, 1, 12);
  it('given an instant at or before now, then it passes; after now, then it is refused', () => {
    expect(() => refuseFutureTime({ kind: 'time', ms: now }, now)).not.toThrow();
    expect(() => refuseFutureTime({ kind: 'time', ms: now - 1 }, now)).not.toThrow();
    expect(() => refuseFutureTime({ kind: 'time', ms: now + 1 }, now)).toThrow('errors:asOfInFuture');
  });
  it('given a cursor, then the clock has nothing to say about it (the log does)', () => {
    expect(() => refuseFutureTime({ kind: 'position', position: 10n ** 18n }, now)).not.toThrow();
  });
});

describe('day keys', () => {
  it('given instants around midnight UTC, then each is keyed by its own UTC day', () => {
    expect(dayOf(Date.UTC(2026, 2, 1, 23, 59, 59, 999))).toBe('2026-03-01');
    expect(dayOf(Date.UTC(2026, 2, 2))).toBe('2026-03-02');
    expect(epochDayOf(Date.UTC(2026, 2, 2)) - epochDayOf(Date.UTC(2026, 2, 1, 23, 59, 59, 999))).toBe(1);
    expect(epochDayOf(0)).toBe(0);
  });
  it('given a day, then its end is its last millisecond; given no real day, then none', () => {
    expect(endOfDayMs('2026-03-01')).toBe(Date.UTC(2026, 2, 2) - 1);
    expect(endOfDayMs('2024-02-29')).toBe(Date.UTC(2024, 2, 1) - 1);
    for (const bad of ['2026-02-30', '2026-3-1', '2026-03-01T00:00:00Z', '', 'today']) expect(endOfDayMs(bad)).toBeUndefined();
  });
});

describe('isAfter', () => {
  it('given a cursor, then an event is after it only when its position is greater', () => {
    const asOf = { kind: 'position', position: 10n } as const;
    expect(isAfter(asOf, 10n, undefined)).toBe(false);
    expect(isAfter(asOf, 11n, undefined)).toBe(true);
  });
  it('given an instant, then an event is after it when its own time is later, or unreadable', () => {
    const asOf = { kind: 'time', ms: Date.UTC(2026, 2, 1) } as const;
    expect(isAfter(asOf, 1n, '2026-03-01T00:00:00.000Z')).toBe(false);
    expect(isAfter(asOf, 1n, '2026-03-01T00:00:00.001Z')).toBe(true);
    expect(isAfter(asOf, 1n, 'not a time')).toBe(true);
  });
});
