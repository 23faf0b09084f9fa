/**
 * Many-wallet send benchmark (run: `node --import tsx bench/send-many.ts`). The single-wallet
 * scenario stays in bench/send.ts. Prints, measured in one run with one HTTP client (autocannon)
 * so the ratios mean something on a noisy host:
 *  1. max load: WALLETS funded wallets, each sending 1,000 MLX to the next one (a ring, so every
 *     wallet both pays and is paid), CONNECTIONS requests in flight for SECONDS, next to a bare
 *     Express 5 JSON route driven the same way: accepted sends/s, ratio, status-code counts, p50/p99;
 *  2. the same sends at half of the measured maximum rate (autocannon `overallRate`): p50/p99;
 *  3. send 200 -> the send visible (completed) in the payer's history, median and p99 over
 *     sequential sends;
 *  4. settlement lag (reservation -> posted, from the log's recordedAt) of the internal sends of
 *     run 1 and of a short burst of external sends (simulated network, no confirmation delay);
 *  5. the first send on a cold wallet whose stream holds COLD_EVENTS events (seeded directly
 *     through the store in big batches), after a restart, then again after a second restart
 *     (when a snapshot written by the first one can be used).
 * Settings: BENCH_SECONDS (10), BENCH_CONNECTIONS (16), BENCH_WALLETS (39), BENCH_COLD_EVENTS (1,000,000),
 * BENCH_PAYEE_OFFSET (1): wallet i pays wallet i + offset. With 1, the requests in flight (sent by
 * consecutive wallets) always share a wallet, the worst case for per-wallet queues; with 20, the
 * 16 in flight never do.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import express from 'express';
import { createAddress, walletStream } from '@quern/core/wallet';
import { loadConfig, startQuern, type RunningQuern } from '@quern/api';
import { fundFromReserve } from '@quern/api/testing';
import { startPrivateRedis } from '@quern/test-support/redis';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WALLETS = Number(process.env.BENCH_WALLETS ?? 39);
const COLD_EVENTS = Number(process.env.BENCH_COLD_EVENTS ?? 1_000_000);
const PAYEE_OFFSET = Number(process.env.BENCH_PAYEE_OFFSET ?? 1);
const LAG_SAMPLES = 100;
const EXTERNAL_SENDS = 200;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const sortedCopy = (values: number[]) => [...values].sort((a, b) => a - b);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const pause = (delayMs: number) => new Promise((resolve) => setTimeout(resolve, delayMs));

/**
 * Drives `url` with autocannon: each request takes the next of `turns` (a wallet's cookie and its
 * body; the bare route has one turn without a cookie). Only 200s count as accepted throughput:
 * refusals (429 back-pressure) answer fast.
 */
async function load(url: string, turns: Array<{ cookie?: string; body: string }>, overallRate?: number) {
  let next = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    overallRate,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const { cookie, body } = turns[next++ % turns.length] as { cookie?: string; body: string };
          const headers = { ...request.headers, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) };
          return { ...request, body, headers };
        },
      },
    ],
  });
  const counts: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) counts[code] = (stat as { count: number }).count;
  return {
    rps: result.requests.average,
    acceptedPerSecond: (counts['200'] ?? 0) / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    counts,
  };
}

async function bareExpressRoute(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.use(express.json());
  app.post('/echo', (req, res) => {
    res.json({ ok: true, echo: req.body });
  });
  const server = await new Promise<import('node:http').Server>((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/echo`, close: () => new Promise((done) => server.close(() => done())) };
}

interface BenchUser {
  cookie: string;
  address: string;
  userName: string;
  walletId: string;
}

async function register(base: string, name: string, index: number): Promise<BenchUser> {
  const post = (path: string, body: unknown) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const user = {
    userName: name,
    firstName: 'B',
    lastName: 'U',
    email: `${name}@example.com`,
    phone: `+1555${String(index).padStart(7, '0')}`,
    password: 'long enough secret',
  };
  const registered = (await (await post('/api/user/register', user)).json()) as { id: string };
  const login = await post('/api/user/login', { email: user.email, password: user.password });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { address } = (await (await fetch(`${base}/api/millix/address`, { headers: { cookie } })).json()) as { address: string };
  return { cookie, address, userName: name, walletId: registered.id };
}

async function sendOnce(base: string, from: BenchUser, to: string, amount: string) {
  const response = await fetch(`${base}/api/millix/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: from.cookie },
    body: JSON.stringify({ to, amount, fee: '1000' }),
  });
  return { status: response.status, body: (await response.json()) as { transferId?: string; status?: string } };
}

