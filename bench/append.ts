/**
 * Append throughput of the SQLite event store, with the settings it runs with in production.
 *   (a) one stream, each append awaited before the next, exact expected revision: every append
 *       is its own transaction and fsync (the worst case, and the baseline);
 *   (b) 10,000 appends over 1,000 streams with 100 in flight: what group commit is for.
 *   (c) as (b), but every append is an atomic appendToStreams over 2 streams (1 event each, as
 *       an internal transfer debits one wallet and credits another): 10,000 calls, 20,000 events.
 * Each is measured RUNS times on a fresh file; median, min and max are printed, plus (b)/(a) and
 * (c)/(b) measured in the same run, since absolute numbers on shared machines are noisy.
 * Run: node --import tsx bench/append.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewEvent } from '@quern/core';
import { openSqliteEventStore, type SqliteEventStore } from '@quern/adapters/eventstore';
import { MAX_BATCH_APPENDS, MAX_BATCH_EVENTS } from '@quern/adapters/eventstore';

const RUNS = 5;
const SEQUENTIAL_APPENDS = 1_000;
const CONCURRENT_APPENDS = 10_000;
const STREAMS = 1_000;
const IN_FLIGHT = 100;

/** A transfer-sized event: what a wallet stream mostly holds. */
const sampleEvent = (n: number): NewEvent => ({
  type: 'TransferReserved',
  data: {
    transferId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    amountMlx: '125000000',
    feeMlx: '1000',
    to: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT0a01BoatSLRHtKNngkdXEeobR76b53LETtpyT',
  },
  metadata: { correlationId: `req-${n}` },
});

interface Run {
  appendsPerSecond: number;
  transactions: number;
}

async function timed(dir: string, label: string, work: (store: SqliteEventStore) => Promise<number>): Promise<Run> {
  const store = openSqliteEventStore({ file: join(dir, `${label}.sqlite`) });
  try {
    const started = process.hrtime.bigint();
    const appends = await work(store);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { appendsPerSecond: appends / seconds, transactions: store.stats().transactions };
  } finally {
    await store.close();
  }
}

async function sequentialOneStream(store: SqliteEventStore): Promise<number> {
  await store.append('wallet-bench', [sampleEvent(0)], 'no_stream');
  for (let n = 1; n < SEQUENTIAL_APPENDS; n += 1) await store.append('wallet-bench', [sampleEvent(n)], BigInt(n - 1));
  return SEQUENTIAL_APPENDS;
}

/**
 * IN_FLIGHT lanes; lane k owns streams k, k + IN_FLIGHT, ... and appends to them round-robin,
 * awaiting each append. So 100 appends are always in flight, revisions are exact, and no two
 * lanes ever race on a stream.
 */
async function concurrentManyStreams(store: SqliteEventStore): Promise<number> {
  const streamsPerLane = STREAMS / IN_FLIGHT;
  const appendsPerLane = CONCURRENT_APPENDS / IN_FLIGHT;
  const lane = async (k: number) => {
    const revisions = new Array<bigint | undefined>(streamsPerLane).fill(undefined);
    for (let n = 0; n < appendsPerLane; n += 1) {
      const slot = n % streamsPerLane;
      const revision = revisions[slot];
      const result = await store.append(`wallet-${k + slot * IN_FLIGHT}`, [sampleEvent(n)], revision ?? 'no_stream');
      revisions[slot] = result.nextExpectedRevision;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, k) => lane(k)));
  return CONCURRENT_APPENDS;
}

/**
 * As concurrentManyStreams, but lane k owns stream pairs (k + slot * IN_FLIGHT, its "-b" twin)
 * and writes both of a pair in one appendToStreams call.
 */
