/**
 * The retry rule every adapter applies (port: EventStore.append; ADR 018), kept in one place so
 * that SQLite and KurrentDB judge the same append the same way. An adapter looks up which ids
 * are recorded where each stream append would put its events, and these functions decide.
 */
import { DuplicateEventIdError, type ExpectedRevision } from '@quern/core';

/** How much of one stream append is already recorded at the places it would take. */
export type Recorded = 'all' | 'some' | 'none';

/**
 * `found[i]` is the id recorded at the revision `ids[i]` would get (undefined when that revision
 * does not exist yet).
 */
export function compareIds(ids: readonly string[], found: readonly (string | undefined)[]): Recorded {
  const matches = ids.filter((id, i) => found[i] === id).length;
  if (matches === 0) return 'none';
  return matches === ids.length ? 'all' : 'some';
}

/**
 * The revisions a retry of this append would find its events at, or undefined when there is
 * nothing to look at: for an exact revision r (or 'no_stream', r = -1) the n revisions after r,
 * once the stream has moved past r; for 'any', the stream's last n revisions.
 */
export function retryWindow(
  expected: ExpectedRevision,
  count: number,
  current: bigint | undefined,
): { from: bigint; to: bigint } | undefined {
  if (current === undefined) return undefined;
  const n = BigInt(count);
  if (expected === 'any') return current + 1n >= n ? { from: current - n + 1n, to: current } : undefined;
  const base = expected === 'no_stream' ? -1n : expected;
  return current > base ? { from: base + 1n, to: base + n } : undefined;
}

/**
 * The verdict on a whole call (one or more stream appends): 'recorded' when every stream is
 * already recorded (a true retry: answer with the original results), 'fresh' when none is
 * (append, checking expected revisions as usual); anything in between is not a retry of what
 * was recorded, and is refused.
 */
export function judgeRetry(recorded: readonly { streamId: string; recorded: Recorded }[]): 'recorded' | 'fresh' {
  if (recorded.every((r) => r.recorded === 'all')) return 'recorded';
  const mixed = recorded.find((r) => r.recorded !== 'none');
  if (!mixed) return 'fresh';
  const detail =
    mixed.recorded === 'some'
      ? 'only some event ids of this append are recorded where it would put them; it is not a retry of the recorded append'
      : 'this stream already holds these events but other streams of the same call do not; it is not a retry of the recorded append';
  throw new DuplicateEventIdError(mixed.streamId, detail);
}
