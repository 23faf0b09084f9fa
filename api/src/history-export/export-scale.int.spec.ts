// Proves the shopper's CSV export is bounded by its range and its destination, not by the wallet's
// history (ADR 091): over 20,000 rows seeded into a wallet's history, one day in the middle is read
// in a handful of pages (the binary search skips the rows before it) and comes out as exactly that
// day's rows; a destination that stops draining stops the reads after one page, and the export
// resumes to the end, every row once, when it drains.
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuern, type TestQuern } from '../../test/quern.js';
import { writeHistoryCsv } from './csv.js';

const ROWS = 20_000;
const MINUTE_MS = 60_000;
const T0 = Date.parse('2025-03-01T00:00:00.000Z');
const WALLET = 'scale-wallet';
/** Synthetic positions far above the test log's own. */
const POSITION_BASE = 1_000_000_000;

let quern: TestQuern;
let redis: Redis;

beforeAll(async () => {
  quern = await startTestQuern();
  redis = new Redis(quern.redisUrl);
  // One credit a minute, as the wallets projection stores a completed row (score = log position).
  for (let first = 0; first < ROWS; first += 5_000) {
    const tx = redis.multi();
    for (let i = first; i < first + 5_000; i++)
      tx.zadd(
        `rm:wallet:${WALLET}:history`,
        POSITION_BASE + i,
        JSON.stringify({
          transaction_hash: `seed-${i}`,
          transaction_type: 'credit',
          from_address: 'seed-address',
          to_address: 'wallet-address',
          amount: '10',
          balance: String(10 * (i + 1)),
          transaction_date: new Date(T0 + i * MINUTE_MS).toISOString(),
          to_wallet_id: WALLET,
        }),
      );
    await tx.exec();
  }
}, 120_000);
afterAll(async () => {
  redis?.disconnect();
  await quern?.stop();
});

/** Collects what is written; stalls every write until released when asked to. */
function destination({ stalled }: { stalled: boolean }) {
  let released = !stalled;
  const waiting: Array<() => void> = [];
  let text = '';
  const out = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      if (released) done();
      else waiting.push(done);
    },
  });
  return {
    out,
    lines: () => text.split('\r\n').filter((line) => line.length > 0),
    release() {
      released = true;
      for (const done of waiting.splice(0)) done();
    },
  };
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('the history export at scale', () => {
  it('given 20,000 rows, when one day in the middle is exported, then exactly its 1,440 rows, read in a few pages', async () => {
    const from = T0 + 10_000 * MINUTE_MS;
    const to = from + 1_440 * MINUTE_MS - 1;
    const out = destination({ stalled: false });
    let pages = 0;
    const rows = await writeHistoryCsv(redis, quern.store, out.out, {
      walletId: WALLET,
      fromMs: from,
      toMs: to,
      onPage: () => {
        pages += 1;
      },
    });
    expect(rows).toBe(1_440);
    const lines = out.lines();
    expect(lines).toHaveLength(1_441);
    expect(lines[1]?.split(',').slice(0, 2)).toEqual([new Date(from).toISOString(), 'seed-10000']);
    expect(lines.at(-1)?.split(',').slice(0, 2)).toEqual([new Date(to - MINUTE_MS + 1).toISOString(), 'seed-11439']);
    // The day's rows and the margin's hour either side: 1,560 rows are 4 pages of 500, where a
    // scan from the start would read 24.
    expect(pages).toBeLessThanOrEqual(5);
  });

  it('given a destination that stops draining, then the reads stop after one page and resume to the end when it drains', async () => {
    const out = destination({ stalled: true });
    let read = 0;
    let firstPageRead: () => void = () => undefined;
    const firstPage = new Promise<void>((resolve) => {
      firstPageRead = resolve;
    });
    const exported = writeHistoryCsv(redis, quern.store, out.out, {
      walletId: WALLET,
      fromMs: 0,
      toMs: Date.parse('2100-01-01T00:00:00Z'),
      pageSize: 400,
      onPage: (rows) => {
        read += rows;
        firstPageRead();
      },
    });
    await firstPage;
    await turns(200);
    expect(read).toBe(400);
    out.release();
    await expect(exported).resolves.toBe(ROWS);
    expect(read).toBe(ROWS);
    const ids = out
      .lines()
      .slice(1)
      .map((line) => line.split(',')[1]);
    expect(new Set(ids).size).toBe(ROWS);
    expect(ids[0]).toBe('seed-0');
    expect(ids.at(-1)).toBe(`seed-${ROWS - 1}`);
  }, 60_000);
});