/** Reservation -> post lag of every transfer in the log after `after`, split internal / external. */
async function settlementLags(quern: RunningQuern, after: bigint) {
  const reservedAt = new Map<string, { at: number; internal: boolean }>();
  const internal: number[] = [];
  const external: number[] = [];
  let open = 0;
  for (let cursor = after; ; ) {
    const page = await quern.store.readAll({ after: cursor, maxCount: 5000 });
    for (const event of page) {
      const transferId = String(event.data.transferId);
      if (event.type === 'TransferReserved')
        reservedAt.set(transferId, { at: Date.parse(event.recordedAt), internal: event.data.toWalletId !== undefined });
      if (event.type === 'TransferPosted') {
        const reserved = reservedAt.get(transferId);
        if (reserved) (reserved.internal ? internal : external).push(Date.parse(event.recordedAt) - reserved.at);
        reservedAt.delete(transferId);
      }
      if (event.type === 'TransferVoided') reservedAt.delete(transferId);
    }
    if (page.length < 5000) break;
    cursor = page[page.length - 1]?.position ?? cursor;
  }
  open = reservedAt.size;
  return { internal: sortedCopy(internal), external: sortedCopy(external), open };
}

async function lastPosition(quern: RunningQuern): Promise<bigint> {
  let position = 0n;
  for (;;) {
    const page = await quern.store.readAll({ after: position, maxCount: 5000 });
    if (page.length === 0) return position;
    position = page[page.length - 1]?.position ?? position;
  }
}

/**
 * Appends `count` credits to the wallet's stream in big batches (no decider: this is seed data),
 * shaped as atomic sends record them (ADR 019), so the wallet is one that grew after that change.
 */
