// Proves a statement streams in bounded memory (ADR 090) over a real SQLite log of 5,000 movements: into a destination that stops taking bytes, the JSON, CSV and PDF builders stop reading the log after a page or two and hold little unsent; when the destination is destroyed midway the build rejects instead of waiting forever; and a page size smaller than the month gives the same statement, byte for byte, as one page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { EventStore, NewEvent } from '@quern/core';
import { openRawEventStore } from '@quern/adapters/eventstore';
import { statementMonthOf } from '@quern/core/statements';
import { walletStream } from '@quern/core/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStatement, type StatementRenderer } from './build.js';
import { csvRenderer } from './render-csv.js';
import { jsonRenderer } from './render-json.js';
import { pdfRenderer } from './render-pdf.js';
import { statementSigner } from './signing-key.js';
import { statementTexts } from './texts.js';

const ROWS = 5_000;
const MERCHANT = 'stream-merchant';
const MONTH = statementMonthOf('2025-03');
let dir: string;
let store: EventStore;
/** Events the builder has read from the log so far. */
let eventsRead = 0;

const counting = (inner: EventStore): EventStore => ({
  ...inner,
  async readStream(streamId, options) {
    const events = await inner.readStream(streamId, options);
    eventsRead += events.length;
    return events;
  },
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quern-statement-stream-'));
  const raw = openRawEventStore({ dataDir: dir });
  await raw.append(
    walletStream(MERCHANT),
    [
      {
        type: 'WalletOpened',
        data: { walletId: MERCHANT, kind: 'user', address: '1M', openedAt: new Date(MONTH.startMs - 1000).toISOString() },
      },
    ],
    'no_stream',
  );
  let balance = 0n;
  for (let first = 0; first < ROWS; first += 1000) {
    const events: NewEvent[] = [];
    for (let i = first; i < first + 1000; i++) {
      balance += BigInt(1000 + i);
      events.push({
        type: 'TransferCredited',
        data: {
          walletId: MERCHANT,
          transferId: `t-${i}`,
          fromWalletId: `shopper-${i % 10}`,
          fromAddress: `1Shopper${i % 10}`,
          toAddress: '1M',
          amountMlx: String(1000 + i),
          creditedAt: new Date(MONTH.startMs + i * 60_000).toISOString(),
          balanceAfter: { postedMlx: balance.toString(), heldMlx: '0', pendingCreditMlx: '0' },
        },
      });
    }
    await raw.append(walletStream(MERCHANT), events, 'any');
  }
  store = counting(raw);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const signer = statementSigner(Buffer.alloc(32, 3));
const texts = statementTexts('en');
const renderers: Record<string, (out: Writable) => StatementRenderer> = {
  json: (out) => jsonRenderer(out, false),
  csv: (out) => csvRenderer(out, texts),
  pdf: (out) => pdfRenderer(out, texts, 'en', MONTH),
};
const build = (out: Writable, format: string, pageSize?: number) =>
  buildStatement(
    { store, signer, counterpartyName: async (row) => row.counterparty_wallet, pageSize },
    { merchantId: MERCHANT, month: MONTH, status: 'closed' },
    renderers[format]!(out),
  );
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe.each(['json', 'csv', 'pdf'])('a %s statement', (format) => {
  it('given a destination that stops taking bytes, then the builder stops reading the log and holds at most a few hundred KB unsent', async () => {
    const waiting: Array<() => void> = [];
    const out = new Writable({ highWaterMark: 16 * 1024, write: (_chunk, _encoding, done) => waiting.push(done) });
    eventsRead = 0;
    const built = build(out, format, 200);
    await turns(200);
    // A PDF page leaves pdfkit only when the next begins, compressed to a few KB: more rows fit in
    // the same bytes held, but the read still stops far before the month's end.
    expect(eventsRead).toBeLessThan(format === 'pdf' ? 2500 : 1000);
    expect(out.writableLength).toBeLessThan(512 * 1024);
    out.destroy();
    await expect(built).rejects.toThrow();
  });

  it('given a page smaller than the month, then the statement is the same bytes as read in one page', async () => {
    const collect = async (pageSize: number) => {
      const chunks: Buffer[] = [];
      const out = new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          chunks.push(chunk);
          done();
        },
      });
      await build(out, format, pageSize);
      if (format !== 'pdf') out.end();
      return Buffer.concat(chunks);
    };
    const small = await collect(300);
    expect(small.equals(await collect(ROWS + 10))).toBe(true);
    if (format === 'json') expect(JSON.parse(small.toString('utf8')).rows).toHaveLength(ROWS);
  });
});
