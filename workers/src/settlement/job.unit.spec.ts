// Proves the settlement delay counts from the reservation, settles a long-waiting reservation at once, and cannot be stretched by a future or unreadable reservation time.
import { describe, expect, it } from 'vitest';
import { settleNotBeforeMs } from './job.js';

const now = Date.parse('2026-03-01T10:00:10.000Z');

describe('settleNotBeforeMs', () => {
  it('given no delay, when asked, then the transfer settles now', () => {
    expect(settleNotBeforeMs('2026-03-01T10:00:09.000Z', now, 0)).toBe(now);
  });

  it('given a reservation 1 s ago and a 5 s delay, when asked, then it settles 5 s after the reservation', () => {
    expect(settleNotBeforeMs('2026-03-01T10:00:09.000Z', now, 5_000)).toBe(now + 4_000);
  });

  it('given a reservation older than the delay (a re-derived job), when asked, then it is already due', () => {
    expect(settleNotBeforeMs('2026-03-01T09:00:00.000Z', now, 5_000)).toBeLessThan(now);
  });

  it('given a reservation time in the future (clock skew), when asked, then the wait is at most the delay from now', () => {
    expect(settleNotBeforeMs('2026-03-02T00:00:00.000Z', now, 5_000)).toBe(now + 5_000);
  });

  it.each(['', 'yesterday', '2026-13-45T99:00:00Z'])(
    'given an unreadable reservation time %j, when asked, then the delay is skipped',
    (reservedAt) => {
      expect(settleNotBeforeMs(reservedAt, now, 5_000)).toBe(now);
    },
  );
});
