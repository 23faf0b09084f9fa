/**
 * Invoices benchmark (run: `node --import tsx bench/invoices.ts`). Prints:
 *  1. invoices created per second through `POST /api/v1/invoices` (a fresh Idempotency-Key each,
 *     BENCH_CONNECTIONS requests in flight for BENCH_SECONDS), with request latency p50/p99;
 *  2. stable deposit → `invoice.paid` webhook received, median and p99 over BENCH_INVOICE_PAYMENTS
 *     invoices paid one after another from outside Quern through the simulated millix network with
 *     no confirmation delay (the deposit is stable when the faucet returns). The path: the deposit
 *     watcher's poll (DEPOSIT_POLL_INTERVAL_MS, printed) → DepositReceived/Confirmed → the invoice
 *     payment job → InvoicePaymentSettled → dispatcher → fan-out → delivery → signed POST to a
 *     local receiver that answers 200 at once.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openSimulatedNetwork, simulatedNetworkFile } from '@quern/adapters/millix';
import { startBenchQuern } from './bench-quern.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PAYMENTS = Number(process.env.BENCH_INVOICE_PAYMENTS ?? 50);
const POLL_MS = process.env.BENCH_DEPOSIT_POLL_MS ?? '100';
const WAIT_MS_MAX = 30_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `median ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted[sorted.length - 1] ?? Number.NaN)}`;
};

/** The receiver: resolves the waiter of each invoice as its invoice.paid arrives. */
function startReceiver() {
  const arrivals = new Map<string, (at: number) => void>();
  const early = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { id: string } };
      if (body.type !== 'invoice.paid') return;
      const waiter = arrivals.get(body.data.id);
      if (waiter) waiter(at);
      else early.set(body.data.id, at);
    });
  });
  const arrival = (invoiceId: string) =>
    new Promise<number>((resolve, reject) => {
      const seen = early.get(invoiceId);
      if (seen !== undefined) return resolve(seen);
      const timer = setTimeout(() => reject(new Error(`no invoice.paid for ${invoiceId} in ${WAIT_MS_MAX} ms`)), WAIT_MS_MAX);
      arrivals.set(invoiceId, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  return { server, arrival };
}

async function main() {
  const receiver = startReceiver();
  await new Promise<void>((done) => receiver.server.listen(0, '127.0.0.1', () => done()));
  const hookUrl = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`;
  const bench = await startBenchQuern('invoices', {
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    DEPOSIT_POLL_INTERVAL_MS: POLL_MS,
    API_KEY_REQUESTS_PER_MINUTE: '100000',
  });
  const network = openSimulatedNetwork({ file: simulatedNetworkFile(bench.dataDir), confirmDelayMs: 0 });
  const call = async (
    method: string,
    path: string,
    options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const response = await fetch(bench.url + path, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return { json, response };
  };
  try {
    const user = {
      userName: 'bench_inv_shop',
      firstName: 'B',
      lastName: 'I',
      email: 'bench_inv_shop@example.com',
      phone: '+15550003331',
      password: 'long enough secret',
    };
    await call('POST', '/api/user/register', { body: user });
    const login = await call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
    const cookie = (login.response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const key = ((await call('POST', '/api/direct/key-generate', { cookie })).json.content as { api_key: string }).api_key;
    const auth = { authorization: `Bearer ${key}` };
    await call('POST', '/api/v1/webhook-endpoints', { headers: auth, body: { url: hookUrl, events: ['invoice.paid'] } });

    // 1. Creation throughput.
    let created = 0;
    let refused = 0;
    const latencies: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < until) {
          const started = performance.now();
          const response = await fetch(`${bench.url}/api/v1/invoices`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `bench-${++next}` },
            body: JSON.stringify({ amount: '1000', reference: `order-${next}` }),
          });
          await response.arrayBuffer();
          latencies.push(performance.now() - started);
          if (response.status === 201) created++;
          else refused++;
        }
      }),
    );
    console.log(`invoices: ${CONNECTIONS} in flight for ${SECONDS} s`);
    console.log(`  created ${created} (${(created / SECONDS).toFixed(0)} invoices/s), refused ${refused}; request ${summary(latencies)}`);

    // 2. Stable deposit → invoice.paid delivered.
    const delays: number[] = [];
    for (let i = 0; i < PAYMENTS; i++) {
      const invoice = (
        await call('POST', '/api/v1/invoices', { headers: { ...auth, 'idempotency-key': `paid-${i}` }, body: { amount: '500' } })
      ).json as { id: string; address: string };
      await network.deposit(invoice.address, 500n);
      const stableAt = performance.now();
      delays.push((await receiver.arrival(invoice.id)) - stableAt);
    }
    console.log(`  stable deposit → invoice.paid received (deposit poll every ${POLL_MS} ms), ${PAYMENTS} invoices: ${summary(delays)}`);
  } finally {
    await network.close();
    await bench.stop();
    await new Promise((done) => receiver.server.close(done));
  }
}

await main();
