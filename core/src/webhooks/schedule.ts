/**
 * The retry schedule of a delivery, as data: the pause before each retry after a failed attempt.
 * The default sums to about three days (75 h 35 min 5 s), then the run gives up. Workers take it
 * as an option so tests can use milliseconds.
 */
const S = 1_000;
const MIN = 60 * S;
const H = 60 * MIN;

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  5 * S,
  5 * MIN,
  30 * MIN,
  2 * H,
  5 * H,
  10 * H,
  14 * H,
  20 * H,
  24 * H,
];

/** A receiver must answer 2xx within this to count as delivered. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10 * S;

/** Attempts a run makes at most: the first one and one per pause. */
export const attemptsOf = (schedule: readonly number[]): number => schedule.length + 1;

/**
 * When the attempt after `attemptsMade` failed ones is due, or undefined when the run is over
 * (all attempts used). `lastStartedMs` is when the last attempt started.
 */
export function nextAttemptDueMs(schedule: readonly number[], attemptsMade: number, lastStartedMs: number | undefined): number | undefined {
  if (attemptsMade === 0) return lastStartedMs ?? 0;
  if (attemptsMade > schedule.length) return undefined;
  const pauseMs = schedule[attemptsMade - 1] as number;
  return (lastStartedMs ?? 0) + pauseMs;
}

/** Checks an operator's or a test's schedule: 1 to 20 pauses of whole ms, at most a day each. */
export function checkedSchedule(schedule: readonly number[]): readonly number[] {
  if (schedule.length < 1 || schedule.length > 20) throw new RangeError('A webhook retry schedule has 1 to 20 pauses');
  for (const pauseMs of schedule)
    if (!Number.isInteger(pauseMs) || pauseMs < 0 || pauseMs > 24 * H)
      throw new RangeError('A webhook retry pause is 0 to 24 h, in whole ms');
  return schedule;
}
