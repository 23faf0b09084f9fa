// Proves the CSV export streams in bounded memory over 100,000 payments: seeded through the merchant-payments projection's own apply code in big batches, an export into a destination that stops draining stops reading Redis after one page and never holds more than two pages unwritten, and a full export over HTTP parses to exactly 100,000 data rows, in created order, with no duplicates; the shopper cell is made inert for spreadsheets.
import { Writable } from 'node:stream';
import type { RecordedEvent } from '@quern/core';
import { merchantPaymentsProjection } from '@quern/projections';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';
import { inertCell, writePaymentsCsv } from './csv-export.js';

const PAYMENTS = 100_000;
const SEED_BATCH = 5_000;
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
/** Synthetic positions far above the test log's own, so they never meet a real event's. */
const POSITION_BASE = 1_000_000_000n;

let quern: TestQuern;
let redis: Redis;
let merchantId: string;
let apiKey: string;

const orderOf = (i: number) => `${(0xe0000000 + i).toString(16).padStart(32, '0')}-1`;

/** Payment i, paid 5 minutes after payment i - 1: 100,000 of them span about a year. */
function paidEvent(i: number): RecordedEvent {
  const position = POSITION_BASE + BigInt(i);
  return {
    id: `seed-${i}`,
    streamId: `checkout-${orderOf(i).slice(0, 32)}`,
    revision: 0n,
    position,
    type: 'CheckoutPaid',
    data: {
      orderId: orderOf(i),
      shopperUserId: `shopper-${i % 7}`,
      merchantUserId: merchantId,
      mlx: String(1_000 + i),
      cartDigest: 'd'.repeat(64),
      ...(i % 2 === 0 ? { usdPerMlx: '0.0000125' } : {}),
      transferId: `checkout-${orderOf(i)}`,
      // Seeded newest first, so created order is not insertion order.
      paidAt: new Date(T0 + (PAYMENTS - 1 - i) * 300_000).toISOString(),
    },
    metadata: {},
    recordedAt: new Date(T0).toISOString(),
  };
}

async function seed(): Promise<void> {
  for (let first = 0; first < PAYMENTS; first += SEED_BATCH) {
    const tx = redis.multi();
    for (let i = first; i < first + SEED_BATCH; i++) merchantPaymentsProjection.apply(paidEvent(i), tx);
    const replies = await tx.exec();
    expect(replies?.every(([error]) => error === null)).toBe(true);
  }
}

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', API_KEY_REQUESTS_PER_MINUTE: '1000' });
  redis = new Redis(quern.redisUrl);
  const user = {
    userName: 'bulk_shop',
    firstName: 'B',
    lastName: 'S',
    email: 'bulk@example.com',
    phone: '+15553000001',
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  merchantId = login.body.id as string;
  apiKey = (await quern.call('POST', '/api/direct/key-generate', { cookie: cookieOf(login.setCookie) })).body.content.api_key as string;
  await seed();
}, 120_000);
afterAll(async () => {
  redis?.disconnect();
  await quern?.stop();
});

/** A destination that acknowledges nothing until released: what a client that stops reading looks like. */
function stalledDestination() {
  let released = false;
  const waiting: Array<() => void> = [];
  let rowsWritten = 0;
  const out = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      rowsWritten += chunk.toString('utf8').split('\r\n').length - 1;
      if (released) done();
      else waiting.push(done);
    },
  });
  return {
    out,
    rowsWritten: () => rowsWritten,
    writes: () => waiting.length,
    release() {
      released = true;
      for (const done of waiting.splice(0)) done();
    },
  };
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('the payments CSV export', () => {
  it('given a destination that stops draining, then the exporter stops reading Redis after one page, and resumes to the end when it drains', async () => {
    const pageSize = 200;
    const destination = stalledDestination();
    let rowsRead = 0;
    let aheadMax = 0;
    let firstPageRead: () => void = () => undefined;
    const firstPage = new Promise<void>((resolve) => {
      firstPageRead = resolve;
    });
    const exported = writePaymentsCsv(redis, destination.out, {
      merchantUserId: merchantId,
      fromMs: 0,
      toMs: Date.parse('2100-01-01T00:00:00Z'),
      pageSize,
      onPage: (rows) => {
        rowsRead += rows;
        aheadMax = Math.max(aheadMax, rowsRead - destination.rowsWritten());
        firstPageRead();
      },
    });
    // The header goes to the stalled destination, then the first page; a page of rows is past the
    // high-water mark, so the exporter waits for 'drain' instead of reading on.
    await firstPage;
    await turns(200);
    expect(rowsRead).toBe(pageSize);
    expect(destination.writes()).toBe(1);
    await turns(200);
    expect(rowsRead).toBe(pageSize);

    destination.release();
    await expect(exported).resolves.toBe(PAYMENTS);
    expect(rowsRead).toBe(PAYMENTS);
    // Never more than a page read beyond what the destination accepted.
    expect(aheadMax).toBeLessThanOrEqual(pageSize);
  }, 120_000);

  it('given 100,000 payments, when exported over HTTP, then exactly 100,000 rows in created order and no duplicates', async () => {
    const answer = await fetch(`${quern.url}/api/v1/payments/export?from=2024-12-31&to=2026-12-31`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(answer.status).toBe(200);
    const lines = (await answer.text()).split('\r\n');
    expect(lines[0]).toBe('order,created,amount,refunded,currency,usd_rate,usd_value,shopper');
    expect(lines.pop()).toBe('');
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows).toHaveLength(PAYMENTS);
    expect(new Set(rows.map((r) => r[0])).size).toBe(PAYMENTS);
    // Seeded newest first: created order is the reverse of the seed order.
    expect(rows[0]?.[0]).toBe(orderOf(PAYMENTS - 1));
    expect(rows[PAYMENTS - 1]?.[0]).toBe(orderOf(0));
    const created = rows.map((r) => r[1] as string);
    expect(created.every((c, i) => i === 0 || (created[i - 1] as string) < c)).toBe(true);
    expect(rows[PAYMENTS - 1]).toEqual([orderOf(0), created[PAYMENTS - 1], '1000', '0', 'MLX', '0.0000125', '0.01', '']);
  }, 120_000);

  it('makes a shopper cell inert when a spreadsheet would run it as a formula', () => {
    for (const cell of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1']) expect(inertCell(cell)).toBe(`'${cell}`);
    for (const cell of ['alice', '', "'quoted", '1-2']) expect(inertCell(cell)).toBe(cell);
  });
});
