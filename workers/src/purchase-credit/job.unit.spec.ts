// Proves when the credit job may credit: the grace counts from the capture, so a job that runs late (re-derived, after a crash) credits at once, and a capture time in the future or unreadable never stretches the wait past the grace from now.
import { describe, expect, it } from 'vitest';
import { creditNotBeforeMs } from './job.js';

const capturedAt = '2026-03-01T10:00:00.000Z';
const capturedMs = Date.parse(capturedAt);

describe('creditNotBeforeMs', () => {
  it('given a capture just now, then the credit waits the grace from the capture', () => {
    expect(creditNotBeforeMs(capturedAt, capturedMs + 1_000, 15_000)).toBe(capturedMs + 15_000);
  });

  it('given a job running long after the capture, then the time is already past', () => {
    const nowMs = capturedMs + 3_600_000;
    expect(creditNotBeforeMs(capturedAt, nowMs, 15_000)).toBeLessThan(nowMs);
  });

  it('given a capture time in the future (clock skew), or unreadable, or no grace, then the wait is at most the grace from now', () => {
    expect(creditNotBeforeMs('2099-01-01T00:00:00.000Z', capturedMs, 15_000)).toBe(capturedMs + 15_000);
    expect(creditNotBeforeMs('not a time', capturedMs, 15_000)).toBe(capturedMs);
    expect(creditNotBeforeMs(capturedAt, capturedMs, 0)).toBe(capturedMs);
  });
});
