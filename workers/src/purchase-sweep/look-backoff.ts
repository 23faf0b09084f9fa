/**
 * How often the sweep asks PayPal about one order awaiting its capture. Most such orders are
 * abandoned checkouts; asking about each on every sweep for PayPal's 3-day window would spend
 * PayPal's rate limit on nothing. So the pause between looks at one order doubles, from one sweep
 * interval up to an hour. In memory: a restart only makes the next look come sooner, and entries
 * of orders that left the open set are forgotten on each sweep, so the map stays bounded by it.
 */
export const LOOK_PAUSE_MAX_MS = 3_600_000;

export class LookBackoff {
  readonly #next = new Map<string, { atMs: number; looks: number }>();

  constructor(private readonly firstPauseMs: number) {
    if (!Number.isInteger(firstPauseMs) || firstPauseMs < 1) throw new RangeError('firstPauseMs must be a positive integer');
  }

  get size(): number {
    return this.#next.size;
  }

  /** True when the order has never been looked at, or its pause is over. */
  isDue(orderId: string, nowMs: number): boolean {
    const entry = this.#next.get(orderId);
    return entry === undefined || nowMs >= entry.atMs;
  }

  /** Records a look that left the order open: the next one waits twice as long as the last (bounded). */
  looked(orderId: string, nowMs: number): void {
    const looks = (this.#next.get(orderId)?.looks ?? 0) + 1;
    const pauseMs = Math.min(LOOK_PAUSE_MAX_MS, this.firstPauseMs * 2 ** Math.min(looks - 1, 30));
    this.#next.set(orderId, { atMs: nowMs + pauseMs, looks });
  }

  /** Forgets every order not in `open` (captured, credited, or out of the window). */
  keepOnly(open: ReadonlySet<string>): void {
    for (const orderId of this.#next.keys()) if (!open.has(orderId)) this.#next.delete(orderId);
  }
}
