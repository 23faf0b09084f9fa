/**
 * The node adapter's incoming feed: resumable paging over list_transaction_output, which can
 * only filter by `transaction_date >= p1` (whole seconds) and sort by it; the node has no
 * monotonic row id to page by. Pure: the adapter does the HTTP calls.
 *
 * The cursor is a watermark (the newest transaction_date delivered) plus the keys of the outputs
 * already delivered within a look-back window before it. Each poll asks from watermark −
 * look-back, so that outputs the node learns of late (a transaction signed elsewhere reaches
 * this node seconds later, with an older transaction_date) are still found, and drops the keys
 * it has already delivered. When more than SEEN_KEYS_MAX outputs fall in one window, the oldest
 * whole seconds of keys are forgotten and a floor stops the window from reaching back into
 * them, so a busy window narrows instead of delivering the same outputs again and again.
 * Outputs that reach the node after the window has passed their transaction_date are missed
 * by polling; the node's notification (node-protocol.ts) covers them.
 */
import type { OutputRow } from './node-protocol.js';
import { INCOMING_PAGE_SIZE_MAX } from './port.js';

export const INCOMING_LOOKBACK_SECONDS = 300;
/** Bounds the cursor (about 60 bytes a key) and the extra rows fetched per poll. */
export const SEEN_KEYS_MAX = 200;
/** One second holding more outputs than SEEN_KEYS_MAX is kept whole; a page bounds it. */
const SEEN_KEYS_HARD_MAX = SEEN_KEYS_MAX + INCOMING_PAGE_SIZE_MAX;
const CURSOR_TEXT_LENGTH_MAX = 200_000;
const KEY_PATTERN = /^(0|[1-9][0-9]{0,11}):[A-Za-z0-9]{1,128}:-?(0|[1-9][0-9]{0,4})$/;

export interface NodeIncomingCursor {
  /** Watermark: the newest transaction_date (Unix seconds) delivered; 0 before the first. */
  watermarkSeconds: number;
  /** Never look back before this second (its older keys were forgotten); 0 when unset. */
  floorSeconds: number;
  /** `<transaction_date>:<transaction_id>:<output_position>` of outputs delivered in the window. */
  seenKeys: string[];
}

export const keyOf = (row: Pick<OutputRow, 'transaction_date' | 'transaction_id' | 'output_position'>): string =>
  `${row.transaction_date}:${row.transaction_id}:${row.output_position}`;
const dateOfKey = (key: string): number => Number(key.slice(0, key.indexOf(':')));

export function encodeCursor(cursor: NodeIncomingCursor): string {
  const json = { w: cursor.watermarkSeconds, f: cursor.floorSeconds, k: cursor.seenKeys };
  return Buffer.from(JSON.stringify(json), 'utf8').toString('base64url');
}

/** Reads a cursor this module wrote; anything else is a caller bug (RangeError). */
export function decodeCursor(text: string | undefined): NodeIncomingCursor {
  if (text === undefined) return { watermarkSeconds: 0, floorSeconds: 0, seenKeys: [] };
  const invalid = () => new RangeError('incomingSince: not a millix-node cursor');
  if (typeof text !== 'string' || text.length > CURSOR_TEXT_LENGTH_MAX || !/^[A-Za-z0-9_-]*$/.test(text)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { w, f, k } = (parsed ?? {}) as { w?: unknown; f?: unknown; k?: unknown };
  const seconds = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
  if (!seconds(w) || !seconds(f) || f > w) throw invalid();
  if (!Array.isArray(k) || k.length > SEEN_KEYS_HARD_MAX || !k.every((key) => typeof key === 'string' && KEY_PATTERN.test(key)))
    throw invalid();
  return { watermarkSeconds: w, floorSeconds: f, seenKeys: k as string[] };
}

/** What to ask the node for: rows from `dateBeginSeconds` (all when undefined), at most `fetchLimit`. */
export function queryFor(cursor: NodeIncomingCursor, limit: number): { dateBeginSeconds: number | undefined; fetchLimit: number } {
  const begin = Math.max(cursor.watermarkSeconds - INCOMING_LOOKBACK_SECONDS, cursor.floorSeconds);
  // Fetching limit + |seen| rows guarantees `limit` unseen ones when they exist: at most |seen|
  // of the rows returned can be ones already delivered.
  return { dateBeginSeconds: cursor.watermarkSeconds > 0 ? Math.max(begin, 0) : undefined, fetchLimit: limit + cursor.seenKeys.length };
}

/**
 * Chooses the page among the rows the node returned (sorted by transaction_date, any order
 * within a second) and the cursor after it. Rows are taken oldest first, so a row newer than
 * the ones left behind is never taken before them: the watermark cannot pass an undelivered row.
 */
export function selectPage(cursor: NodeIncomingCursor, rows: OutputRow[], limit: number): { page: OutputRow[]; next: NodeIncomingCursor } {
  const seen = new Set(cursor.seenKeys);
  const fresh = rows
    .filter((row) => row.transaction_date >= cursor.floorSeconds && !seen.has(keyOf(row)))
    .sort((a, b) => a.transaction_date - b.transaction_date || keyOf(a).localeCompare(keyOf(b)));
  const page = fresh.slice(0, limit);
  const watermarkSeconds = page.reduce((newest, row) => Math.max(newest, row.transaction_date), cursor.watermarkSeconds);
  const windowStart = Math.max(watermarkSeconds - INCOMING_LOOKBACK_SECONDS, cursor.floorSeconds);
  let seenKeys = [...cursor.seenKeys, ...page.map(keyOf)]
    .filter((key) => dateOfKey(key) >= windowStart)
    .sort((a, b) => dateOfKey(a) - dateOfKey(b));
  let floorSeconds = cursor.floorSeconds;
  // Forget whole seconds, oldest first, and raise the floor past them.
  while (seenKeys.length > SEEN_KEYS_MAX) {
    const oldest = dateOfKey(seenKeys[0] as string);
    const rest = seenKeys.filter((key) => dateOfKey(key) > oldest);
    if (rest.length === 0) break;
    seenKeys = rest;
    floorSeconds = dateOfKey(rest[0] as string);
  }
  return { page, next: { watermarkSeconds, floorSeconds, seenKeys } };
}
