/**
 * Webhook benchmark (run: `node --import tsx bench/webhook.ts`). A merchant registers an endpoint
 * on a local receiver (node:http on 127.0.0.1, so WEBHOOK_ALLOW_PRIVATE_NETWORKS=true); a shopper
 * pays it BENCH_WEBHOOK_PAYMENTS times (default 100, sequentially) through the real checkout call.
 * Prints the latency from the payment's 200 to the webhook's arrival at the receiver (median, p99):
 * log → dispatcher → fan-out job → delivery job → signed POST. The receiver answers 200 at once.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fundFromReserve } from '@quern/api/testing';
import { startBenchQuern } from './bench-quern.js';

const PAYMENTS = Number(process.env.BENCH_WEBHOOK_PAYMENTS ?? 100);
const WAIT_MS_MAX = 30_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `median ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted[sorted.length - 1] ?? Number.NaN)}`;
};

/** The receiver: resolves the waiter of each order id as its order.paid arrives. */
function startReceiver() {
  const arrivals = new Map<string, (at: number) => void>();
  const early = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200).end();
      const order = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { id: string } }).data.id;
      const waiter = arrivals.get(order);
      if (waiter) waiter(at);
      else early.set(order, at);
    });
  });
  const arrival = (order: string) =>
    new Promise<number>((resolve, reject) => {
      const seen = early.get(order);
      if (seen !== undefined) return resolve(seen);
      const timer = setTimeout(() => reject(new Error(`no webhook for ${order} in ${WAIT_MS_MAX} ms`)), WAIT_MS_MAX);
      arrivals.set(order, (at) => {
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
  const bench = await startBenchQuern('webhook', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const quern = bench.quern;
  const url = quern.url as string;
  const call = async (
    method: string,
    path: string,
    options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const response = await fetch(url + path, {
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
  const register = async (name: string, phone: string) => {
    const user = { userName: name, firstName: 'B', lastName: 'W', email: `${name}@example.com`, phone, password: 'long enough secret' };
    await call('POST', '/api/user/register', { body: user });
    const login = await call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
    const cookie = (login.response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { address } = (await call('GET', '/api/millix/address', { cookie })).json as { address: string };
    return { name, cookie, address };
  };
  try {
    const merchant = await register('bench_hook_shop', '+15550002221');
    const shopper = await register('bench_hook_buyer', '+15550002222');
    const key = ((await call('POST', '/api/direct/key-generate', { cookie: merchant.cookie })).json.content as { api_key: string }).api_key;
    await call('POST', '/api/v1/webhook-endpoints', {
      headers: { authorization: `Bearer ${key}` },
      body: { url: hookUrl, events: ['order.paid'] },
    });
    await fundFromReserve(quern.store, shopper.address, 1_000_000_000n);
    while ((await call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie })).json.stable !== '1000000000')
      await new Promise((r) => setTimeout(r, 20));

    const latencies: number[] = [];
    for (let i = 0; i < PAYMENTS; i++) {
      const body = { cart: [{ name: `Tea ${i}`, price: '1000', quantity: 1 }], price: '1000', currency: 'MLX', to: merchant.name };
      const paid = await call('POST', '/api/quern/checkout', { cookie: shopper.cookie, body });
      const answeredAt = performance.now();
      latencies.push((await receiver.arrival(paid.json.order as string)) - answeredAt);
    }
    console.log(`webhooks: ${PAYMENTS} sequential checkout payments, each delivered as order.paid to a local receiver`);
    console.log(`  payment 200 → webhook received: ${summary(latencies)}`);
  } finally {
    await bench.stop();
    await new Promise((done) => receiver.server.close(done));
  }
}

await main();