async function seedHistory(quern: RunningQuern, owner: BenchUser, from: BenchUser, count: number) {
  const stream = walletStream(owner.walletId);
  const existing = await quern.store.readStream(stream);
  const last = existing[existing.length - 1];
  let revision: bigint | 'no_stream' = last ? last.revision : 'no_stream';
  const postedBefore = BigInt(String((last?.data.balanceAfter as { postedMlx?: string } | undefined)?.postedMlx ?? '0'));
  const batch = 1000;
  for (let i = 0; i < count; i += batch) {
    const events = Array.from({ length: Math.min(batch, count - i) }, (_, j) => ({
      type: 'TransferCredited',
      data: {
        walletId: owner.walletId,
        transferId: `seed-${i + j}`,
        fromWalletId: from.walletId,
        fromAddress: from.address,
        toAddress: owner.address,
        amountMlx: '1',
        settledAtOnce: true,
        creditedAt: new Date().toISOString(),
        balanceAfter: { postedMlx: (postedBefore + BigInt(i + j + 1)).toString(), heldMlx: '0', pendingCreditMlx: '0' },
      },
    }));
    revision = (await quern.store.append(stream, events, revision)).nextExpectedRevision;
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'quern-bench-send-many-'));
  const redis = await startPrivateRedis();
  const env = {
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    REDIS_URL: redis.url,
    REGISTRATIONS_PER_IP_HOUR: '10000',
    MILLIX_CONFIRM_DELAY_MS: '0',
  };
  const all = { api: true, projections: true, workers: true };
  let quern = await startQuern(loadConfig(env), all);
  let base = quern.url as string;
  const users: BenchUser[] = [];
  for (let i = 0; i <= WALLETS; i++) users.push(await register(base, `bench_many_${i}`, i));
  const payers = users.slice(0, WALLETS);
  const cold = users[WALLETS] as BenchUser;
  for (const user of [...payers, cold]) await fundFromReserve(quern.store, user.address, 10_000_000_000n);
  await pause(2000);

  console.log(
    `Quern many-wallet send benchmark: ${WALLETS} wallets paying the wallet ${PAYEE_OFFSET} further, ${CONNECTIONS} in flight, ${SECONDS} s per run, node ${process.version}, data in ${dataDir}`,
  );
  // Each request comes from the next wallet in turn and pays the wallet PAYEE_OFFSET further (a ring).
  const payeeOf = (i: number) => (payers[(i + PAYEE_OFFSET) % payers.length] as BenchUser).userName;
  const bare = await bareExpressRoute();
  const bareResult = await load(bare.url, [{ body: JSON.stringify({ to: 'x', amount: '1000', fee: '1000' }) }]);
  await bare.close();
  const before = await lastPosition(quern);
  const ringRequests = payers.map((p, i) => ({ cookie: p.cookie, body: JSON.stringify({ to: payeeOf(i), amount: '1000', fee: '1000' }) }));
  const sends = await load(`${base}/api/millix/send`, ringRequests);
  console.log(`bare Express JSON route: ${bareResult.rps.toFixed(0)} req/s (p50 ${bareResult.p50} ms, p99 ${bareResult.p99} ms)`);
  console.log(
    `sends (max load): ${sends.rps.toFixed(0)} answers/s, accepted ${sends.acceptedPerSecond.toFixed(0)}/s, p50 ${sends.p50} ms, p99 ${sends.p99} ms, statuses ${JSON.stringify(sends.counts)}, errors ${sends.errors}`,
  );
  const ratio = sends.acceptedPerSecond / bareResult.rps;
  console.log(`ratio accepted sends / bare route: ${ratio.toFixed(3)}`);
  await pause(3000);
  const half = Math.max(1, Math.floor(sends.acceptedPerSecond / 2));
  const halfLoad = await load(`${base}/api/millix/send`, ringRequests, half);
  console.log(
    `sends at half load (${half}/s): accepted ${halfLoad.acceptedPerSecond.toFixed(0)}/s, p50 ${halfLoad.p50} ms, p99 ${halfLoad.p99} ms, statuses ${JSON.stringify(halfLoad.counts)}`,
  );

  // 3. Send 200 -> completed in the payer's history, one send at a time once the load drained.
  await pause(3000);
  const lags: number[] = [];
  const sampler = payers[0] as BenchUser;
  for (let i = 0; i < LAG_SAMPLES; i++) {
    const sent = await sendOnce(base, sampler, payeeOf(0), '1000');
    const acknowledgedAt = performance.now();
    for (let polls = 0; polls < 5000; polls++) {
      const page = (await (await fetch(`${base}/api/quern/transactions?page=0`, { headers: { cookie: sampler.cookie } })).json()) as {
        transactions: Array<{ transaction_hash: string }>;
      };
      if (page.transactions.some((t) => t.transaction_hash === sent.body.transferId)) break;
      await pause(1);
    }
    lags.push(performance.now() - acknowledgedAt);
  }
  const sortedLags = sortedCopy(lags);
  console.log(
    `send 200 -> completed in payer's history: median ${ms(percentile(sortedLags, 50))}, p99 ${ms(percentile(sortedLags, 99))} (${LAG_SAMPLES} sequential sends)`,
  );

  // 4. Settlement lag: the internal sends of the runs above, and a burst of external sends.
  const externalAddress = createAddress(new Uint8Array(randomBytes(20)), 'mainnet');
  const externalStart = await lastPosition(quern);
  await Promise.all(
    Array.from({ length: 8 }, async (_, worker) => {
      for (let i = worker; i < EXTERNAL_SENDS; i += 8)
        await sendOnce(base, payers[i % payers.length] as BenchUser, externalAddress, '1000');
    }),
  );
  for (let waited = 0; waited < 60; waited++) {
    if ((await settlementLags(quern, externalStart)).open === 0) break;
    await pause(1000);
  }
  const internalLags = await settlementLags(quern, before);
  const externalLags = await settlementLags(quern, externalStart);
  console.log(
    `settlement lag internal (reserved -> posted): p50 ${ms(percentile(internalLags.internal, 50))}, p99 ${ms(percentile(internalLags.internal, 99))} (${internalLags.internal.length} transfers, ${internalLags.open} still open)`,
  );
  console.log(
    `settlement lag external: p50 ${ms(percentile(externalLags.external, 50))}, p99 ${ms(percentile(externalLags.external, 99))} (${externalLags.external.length} transfers, ${externalLags.open} still open)`,
  );

  // 5. Cold wallet: seed its stream with only the store running, then restart the api alone.
  await quern.stop();
  const storeOnly = { api: false, projections: false, workers: false };
  quern = await startQuern(loadConfig(env), storeOnly);
  const seedStarted = performance.now();
  await seedHistory(quern, cold, sampler, COLD_EVENTS);
  console.log(
    `seeded ${COLD_EVENTS.toLocaleString('en')} events on one wallet in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  await quern.stop();
  const apiOnly = { api: true, projections: false, workers: false };
  for (const label of ['first send after restart', 'first send after a second restart']) {
    quern = await startQuern(loadConfig(env), apiOnly);
    base = quern.url as string;
    const t0 = performance.now();
    const first = await sendOnce(base, cold, sampler.userName, '1000');
    const firstMs = performance.now() - t0;
    const t1 = performance.now();
    await sendOnce(base, cold, sampler.userName, '1000');
    console.log(
      `cold wallet (${COLD_EVENTS.toLocaleString('en')} events), ${label}: ${ms(firstMs)} (status ${first.status}); next send ${ms(performance.now() - t1)}`,
    );
    await quern.stop();
  }

  await redis.stop();
  rmSync(dataDir, { recursive: true, force: true });
  const summary = {
    acceptedPerSecond: Math.round(sends.acceptedPerSecond),
    bareRps: Math.round(bareResult.rps),
    ratio: Number(ratio.toFixed(3)),
    status429: sends.counts['429'] ?? 0,
    p50: sends.p50,
    p99: sends.p99,
    halfLoadP99: halfLoad.p99,
    historyMedianMs: Number(percentile(sortedLags, 50).toFixed(1)),
    historyP99Ms: Number(percentile(sortedLags, 99).toFixed(1)),
    internalLagP99Ms: percentile(internalLags.internal, 99),
    externalLagP99Ms: percentile(externalLags.external, 99),
  };
  console.log(`SUMMARY ${JSON.stringify(summary)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
