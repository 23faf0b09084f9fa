/**
 * Key names of the wallet day snapshots (ADR 089), under rm: so a rebuild finds and rebuilds them.
 * They are a cache of the log: deleting any of them changes how much of the log an `as_of` read
 * folds, never its answer.
 */

/** Hash: UTC day `YYYY-MM-DD` -> the wallet at the end of that day, as JSON (StoredDayEnd). */
export const walletDayEndsKey = (walletId: string): string => `rm:wallet-day-ends:${walletId}`;
/** Sorted set: day -> days since 1970-01-01, to find the last day before an instant's day. */
export const walletDaysByDayKey = (walletId: string): string => `rm:wallet-days-by-day:${walletId}`;
/** Sorted set: day -> log position of its last event, to find the last day ended at or before a cursor. */
export const walletDaysByPositionKey = (walletId: string): string => `rm:wallet-days-by-position:${walletId}`;

/** A wallet at the end of a day: its stream's revision and the log position of that day's last event, and its balance. */
export interface StoredDayEnd {
  revision: string;
  position: string;
  posted: string;
  held: string;
  pending_credit: string;
}
