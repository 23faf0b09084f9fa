/**
 * The timing and logging helpers every long-running part shares (projection runner, dispatcher,
 * deposit watcher, workers): one sleep that close() can cut short, one bounded wait, one logger
 * (JSON lines, ./logger.ts). The retry policy itself is pure and lives in core (`backoffDelayMs`).
 */
import type { FailureStreak, Logger } from '@quern/core';
import { partLogger } from './logger.js';

export { isLoopbackHost } from './loopback.js';
export { isInsideFolder, temporaryFolderOf, temporaryFolders } from './temporary-folders.js';
export { createLogger, isLogLevel, type JsonLogger, LOG_LEVELS, type LogLevel, log, partLogger, REDACTED, scrubText } from './logger.js';

/** The process's logger behind the core Logger port: what every part logs with unless a test gives its own. */
export const processLogger: Logger = partLogger();

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

/**
 * After a failure of a long-running loop (projection runner, dispatcher, deposit watcher): counts
 * it, waits the backoff, and returns true to try again; returns false, having logged why, when the
 * streak reached its limit and the loop must stop (its status then reports the last error).
 */
export async function backOffAfterFailure(streak: FailureStreak, part: string, logger: Logger, signal: AbortSignal): Promise<boolean> {
  const delayMs = streak.fail();
  if (delayMs === undefined) {
    logger.error(`[${part}] stopping after ${streak.count} failed attempts in a row`);
    return false;
  }
  await sleep(delayMs, signal);
  return true;
}

export {
  type CommandRunner,
  type DebianPackage,
  ensureDebianPackage,
  type InstallOptions,
  type InstallPlan,
  MissingPackageError,
  planDebianPackage,
  shellRunner,
} from './debian-package.js';
