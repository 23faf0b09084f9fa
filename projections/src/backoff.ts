/** Backoff for the projection runner: the policy is shared (core), the waiting is here. */
export { backoffDelayMs, defaultRetryPolicy, type RetryPolicy } from '@quern/core';

/** Waits, but returns early (without throwing) when the signal aborts, so close() is prompt. */
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
