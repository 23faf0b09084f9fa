/**
 * A monthly statement (ADR 090) of a month with 100,000 movements, in each form (JSON, CSV, PDF):
 * the time to build it from the log and how much the heap and RSS grew meanwhile, into a
 * destination that drains like a socket (asynchronously), so backpressure is exercised. Seeds a
 * private SQLite log with credits stamped with their balance, as the ledger records them.
 * Not a test: numbers on shared machines are noisy; what matters is that growth stays flat as the
 * number of movements grows (try ROWS=200000).
 * Run: npm run bench:statement
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { NewEvent } from '@quern/core';
import { openRawEventStore } from '@quern/adapters/eventstore';
import { statementMonthOf } from '@quern/core/statements';
import { walletStream } from '@quern/core/wallet';
import { buildStatement, csvRenderer, jsonRenderer, pdfRenderer, statementSigner, statementTexts } from '@quern/api';

const ROWS = Number(process.env.ROWS ?? 100_000);
const MERCHANT = 'bench-merchant';
const MONTH = statementMonthOf('2025-03');
/** Events per append: the store takes at most 1,000. */
const BATCH = 1_000;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Credit i: 1,000 + i MLX from one of 100 shoppers, spread evenly over the month. */
function credit(i: number, balance: bigint): NewEvent {
  return {
    type: 'TransferCredited',
    data: {
      walletId: MERCHANT,
      transferId: `bench-${i}`,
      fromWalletId: `shopper-${i % 100}`,
      fromAddress: `1Shopper${i % 100}`,
      toAddress: '1BenchMerchant',
      amountMlx: String(1_000 + i),
      settledAtOnce: true,
      creditedAt: new Date(MONTH.startMs + Math.floor((i * (MONTH.endMs - MONTH.startMs - 1)) / ROWS)).toISOString(),
      balanceAfter: { postedMlx: balance.toString(), heldMlx: '0', pendingCreditMlx: '0' },
    },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quern-bench-statement-'));
  const store = openRawEventStore({ dataDir: dir });
  try {
    const opened = new Date(MONTH.startMs - 86_400_000).toISOString();
    await store.append(
      walletStream(MERCHANT),
      [{ type: 'WalletOpened', data: { walletId: MERCHANT, kind: 'user', address: '1BenchMerchant', openedAt: opened } }],
      'no_stream',
    );
    let balance = 0n;
    for (let first = 0; first < ROWS; first += BATCH) {
      const events: NewEvent[] = [];
      for (let i = first; i < Math.min(ROWS, first + BATCH); i++) {
        balance += BigInt(1_000 + i);
        events.push(credit(i, balance));
      }
      await store.append(walletStream(MERCHANT), events, 'any');
    }
    console.log(`movements seeded   ${ROWS} in ${MONTH.month}`);
    const signer = statementSigner(Buffer.alloc(32, 1));
    for (const format of ['json', 'csv', 'pdf'] as const) {
      gc();
      const before = process.memoryUsage();
      const peak = { heap: before.heapUsed, heapTotal: before.heapTotal, external: before.external, rss: before.rss };
      /** Collects (with --expose-gc), then samples: the live heap and buffers are what must stay flat. */
      const sample = () => {
        gc();
        const usage = process.memoryUsage();
        peak.heap = Math.max(peak.heap, usage.heapUsed);
        peak.heapTotal = Math.max(peak.heapTotal, usage.heapTotal);
        peak.external = Math.max(peak.external, usage.external);
        peak.rss = Math.max(peak.rss, usage.rss);
      };
      const sampler = setInterval(sample, 100);
      let bytes = 0;
      // Drains on the next turn, as a socket does.
      const out = new Writable({
        highWaterMark: 64 * 1024,
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          setImmediate(done);
        },
      });
      const texts = statementTexts('en');
      const renderer =
        format === 'json' ? jsonRenderer(out, false) : format === 'csv' ? csvRenderer(out, texts) : pdfRenderer(out, texts, 'en', MONTH);
      const started = performance.now();
      await buildStatement(
        { store, signer, counterpartyName: async (row) => row.counterparty_wallet },
        { merchantId: MERCHANT, month: MONTH, status: 'closed' },
        renderer,
      );
      if (format !== 'pdf') out.end();
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      sample();
      console.log(
        `${format.padEnd(4)} ${mb(bytes).padStart(9)} in ${seconds.toFixed(1)} s (${Math.round(ROWS / seconds)} rows/s); peak growth after collection: heap ${mb(peak.heap - before.heapUsed)}, buffers ${mb(peak.external - before.external)}; peak heap reserved growth ${mb(peak.heapTotal - before.heapTotal)}, peak RSS growth ${mb(peak.rss - before.rss)}`,
      );
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
