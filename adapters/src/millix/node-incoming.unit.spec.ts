// Proves the node adapter's incoming cursor: it round-trips, refuses text it did not write,
// pages oldest first without passing an undelivered output, still finds outputs dated inside the
// look-back window, and stays bounded when a window holds more outputs than it remembers.
import { describe, expect, it } from 'vitest';
import { cHash288 } from './chash.js';
import {
  decodeCursor,
  encodeCursor,
  INCOMING_LOOKBACK_SECONDS,
  keyOf,
  type NodeIncomingCursor,
  queryFor,
  SEEN_KEYS_MAX,
  selectPage,
} from './node-incoming.js';
import type { OutputRow } from './node-protocol.js';

const row = (n: number, dateSeconds: number, outputPosition = 0): OutputRow => ({
  transaction_id: cHash288(`tx-${n}`),
  shard_id: 'shard',
  output_position: outputPosition,
  address: `address-${n}`,
  amount: n,
  transaction_date: dateSeconds,
});
const start: NodeIncomingCursor = { watermarkSeconds: 0, floorSeconds: 0, seenKeys: [] };
const T = 1_800_000_000;

describe('node incoming cursor', () => {
  it('round-trips and starts empty', () => {
    expect(decodeCursor(undefined)).toEqual(start);
    const cursor = { watermarkSeconds: T, floorSeconds: T - 10, seenKeys: [keyOf(row(1, T)), keyOf(row(2, T, -1))] };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it('refuses text it did not write', () => {
    const bad = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');
    for (const text of [
      'not a cursor',
      '',
      bad({ w: -1, f: 0, k: [] }),
      bad({ w: 5, f: 6, k: [] }),
      bad({ w: 5, f: 0, k: ['x'] }),
      bad([]),
      'e30',
    ]) {
      expect(() => decodeCursor(text)).toThrow(RangeError);
    }
  });

  it('asks from the start first, then from the watermark minus the look-back, never below the floor', () => {
    expect(queryFor(start, 10)).toEqual({ dateBeginSeconds: undefined, fetchLimit: 10 });
    const cursor = { watermarkSeconds: T, floorSeconds: 0, seenKeys: [keyOf(row(1, T)), keyOf(row(2, T))] };
    expect(queryFor(cursor, 10)).toEqual({ dateBeginSeconds: T - INCOMING_LOOKBACK_SECONDS, fetchLimit: 12 });
    expect(queryFor({ ...cursor, floorSeconds: T - 5 }, 10).dateBeginSeconds).toBe(T - 5);
  });
});

describe('selectPage', () => {
  it('takes the oldest unseen rows and moves the watermark to the newest taken', () => {
    const rows = [row(3, T + 3), row(1, T + 1), row(2, T + 2)];
    const first = selectPage(start, rows, 2);
    expect(first.page.map((r) => r.amount)).toEqual([1, 2]);
    expect(first.next.watermarkSeconds).toBe(T + 2);
    const second = selectPage(first.next, rows, 2);
    expect(second.page.map((r) => r.amount)).toEqual([3]);
    expect(selectPage(second.next, rows, 2).page).toEqual([]);
  });

  it('delivers a row dated before the watermark but inside the window, once', () => {
    const first = selectPage(start, [row(1, T)], 10);
    const late = row(2, T - 60);
    const second = selectPage(first.next, [late, row(1, T)], 10);
    expect(second.page).toEqual([late]);
    expect(second.next.watermarkSeconds).toBe(T);
    expect(selectPage(second.next, [late, row(1, T)], 10).page).toEqual([]);
  });

  it('forgets keys that leave the window', () => {
    const first = selectPage(start, [row(1, T)], 10);
    const later = selectPage(first.next, [row(2, T + INCOMING_LOOKBACK_SECONDS + 1)], 10);
    expect(later.next.seenKeys).toEqual([keyOf(row(2, T + INCOMING_LOOKBACK_SECONDS + 1))]);
  });

  it('keeps at most SEEN_KEYS_MAX keys by dropping whole old seconds and raising the floor past them', () => {
    const rows = Array.from({ length: SEEN_KEYS_MAX + 50 }, (_, n) => row(n, T + Math.floor(n / 10)));
    const { page, next } = selectPage(start, rows, 1000);
    expect(page).toHaveLength(rows.length);
    expect(next.seenKeys.length).toBeLessThanOrEqual(SEEN_KEYS_MAX);
    expect(next.floorSeconds).toBe(T + 5);
    // Nothing older than the floor is delivered again.
    expect(selectPage(next, rows, 1000).page).toEqual([]);
  });
});