async function concurrentPairs(store: SqliteEventStore): Promise<number> {
  const pairsPerLane = STREAMS / 2 / IN_FLIGHT;
  const appendsPerLane = CONCURRENT_APPENDS / IN_FLIGHT;
  const lane = async (k: number) => {
    const revisions = new Array<bigint | undefined>(pairsPerLane).fill(undefined);
    for (let n = 0; n < appendsPerLane; n += 1) {
      const slot = n % pairsPerLane;
      const revision = revisions[slot] ?? 'no_stream';
      const stream = `wallet-${k + slot * IN_FLIGHT}`;
      const [payer] = await store.appendToStreams([
        { streamId: stream, events: [sampleEvent(n)], expectedRevision: revision },
        { streamId: `${stream}-b`, events: [sampleEvent(n)], expectedRevision: revision },
      ]);
      revisions[slot] = payer?.nextExpectedRevision;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, k) => lane(k)));
  return CONCURRENT_APPENDS;
}

function summary(runs: Run[]): { median: number; min: number; max: number } {
  const rates = runs.map((r) => r.appendsPerSecond).sort((a, b) => a - b);
  return { median: rates[Math.floor(rates.length / 2)] ?? 0, min: rates[0] ?? 0, max: rates.at(-1) ?? 0 };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quern-bench-append-'));
  try {
    const eventBytes = Buffer.byteLength(JSON.stringify(sampleEvent(0).data)) + Buffer.byteLength(JSON.stringify(sampleEvent(0).metadata));
    console.log('SQLite event store append benchmark');
    console.log(
      `settings: journal_mode=WAL, synchronous=FULL, batch bound ${MAX_BATCH_APPENDS} appends / ${MAX_BATCH_EVENTS} events, event ~${eventBytes} bytes JSON, 1 event per stream per append, ${RUNS} runs each`,
    );
    console.log(`node ${process.version}, temp dir ${dir}`);

    const sequential: Run[] = [];
    const concurrent: Run[] = [];
    const pairs: Run[] = [];
    // Interleaved, so that a slow phase of the machine does not land on one scenario only.
    for (let run = 0; run < RUNS; run += 1) {
      sequential.push(await timed(dir, `sequential-${run}`, sequentialOneStream));
      concurrent.push(await timed(dir, `concurrent-${run}`, concurrentManyStreams));
      pairs.push(await timed(dir, `pairs-${run}`, concurrentPairs));
    }

    const a = summary(sequential);
    const b = summary(concurrent);
    const perTx = (runs: Run[], appends: number) => (appends / (runs.reduce((s, r) => s + r.transactions, 0) / runs.length)).toFixed(1);
    console.log(
      `(a) 1 stream, sequential, ${fmt(SEQUENTIAL_APPENDS)} appends: median ${fmt(a.median)}/s (min ${fmt(a.min)}, max ${fmt(a.max)}), ${perTx(sequential, SEQUENTIAL_APPENDS)} appends per transaction`,
    );
    console.log(
      `(b) ${fmt(STREAMS)} streams, ${IN_FLIGHT} in flight, ${fmt(CONCURRENT_APPENDS)} appends: median ${fmt(b.median)}/s (min ${fmt(b.min)}, max ${fmt(b.max)}), ${perTx(concurrent, CONCURRENT_APPENDS)} appends per transaction`,
    );
    const c = summary(pairs);
    console.log(
      `(c) ${fmt(STREAMS)} streams in pairs, ${IN_FLIGHT} in flight, ${fmt(CONCURRENT_APPENDS)} 2-stream appends (${fmt(CONCURRENT_APPENDS * 2)} events): median ${fmt(c.median)}/s (min ${fmt(c.min)}, max ${fmt(c.max)}), ${perTx(pairs, CONCURRENT_APPENDS)} appends per transaction`,
    );
    console.log(`(b)/(a) median ratio: ${(b.median / a.median).toFixed(1)}x`);
    console.log(
      `(c)/(b) median ratio: ${(c.median / b.median).toFixed(2)}x (2-stream appends per second versus single-stream appends per second)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
