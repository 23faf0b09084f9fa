/**
 * Bounded exponential backoff for the long-running consumers (projection runner, job dispatcher,
 * deposit watcher): how long to wait before retry n, and when to stop and report. Pure; the
 * waiting itself (timers) lives with the consumers.
 */

export interface RetryPolicy {
  /** Failures in a row before the consumer stops and reports the error. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** About three minutes of retrying: long enough to ride out a Redis restart, short enough to be seen. */
export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 12, baseDelayMs: 200, maxDelayMs: 30_000 };

/** Delay before retrying after the given failed attempt (1-based): base, 2x, 4x, ... up to the max. */
export function backoffDelayMs(failedAttempt: number, policy: RetryPolicy): number {
  if (!Number.isInteger(failedAttempt) || failedAttempt < 1) throw new Error(`Invalid attempt number ${failedAttempt}`);
  // The exponent is capped so the multiplication cannot overflow to Infinity.
  const exponent = Math.min(failedAttempt - 1, 30);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
}

/**
 * The failures in a row of one long-running loop. Pure bookkeeping: `fail()` counts one and says
 * how long to back off, or `undefined` when the policy's limit is reached and the loop must stop
 * and report; any success resets the streak.
 */
export class FailureStreak {
  #count = 0;
  constructor(readonly policy: RetryPolicy = defaultRetryPolicy) {}

  get count(): number {
    return this.#count;
  }

  reset(): void {
    this.#count = 0;
  }

  fail(): number | undefined {
    this.#count += 1;
    return this.#count >= this.policy.maxAttempts ? undefined : backoffDelayMs(this.#count, this.policy);
  }
}
