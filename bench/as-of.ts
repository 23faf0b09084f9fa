/**
 * `as_of` on a 1,000,000-event log (ADR 089): the latency of a merchant wallet's balance as of a
 * random moment (half by cursor, half by instant), read as GET /api/v1/balance?as_of= reads it
 * (the last day snapshot in Redis, then the wallet's stream folded from there), without HTTP.
 *
 * The log is written through the SQLite event store adapter: one merchant wallet with 200,000
 * events over 400 days (credits, and sends reserved then posted, each stamped with its balance),
 * among 800,000 events of noise (other wallets' credits and other capabilities' events). The day
 * snapshots are built by the projection's own apply code over the whole log. Then QUERIES moments
 * are answered; a sample is checked against a fold from the wallet's first event with the
 * snapshots deleted, and that uncached fold is timed too, to show what the snapshots save.
 * Not a test: numbers on shared machines are noisy.
 * Run: npm run bench:as-of   (EVENTS=1000000 QUERIES=2000 by default)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewEvent } from '@quern/core';
import { type AsOf, balanceOutputOf, balanceSnapshotOf, ZERO_BALANCE } from '@quern/core/as-of';
import { nextBalance, type WalletBalance, type WalletEvent, walletStream } from '@quern/core/wallet';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { walletBalanceAsOf, walletDaysProjection, walletDayEndsKey, walletDaysByDayKey, walletDaysByPositionKey } from '@quern/projections';
import { startPrivateRedis } from '@quern/test-support/redis';
import { Redis } from 'ioredis';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const QUERIES = Number(process.env.QUERIES ?? 2_000);
const DAYS = 400;
/** A fifth of the log is the merchant's wallet. */
const MERCHANT_EVENTS_PER_DAY = Math.round(EVENTS / 5 / DAYS);
const NOISE_EVENTS_PER_DAY = Math.round(EVENTS / DAYS) - MERCHANT_EVENTS_PER_DAY;
const MERCHANT = 'bench-merchant';
const DAY_MS = 86_400_000;
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const UNCACHED_SAMPLE = 20;

/** A seeded generator, so two runs time the same moments. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The merchant's wallet events of one day, each with the balance after it (the one reducer's). */
function merchantDay(day: number, count: number, balance: WalletBalance): { events: NewEvent[]; balance: WalletBalance } {
  const events: NewEvent[] = [];
  let current = balance;
  for (let i = 0; i < count; i++) {
    const at = iso(T0 + day * DAY_MS + Math.floor((i * DAY_MS) / count));
    const n = day * count + i;
    const transferId = `bench-${Math.floor(n / 5)}`;
    // Three credits, then a send of less than they brought: reserved, then posted.
    const event: WalletEvent =
      n % 5 < 3
        ? {
            type: 'TransferCredited',
            data: {
              walletId: MERCHANT,
              transferId: `in-${n}`,
              fromWalletId: 'payer',
              fromAddress: 'a',
              toAddress: 'b',
              amountMlx: '10000',
              creditedAt: at,
            },
          }
        : n % 5 === 3
          ? {
              type: 'TransferReserved',
              data: {
                walletId: MERCHANT,
                transferId,
                fromAddress: 'b',
                toAddress: 'c',
                amountMlx: '20000',
                feeMlx: '1000',
                reservedAt: at,
              },
            }
          : {
              type: 'TransferPosted',
              data: { walletId: MERCHANT, transferId, toAddress: 'c', amountMlx: '20000', feeMlx: '1000', postedAt: at },
            };
    current = nextBalance(current, event);
    events.push({ type: event.type, data: { ...event.data, balanceAfter: balanceSnapshotOf(current) } });
  }
  return { events, balance: current };
}

/** Noise: a quarter credits of 200 other wallets, the rest events no wallet reads. */
function noiseEvent(day: number, i: number): { streamId: string; event: NewEvent } {
  const at = iso(T0 + day * DAY_MS + Math.floor((i * DAY_MS) / NOISE_EVENTS_PER_DAY));
  if (i % 4 === 0) {
    const walletId = `other-${i % 200}`;
    return {
      streamId: walletStream(walletId),
      event: {
        type: 'SupplyMinted',
        data: {
          walletId,
          amountMlx: '1',
          mintedAt: at,
          balanceAfter: { postedMlx: String(day * 10_000 + i), heldMlx: '0', pendingCreditMlx: '0' },
        },
      },
    };
  }
  return { streamId: `noise-${i % 1_000}`, event: { type: 'BenchNoiseRecorded', data: { day, i, at } } };
}

