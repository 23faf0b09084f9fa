/**
 * The feed's cursor and the bounds of a replay. A cursor is a log position in decimal: the feed is
 * in log order, so "after position p" names exactly the events a client has not seen, whatever is
 * written meanwhile. A replay's bound is a cursor or a time (a UTC day or an ISO 8601 instant).
 */
import { exportBoundMs } from '../payments/contracts.js';

/** Positions are unsigned 64-bit integers at most (20 decimal digits), without leading zeros. */
export const FEED_CURSOR_PATTERN = /^(0|[1-9][0-9]{0,19})$/;
const POSITION_MAX = 2n ** 64n - 1n;

/** The position a cursor names, or undefined when the text is not one. */
export function parseFeedCursor(text: string): bigint | undefined {
  if (!FEED_CURSOR_PATTERN.test(text)) return undefined;
  const position = BigInt(text);
  return position <= POSITION_MAX ? position : undefined;
}

export type FeedBound = { kind: 'cursor'; position: bigint } | { kind: 'time'; ms: number };

/**
 * A replay's bound: a cursor, or a time. A `to` day means its whole day (up to its last
 * millisecond), a `from` day its start, as the payments export reads them.
 */
export function parseFeedBound(text: string, end: 'from' | 'to'): FeedBound | undefined {
  const position = parseFeedCursor(text);
  if (position !== undefined) return { kind: 'cursor', position };
  const ms = exportBoundMs(text, end);
  return Number.isNaN(ms) ? undefined : { kind: 'time', ms };
}

/** Whether `from` is after `to` when both are of one kind (a cursor and a time cannot be compared without the log). */
export function boundsReversed(from: FeedBound, to: FeedBound): boolean {
  if (from.kind === 'cursor' && to.kind === 'cursor') return from.position > to.position;
  if (from.kind === 'time' && to.kind === 'time') return from.ms > to.ms;
  return false;
}
