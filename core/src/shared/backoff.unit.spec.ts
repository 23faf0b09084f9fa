// Proves the retry delays double from the base, never exceed the cap, refuse nonsense attempt numbers, and that a failure streak stops at its limit and resets on success.
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, FailureStreak } from './backoff.js';

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

describe('FailureStreak', () => {
  it('given failures in a row, when counted, then each gives the next backoff and the last one says stop', () => {
    const streak = new FailureStreak(policy);
    expect([1, 2, 3, 4].map(() => streak.fail())).toEqual([100, 200, 400, 800]);
    expect(streak.fail()).toBeUndefined();
    expect(streak.count).toBe(5);
  });

  it('given a success between failures, when reset, then the streak starts again from the base delay', () => {
    const streak = new FailureStreak(policy);
    streak.fail();
    streak.fail();
    streak.reset();
    expect(streak.count).toBe(0);
    expect(streak.fail()).toBe(100);
  });
});
