/**
 * What `as_of` names (ADR 089): a moment of the log, either a cursor (a log position, written as
 * decimal digits, the events feed's cursor) or an instant (an ISO 8601 date-time with a zone). A
 * cursor includes the event at that position; an instant includes every event whose own time is
 * at or before it. Pure: the caller says what "now" is.
 */
import { AppError } from '../shared/errors.js';

export type AsOf = { kind: 'position'; position: bigint } | { kind: 'time'; ms: number };

/** A position fits a signed 64-bit integer (SQLite's rowid, KurrentDB's commit position). */
const POSITION_MAX = 2n ** 63n - 1n;
const CURSOR = /^(0|[1-9][0-9]{0,18})$/;
/** An ISO 8601 date-time with a zone: `2026-03-01T12:00:00Z`, `2026-03-01T12:00:00.250+02:00`. */
const DATE_TIME = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(:([0-9]{2})(\.[0-9]{1,3})?)?(Z|[+-][0-9]{2}:[0-9]{2})$/;
/** A UTC day, as the day fields and snapshot keys write it. */
const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
export const DAY_MS = 86_400_000;

/** The moment `text` names, or undefined when it names none (the message says what is accepted). */
export function parseAsOf(text: string): AsOf | undefined {
  if (CURSOR.test(text)) {
    const position = BigInt(text);
    return position <= POSITION_MAX ? { kind: 'position', position } : undefined;
  }
  const parts = DATE_TIME.exec(text);
  if (!parts) return undefined;
  const hour = Number(parts[4]);
  const minute = Number(parts[5]);
  const second = Number(parts[7] ?? '0');
  // Date.parse rolls 2026-02-31 over to March and accepts hour 24; a moment is named exactly or refused.
  if (endOfDayMs(text.slice(0, 10)) === undefined || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) || ms < 0 ? undefined : { kind: 'time', ms };
}

/** The moment as_of names, or a 400 that says what as_of accepts. */
export function requireAsOf(text: string): AsOf {
  const asOf = parseAsOf(text);
  if (!asOf) throw new AppError('VALIDATION', 'errors:asOfInvalid', { as_of: 'errors:asOfInvalid' });
  return asOf;
}

/** An instant after now cannot be answered yet: refused rather than answered with the present. */
export function refuseFutureTime(asOf: AsOf, nowMs: number): void {
  if (asOf.kind === 'time' && asOf.ms > nowMs) throw new AppError('VALIDATION', 'errors:asOfInFuture', { as_of: 'errors:asOfInFuture' });
}

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Days since 1970-01-01 (UTC): the score that orders a wallet's day snapshots. */
export const epochDayOf = (ms: number): number => Math.floor(ms / DAY_MS);

/** The last millisecond of a UTC day, or undefined when `day` is not a real `YYYY-MM-DD` day. */
export function endOfDayMs(day: string): number | undefined {
  if (!DAY.test(day)) return undefined;
  const start = Date.parse(`${day}T00:00:00.000Z`);
  if (Number.isNaN(start) || dayOf(start) !== day) return undefined;
  return start + DAY_MS - 1;
}

/**
 * Whether an event lies after the moment: by log position for a cursor, by the event's own time
 * for an instant (a time the event does not state, or cannot be read, is after every moment).
 */
export function isAfter(asOf: AsOf, position: bigint, eventTime: string | undefined): boolean {
  if (asOf.kind === 'position') return position > asOf.position;
  const ms = eventTime === undefined ? Number.NaN : Date.parse(eventTime);
  return Number.isNaN(ms) || ms > asOf.ms;
}
