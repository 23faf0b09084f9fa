/**
 * Purchase benchmark (run: `node --import tsx bench/purchase.ts`). Drives the spec's buy flow over
 * HTTP against the local PayPal server, as the Buy screen does: create the order
 * (POST /api/paypal/orders), approve it in the PayPal popup's endpoint, then capture
 * (POST /api/paypal/orders/{id}/capture: the capture worker captures through the log) and claim
 * the credit (POST /api/reserve/transfer), and poll the dashboard's balance until the MLX shows.
 * Prints the approve → credited-and-visible latency (median, p99) and, separately, the capture
 * call's latency, over BENCH_PURCHASES sequential purchases (default 100).
 */
import { startBenchQuern } from './bench-quern.js';

const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 100);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `median ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted[sorted.length - 1] ?? Number.NaN)}`;
};

async function main() {
  const bench = await startBenchQuern('purchase');
  const quern = bench.quern;
  const url = quern.url as string;
  const call = async (method: string, path: string, cookie?: string, body?: unknown) => {
    const response = await fetch(url + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return { json, response };
  };
  try {
    const user = {
      userName: 'bench_buyer',
      firstName: 'B',
      lastName: 'B',
      email: 'bench_buyer@example.com',
      phone: '+15550001111',
      password: 'long enough secret',
    };
    await call('POST', '/api/user/register', undefined, user);
    const login = await call('POST', '/api/user/login', undefined, { email: user.email, password: user.password });
    const cookie = (login.response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { address } = (await call('GET', '/api/millix/address', cookie)).json as { address: string };
    const balance = async () => BigInt((await call('GET', `/api/millix/balance/${address}`, cookie)).json.stable as string);

    const endToEnd: number[] = [];
    const captureCall: number[] = [];
    let expected = await balance();
    for (let i = 0; i < PURCHASES; i++) {
      const order = (
        await call('POST', '/api/paypal/orders', cookie, { cart: [{ id: 'millix', quantity: 1, value: '10.00', currency_code: 'USD' }] })
      ).json;
      const orderId = order.id as string;
      await call('POST', '/paypal-local/checkoutnow/approve', cookie, { token: orderId });
      const approvedAt = performance.now();
      const captured = (await call('POST', `/api/paypal/orders/${orderId}/capture`, cookie)).json as {
        purchase_units: Array<{ payments: { captures: Array<{ id: string }> } }>;
      };
      captureCall.push(performance.now() - approvedAt);
      const captureId = captured.purchase_units[0]?.payments.captures[0]?.id;
      if (!captureId) throw new Error(`order ${orderId} was not captured in time`);
      await call('POST', '/api/reserve/transfer', cookie, { id: captureId, amount: order.amount });
      expected += BigInt(order.amount as string);
      while ((await balance()) !== expected) await new Promise((r) => setTimeout(r, 2));
      endToEnd.push(performance.now() - approvedAt);
    }
    console.log(`purchases: ${PURCHASES} sequential purchases of 10 USD through the local PayPal server`);
    console.log(`  approve → credited and visible on the dashboard: ${summary(endToEnd)}`);
    console.log(`  of which the capture call (log → worker → PayPal → log): ${summary(captureCall)}`);
  } finally {
    await bench.stop();
  }
}

await main();