async function writeLog(file: string): Promise<{ end: bigint; seconds: number }> {
  const store = openSqliteEventStore({ file });
  const started = process.hrtime.bigint();
  let balance = ZERO_BALANCE;
  let end = 0n;
  try {
    for (let day = 0; day < DAYS; day++) {
      const merchant = merchantDay(day, MERCHANT_EVENTS_PER_DAY, balance);
      balance = merchant.balance;
      // Noise by stream, in appends of at most 1,000 events, the merchant's day in the middle of it.
      const byStream = new Map<string, NewEvent[]>();
      for (let i = 0; i < NOISE_EVENTS_PER_DAY; i++) {
        const { streamId, event } = noiseEvent(day, i);
        const events = byStream.get(streamId) ?? [];
        events.push(event);
        byStream.set(streamId, events);
      }
      const noise = [...byStream.entries()];
      const half = Math.floor(noise.length / 2);
      const appends = [
        ...noise.slice(0, half).map(([streamId, events]) => store.append(streamId, events, 'any')),
        ...Array.from({ length: Math.ceil(merchant.events.length / 1_000) }, (_, k) =>
          store.append(walletStream(MERCHANT), merchant.events.slice(k * 1_000, (k + 1) * 1_000), 'any'),
        ),
        ...noise.slice(half).map(([streamId, events]) => store.append(streamId, events, 'any')),
      ];
      for (const result of await Promise.all(appends)) if (result.position > end) end = result.position;
    }
    return { end, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  } finally {
    await store.close();
  }
}

async function buildSnapshots(file: string, redis: Redis): Promise<number> {
  const store = openSqliteEventStore({ file });
  const started = process.hrtime.bigint();
  try {
    let after: bigint | undefined;
    for (;;) {
      const page = await store.readAll({ after, maxCount: 10_000 });
      if (page.length === 0) break;
      const tx = redis.multi();
      for (const event of page) walletDaysProjection.apply(event, tx);
      await tx.exec();
      after = page[page.length - 1]?.position;
    }
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    await store.close();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quern-bench-as-of-'));
  const file = join(dir, 'log.sqlite');
  const server = await startPrivateRedis();
  const redis = new Redis(server.url);
  try {
    const written = await writeLog(file);
    console.log(
      `log: ${written.end.toLocaleString('en')} events (merchant ${(MERCHANT_EVENTS_PER_DAY * DAYS).toLocaleString('en')} over ${DAYS} days) written in ${written.seconds.toFixed(1)} s`,
    );
    const snapshotSeconds = await buildSnapshots(file, redis);
    console.log(
      `day snapshots: ${await redis.hlen(walletDayEndsKey(MERCHANT))} days of the merchant built in ${snapshotSeconds.toFixed(1)} s`,
    );

    const store = openSqliteEventStore({ file });
    const next = random(28);
    const moments: AsOf[] = Array.from({ length: QUERIES }, (_, i) =>
      i % 2 === 0
        ? { kind: 'time', ms: T0 + Math.floor(next() * DAYS * DAY_MS) }
        : { kind: 'position', position: 1n + BigInt(Math.floor(next() * Number(written.end))) },
    );
    // Warm-up: the first reads open the statement cache and the Redis connection.
    for (const asOf of moments.slice(0, 20)) await walletBalanceAsOf({ store, redis }, MERCHANT, asOf);
    const latencies: number[] = [];
    const answers: string[] = [];
    for (const asOf of moments) {
      const started = process.hrtime.bigint();
      const balance = await walletBalanceAsOf({ store, redis }, MERCHANT, asOf);
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      answers.push(JSON.stringify(balanceOutputOf(balance)));
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `as_of with day snapshots, ${QUERIES} random moments (half cursors, half instants): median ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(latencies[latencies.length - 1] ?? Number.NaN)}`,
    );

    // The snapshots are a cache: deleted, the same moments fold from the first event, to the same answers.
    await redis.del(walletDayEndsKey(MERCHANT), walletDaysByDayKey(MERCHANT), walletDaysByPositionKey(MERCHANT));
    const uncached: number[] = [];
    for (let i = 0; i < UNCACHED_SAMPLE; i++) {
      const k = Math.floor((i * QUERIES) / UNCACHED_SAMPLE);
      const asOf = moments[k] as AsOf;
      const started = process.hrtime.bigint();
      const balance = await walletBalanceAsOf({ store, redis }, MERCHANT, asOf);
      uncached.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (JSON.stringify(balanceOutputOf(balance)) !== answers[k])
        throw new Error(`moment ${k}: the uncached fold disagrees with the snapshot's`);
    }
    uncached.sort((a, b) => a - b);
    console.log(
      `as_of without snapshots (fold from the first event), ${UNCACHED_SAMPLE} of the same moments, same answers: median ${ms(percentile(uncached, 50))}, max ${ms(uncached[uncached.length - 1] ?? Number.NaN)}`,
    );
    await store.close();
  } finally {
    redis.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
