// Proves the retry delays double from the base, never exceed the cap, and refuse nonsense attempt numbers.
import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from './backoff.js';

const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('backoffDelayMs', () => {
  it('given successive failures, when asked for delays, then they double up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, policy))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('given a huge attempt number, when asked for a delay, then it is the cap, not Infinity', () => {
    expect(backoffDelayMs(10_000, policy)).toBe(1_000);
  });

  it.each([0, -1, 1.5, Number.NaN])('given attempt %s, when asked for a delay, then it is refused', (attempt) => {
    expect(() => backoffDelayMs(attempt, policy)).toThrow(/Invalid attempt/);
  });
});
