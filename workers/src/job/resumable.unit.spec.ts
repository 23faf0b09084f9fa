// Proves the network wait is bounded: pauses double up to a ceiling, never pass the deadline, the wait ends at the deadline, and invalid settings are refused.
import { describe, expect, it } from 'vitest';
import { checkedWait, deadlineMs, nextPollAtMs, POLL_DELAY_MAX_MS, POLLS_MAX, WAIT_MAX_MS, waitIsOver } from './resumable.js';

const wait = { waitMs: 600_000, pollIntervalMs: 2_000 };
const start = 1_000_000;

describe('network wait', () => {
  it('given successive polls, when scheduled, then the pause doubles from the interval up to the ceiling', () => {
    const pauses = [0, 1, 2, 3, 4, 5].map((polls) => nextPollAtMs({ waitingSinceMs: start, polls }, start, wait) - start);
    expect(pauses).toEqual([2_000, 4_000, 8_000, 16_000, POLL_DELAY_MAX_MS, POLL_DELAY_MAX_MS]);
  });

  it('given a poll close to the deadline, when scheduled, then the next look is at the deadline, not after it', () => {
    const now = start + wait.waitMs - 500;
    expect(nextPollAtMs({ waitingSinceMs: start, polls: 9 }, now, wait)).toBe(deadlineMs({ waitingSinceMs: start, polls: 9 }, wait));
  });

  it('given the deadline, when checked, then the wait is over exactly from it on', () => {
    const progress = { waitingSinceMs: start, polls: 3 };
    expect(waitIsOver(progress, start + wait.waitMs - 1, wait)).toBe(false);
    expect(waitIsOver(progress, start + wait.waitMs, wait)).toBe(true);
  });

  it('given the longest allowed wait, when polled at the ceiling, then it needs fewer looks than the poll guard allows', () => {
    expect(Math.ceil(WAIT_MAX_MS / POLL_DELAY_MAX_MS) + 10).toBeLessThan(POLLS_MAX);
  });

  it('given a clock that stands still, when polled too often, then the poll guard ends the wait', () => {
    expect(waitIsOver({ waitingSinceMs: start, polls: POLLS_MAX }, start, wait)).toBe(true);
  });

  it('given a huge poll count, when scheduled, then the pause stays finite and at the ceiling', () => {
    expect(nextPollAtMs({ waitingSinceMs: start, polls: 5_000 }, start, wait) - start).toBe(POLL_DELAY_MAX_MS);
  });

  it.each([
    [{ waitMs: -1, pollIntervalMs: 1_000 }],
    [{ waitMs: 1.5, pollIntervalMs: 1_000 }],
    [{ waitMs: WAIT_MAX_MS + 1, pollIntervalMs: 1_000 }],
    [{ waitMs: 1_000, pollIntervalMs: 0 }],
    [{ waitMs: 1_000, pollIntervalMs: POLL_DELAY_MAX_MS + 1 }],
  ])('given %j, when checked, then it is refused', (candidate) => {
    expect(() => checkedWait(candidate, 'test')).toThrow(RangeError);
  });

  it('given sane settings, when checked, then they pass unchanged', () => {
    expect(checkedWait(wait, 'test')).toEqual(wait);
  });
});
