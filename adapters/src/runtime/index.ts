/**
 * The timing and logging helpers every long-running part shares (projection runner, dispatcher,
 * deposit watcher, workers): one sleep that close() can cut short, one bounded wait, one console
 * logger. The retry policy itself is pure and lives in core (`backoffDelayMs`).
 */
import type { Logger } from '@quern/core';

export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  error: (message) => console.error(message),
};

/** Waits, returning early (without throwing) when the signal aborts, so close() is prompt. */
export function sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, delayMs);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
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
