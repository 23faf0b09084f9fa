// Proves the hosted page's countdown: whole seconds left, zero once past (never negative or NaN), and its m:ss / h:mm:ss form.
import { describe, expect, it } from 'vitest';
import { formatCountdown, secondsLeft } from './countdown.js';

describe('countdown', () => {
  it('counts whole seconds left and stops at zero', () => {
    const expiresAt = '2026-11-28T12:15:00.000Z';
    expect(secondsLeft(expiresAt, Date.parse('2026-11-28T12:00:00.500Z'))).toBe(899);
    expect(secondsLeft(expiresAt, Date.parse('2026-11-28T12:16:00.000Z'))).toBe(0);
    expect(secondsLeft('not a time', 0)).toBe(0);
  });

  it('reads m:ss under an hour and h:mm:ss above', () => {
    expect(formatCountdown(899)).toBe('14:59');
    expect(formatCountdown(5)).toBe('0:05');
    expect(formatCountdown(3 * 3600 + 65)).toBe('3:01:05');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});
