/**
 * Callers waiting for the runner to reach a log position (read-your-writes in the api). Each
 * waiter has a timeout and their number is capped, so a flood of requests cannot pile up memory.
 */

const MAX_WAITERS = 10_000;

interface Waiter {
  position: bigint;
  settle(reached: boolean): void;
}

export class PositionWaiters {
  private readonly waiters = new Set<Waiter>();

  /** Resolves true once resolveUpTo() reaches the position, false on timeout or close. */
  wait(position: bigint, current: bigint | undefined, timeoutMs: number): Promise<boolean> {
    if (current !== undefined && current >= position) return Promise.resolve(true);
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || this.waiters.size >= MAX_WAITERS) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        settle: (reached) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => waiter.settle(false), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  resolveUpTo(position: bigint): void {
    for (const waiter of this.waiters) if (waiter.position <= position) waiter.settle(true);
  }

  rejectAll(): void {
    for (const waiter of this.waiters) waiter.settle(false);
  }
}
