/**
 * Send benchmark (run: `node --import tsx bench/send.ts`). Prints, measured in one run on one
 * machine so the ratios mean something on a noisy host:
 *  1. sends/s through the HTTP API (POST /api/millix/send) with p50/p99 latency, next to a bare
 *     Express 5 JSON route's req/s, and the ratio;
 *  2. read-your-writes lag: from a send's 200 to the send showing as completed in the payer's
 *     history (GET /api/quern/transactions?page=0), median and p95 over sequential sends;
 *  3. history page latency at page 0 and page 10,000 of a wallet with 1,000,000 transactions
 *     (seeded by appending events directly), median and p99.
 * Settings: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (10), BENCH_HISTORY_SIZE (1,000,000).
 */
import autocannon from 'autocannon';
import express from 'express';
import { walletStream } from '@quern/core/wallet';
import { fundFromReserve } from '@quern/api/testing';
import { startBenchQuern } from './bench-quern.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const HISTORY_SIZE = Number(process.env.BENCH_HISTORY_SIZE ?? 1_000_000);
const LAG_SAMPLES = 50;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function load(url: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...init });
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, stat]) => `${code}: ${(stat as { count: number }).count}`)
    .join(', ');
  // Refusals (429 back-pressure) answer fast; only accepted requests count as throughput.
  const accepted = (result.statusCodeStats?.['200' as keyof typeof result.statusCodeStats] as { count: number } | undefined)?.count ?? 0;
  return {
    rps: result.requests.average,
    acceptedPerSecond: accepted / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    statuses,
  };
}

async function bareExpressBaseline() {
  const app = express();
  app.use(express.json());
  app.post('/echo', (req, res) => {
    res.json({ ok: true, echo: req.body });
  });
  const server = await new Promise<import('node:http').Server>((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  const address = server.address() as { port: number };
  const result = await load(`http://127.0.0.1:${address.port}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: 'x', amount: '1', fee: '1000' }),
  });
  await new Promise((done) => server.close(done));
  return result;
}

async function main() {
  const bench = await startBenchQuern('send');
  const { quern, dataDir } = bench;
  const base = quern.url as string;
  const post = (path: string, body: unknown, cookie = '') =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
  const users = [] as Array<{ cookie: string; address: string; userName: string; walletId: string }>;
  for (const name of ['bench_payer', 'bench_payee', 'bench_history']) {
    const user = {
      userName: name,
      firstName: 'B',
      lastName: 'U',
      email: `${name}@example.com`,
      phone: `+1555${String(users.length).padStart(7, '0')}`,
      password: 'long enough secret',
    };
    const registered = (await (await post('/api/user/register', user)).json()) as { id: string };
    const login = await post('/api/user/login', { email: user.email, password: user.password });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { address } = (await (await fetch(`${base}/api/millix/address`, { headers: { cookie } })).json()) as { address: string };
    users.push({ cookie, address, userName: name, walletId: registered.id });
  }
  const [payer, payee, historyOwner] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
  await fundFromReserve(quern.store, payer.address, 100_000_000_000n);

  console.log(`Quern send benchmark: ${SECONDS} s per load run, ${CONNECTIONS} connections, node ${process.version}, data in ${dataDir}`);
  const baseline = await bareExpressBaseline();
  const sends = await load(`${base}/api/millix/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: payer.cookie },
    body: JSON.stringify({ to: payee.userName, amount: '1', fee: '1000' }),
  });
  console.log(`bare Express JSON route: ${baseline.rps.toFixed(0)} req/s (p50 ${baseline.p50} ms, p99 ${baseline.p99} ms)`);
  console.log(
    `sends via HTTP API:      ${sends.rps.toFixed(0)} req/s (p50 ${sends.p50} ms, p99 ${sends.p99} ms, non-2xx ${sends.non2xx}, errors ${sends.errors}; statuses ${sends.statuses})`,
  );
  console.log(
    `accepted sends/s: ${sends.acceptedPerSecond.toFixed(0)}; ratio accepted sends / bare route: ${(sends.acceptedPerSecond / baseline.rps).toFixed(3)}`,
  );

  // 2. Read-your-writes lag, one send at a time once the load has drained.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const lags: number[] = [];
  for (let i = 0; i < LAG_SAMPLES; i++) {
    const sent = (await (await post('/api/millix/send', { to: payee.userName, amount: '2', fee: '1000' }, payer.cookie)).json()) as {
      transferId: string;
    };
    const acknowledgedAt = performance.now();
    for (;;) {
      const page = (await (await fetch(`${base}/api/quern/transactions?page=0`, { headers: { cookie: payer.cookie } })).json()) as {
        transactions: Array<{ transaction_hash: string }>;
      };
      if (page.transactions.some((t) => t.transaction_hash === sent.transferId)) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    lags.push(performance.now() - acknowledgedAt);
  }
  lags.sort((a, b) => a - b);
  console.log(
    `send 200 -> completed in payer's history: median ${ms(percentile(lags, 50))}, p95 ${ms(percentile(lags, 95))} (${LAG_SAMPLES} sequential sends)`,
  );

  // 3. History depth: seed HISTORY_SIZE credits on one wallet by appending events directly.
  const seedStarted = performance.now();
  const stream = walletStream(historyOwner.walletId);
  const existing = await quern.store.readStream(stream);
  let revision: bigint | 'no_stream' = existing.length ? (existing[existing.length - 1]?.revision ?? 'no_stream') : 'no_stream';
  let lastPosition = 0n;
  const batch = 1000;
  for (let i = 0; i < HISTORY_SIZE; i += batch) {
    const events = Array.from({ length: Math.min(batch, HISTORY_SIZE - i) }, (_, j) => {
      const n = BigInt(i + j + 1);
      return {
        type: 'TransferCredited',
        data: {
          walletId: historyOwner.walletId,
          transferId: `seed-${i + j}`,
          fromWalletId: payer.walletId,
          fromAddress: payer.address,
          toAddress: historyOwner.address,
          amountMlx: '1',
          creditedAt: new Date().toISOString(),
          balanceAfter: { postedMlx: n.toString(), heldMlx: '0', pendingCreditMlx: '0' },
        },
      };
    });
    const appended = await quern.store.append(stream, events, revision);
    revision = appended.nextExpectedRevision;
    lastPosition = appended.position;
  }
  const seededMs = performance.now() - seedStarted;
  // Wait for the projection to include the whole history.
  const projectStarted = performance.now();
  for (;;) {
    const page = (await (await fetch(`${base}/api/quern/transactions?page=0`, { headers: { cookie: historyOwner.cookie } })).json()) as {
      total: number;
    };
    if (page.total >= HISTORY_SIZE) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  console.log(
    `seeded ${HISTORY_SIZE.toLocaleString('en')} transactions in ${(seededMs / 1000).toFixed(1)} s, projected in ${((performance.now() - projectStarted) / 1000).toFixed(1)} s (last position ${lastPosition})`,
  );
  for (const page of [0, 10_000]) {
    const samples: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      const response = await fetch(`${base}/api/quern/transactions?page=${page}`, { headers: { cookie: historyOwner.cookie } });
      await response.json();
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    console.log(`history page ${page}: median ${ms(percentile(samples, 50))}, p99 ${ms(percentile(samples, 99))} (200 requests)`);
  }

  await bench.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
