/**
 * The payments CSV export (ADR 034) over 100,000 payments: rows per second and how much the heap
 * and RSS grew while exporting, into a destination that drains like a socket (asynchronously),
 * so backpressure is exercised. Seeds a private Redis through the projection's own apply code.
 * Not a test: numbers on shared machines are noisy; what matters is that growth stays flat as
 * the number of rows grows (try ROWS=200000).
 * Run: node --expose-gc --import tsx bench/export.ts
 */
import { Writable } from 'node:stream';
import type { RecordedEvent } from '@quern/core';
import { merchantPaymentsProjection } from '@quern/projections';
import { startPrivateRedis } from '@quern/test-support/redis';
import { Redis } from 'ioredis';
import { writePaymentsCsv } from '@quern/api';

const ROWS = Number(process.env.ROWS ?? 100_000);
const MERCHANT = 'bench-merchant';
const T0 = Date.parse('2025-01-01T00:00:00.000Z');

const paid = (i: number): RecordedEvent => ({
  id: `bench-${i}`,
  streamId: 'bench',
  revision: 0n,
  position: BigInt(i + 1),
  type: 'CheckoutPaid',
  data: {
    orderId: `${i.toString(16).padStart(32, '0')}-1`,
    shopperUserId: `shopper-${i % 100}`,
    merchantUserId: MERCHANT,
    mlx: String(1_000 + i),
    cartDigest: 'b'.repeat(64),
    usdPerMlx: '0.0000125',
    transferId: `checkout-${i}`,
    paidAt: new Date(T0 + i * 300_000).toISOString(),
  },
  metadata: {},
  recordedAt: new Date(T0).toISOString(),
});

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const server = await startPrivateRedis();
  const redis = new Redis(server.url);
  try {
    for (let first = 0; first < ROWS; first += 5_000) {
      const tx = redis.multi();
      for (let i = first; i < Math.min(ROWS, first + 5_000); i++) merchantPaymentsProjection.apply(paid(i), tx);
      await tx.exec();
    }
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const rssBefore = process.memoryUsage().rss;
    let heapPeak = heapBefore;
    let rssPeak = rssBefore;
    let bytes = 0;
    let chunks = 0;
    // Drains on the next turn, as a socket does; samples memory on every chunk.
    const out = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        // Every 20th chunk, collect first (with --expose-gc): the live heap is what must stay
        // flat; uncollected garbage only says when V8 chose to collect.
        if (++chunks % 20 === 0) gc();
        const usage = process.memoryUsage();
        heapPeak = Math.max(heapPeak, usage.heapUsed);
        rssPeak = Math.max(rssPeak, usage.rss);
        setImmediate(done);
      },
    });
    const started = performance.now();
    const rows = await writePaymentsCsv(redis, out, { merchantUserId: MERCHANT, fromMs: 0, toMs: Date.parse('2100-01-01T00:00:00Z') });
    const seconds = (performance.now() - started) / 1000;
    console.log(`rows exported      ${rows} (${mb(bytes)} of CSV)`);
    console.log(`rows per second    ${Math.round(rows / seconds)}`);
    console.log(`peak heap growth   ${mb(heapPeak - heapBefore)} (sampled after a collection every 20 chunks)`);
    console.log(`peak RSS growth    ${mb(rssPeak - rssBefore)}`);
  } finally {
    redis.disconnect();
    await server.stop();
  }
}

await main();
