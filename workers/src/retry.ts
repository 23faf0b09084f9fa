/** Bounded exponential backoff for the dispatcher's loop (BullMQ retries the jobs themselves). */

export interface RetryPolicy {
  /** Failures in a row before the dispatcher stops and reports the error. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** About three minutes of retrying: rides out a Redis restart, then stops visibly. */
export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 12, baseDelayMs: 200, maxDelayMs: 30_000 };

export function backoffDelayMs(failedAttempt: number, policy: RetryPolicy): number {
  if (!Number.isInteger(failedAttempt) || failedAttempt < 1) throw new Error(`Invalid attempt number ${failedAttempt}`);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(failedAttempt - 1, 30));
}

/** Waits, returning early (without throwing) when the signal aborts, so close() is prompt. */
export function sleep(delayMs: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, delayMs);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** True when the promise settles within the time, false otherwise (it is left running). */
export async function settlesWithin(promise: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const settled = promise.then(
    () => true as const,
    () => true as const,
  );
  const result = await Promise.race([settled, timeout]);
  clearTimeout(timer);
  return result;
}
