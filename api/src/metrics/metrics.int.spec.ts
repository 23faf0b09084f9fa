// /metrics scraped from whole Querns (ADR 053) and read with the test parser: after real traffic
// every family is there and its counters moved (requests per route pattern, appends, webhook
// deliveries delivered and retried); the main app wants the token and answers 404 without one;
// the METRICS_PORT server answers only /metrics; a send waiting for settlement shows as pending,
// as a delayed settlement job and as MLX held out of the reserve's balance.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMlx, SYSTEM_WALLET_IDS } from '@quern/core/wallet';
import { ALL_QUEUES } from '@quern/workers';
import { fundFromReserve, walletDepsFor } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser } from '../../test/users.js';
import { type PrometheusFamily, parsePrometheusText, sampleValue } from '@quern/test-support/prometheus-text';

const TOKEN = randomBytes(24).toString('hex');

/** Every family ADR 053 lists, with its type. */
export const METRIC_FAMILIES: Record<string, PrometheusFamily['type']> = {
  quern_http_requests_total: 'counter',
  quern_http_request_duration_seconds: 'histogram',
  quern_event_store_appends_total: 'counter',
  quern_event_store_appended_events_total: 'counter',
  quern_event_store_append_duration_seconds: 'histogram',
  quern_projection_lag_events: 'gauge',
  quern_projection_lag_seconds: 'gauge',
  quern_queue_jobs: 'gauge',
  quern_webhook_deliveries_total: 'counter',
  quern_settlements_pending: 'gauge',
  quern_reserve_balance_mlx: 'gauge',
  process_resident_memory_bytes: 'gauge',
  nodejs_heap_size_used_bytes: 'gauge',
  nodejs_eventloop_lag_seconds: 'gauge',
  nodejs_eventloop_lag_p99_seconds: 'gauge',
};

async function scrape(url: string, token?: string): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
}

describe('metrics of a whole Quern, after traffic', () => {
  let quern: TestQuern;
  let receiver: Server;
  let receiverUrl = '';
  let calls = 0;

  beforeAll(async () => {
    // Answers 500 to the first webhook, then 200: one retried and one delivered attempt.
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(++calls === 1 ? 500 : 200).end());
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    quern = await startTestQuern({
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: '0',
      REGISTRATIONS_PER_IP_HOUR: '1000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: '200',
    });
  }, 60_000);

  afterAll(async () => {
    await quern?.stop();
    await new Promise((done) => receiver?.close(done));
  });

  it('counts requests by route pattern, appends, and webhook deliveries by outcome', async () => {
    const before = parsePrometheusText((await scrape(`${quern.url}/metrics`, TOKEN)).text);
    const appendsBefore = sampleValue(before, 'quern_event_store_appends_total', { outcome: 'ok' }) ?? 0;

    const shop = await registerUser(quern, 'metrics_shop');
    const shopper = await registerUser(quern, 'metrics_shopper');
    const key = await generateApiKey(quern, shop);
    const endpoint = await quern.call('POST', '/api/v1/webhook-endpoints', {
      headers: { authorization: `Bearer ${key}` },
      body: { url: `${receiverUrl}/hook`, events: ['order.paid'] },
    });
    expect(endpoint.status).toBe(201);
    await fundFromReserve(quern.store, shopper.address, 1_000_000n);
    await eventually(async () => {
      const balance = await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie });
      return balance.body.stable === '1000000' ? true : undefined;
    });
    const paid = await quern.call('POST', '/api/quern/checkout', {
      cookie: shopper.cookie,
      body: { cart: [{ name: 'Tea', price: '1000', quantity: 1 }], price: '1000', currency: 'MLX', to: shop.name },
    });
    expect([paid.status, paid.body.success]).toEqual([200, true]);
    await quern.call('GET', `/api/v1/orders/${randomUUID()}`, { headers: { authorization: 'Bearer qk_wrong' } });
    await quern.call('POST', '/no/such/page/7f3a');
    await quern.call('GET', '/trpc/no.such.procedure');

    const families = await eventually(async () => {
      const scraped = parsePrometheusText((await scrape(`${quern.url}/metrics`, TOKEN)).text);
      return (sampleValue(scraped, 'quern_webhook_deliveries_total', { outcome: 'delivered' }) ?? 0) >= 1 ? scraped : undefined;
    }, 20_000);

    for (const [name, type] of Object.entries(METRIC_FAMILIES)) {
      expect(families.get(name)?.type, name).toBe(type);
      expect(families.get(name)?.samples.length, name).toBeGreaterThan(0);
    }
    expect(sampleValue(families, 'quern_webhook_deliveries_total', { outcome: 'retried' })).toBe(1);
    expect(sampleValue(families, 'quern_webhook_deliveries_total', { outcome: 'given_up' })).toBe(0);
    expect(sampleValue(families, 'quern_event_store_appends_total', { outcome: 'ok' })).toBeGreaterThan(appendsBefore);
    expect(sampleValue(families, 'quern_http_requests_total', { method: 'POST', route: '/api/user/register', status: '200' })).toBe(2);
    expect(sampleValue(families, 'quern_http_requests_total', { method: 'POST', route: '/api/quern/checkout', status: '200' })).toBe(1);
    expect(sampleValue(families, 'quern_http_requests_total', { method: 'GET', route: '/api/v1/orders/:order', status: '401' })).toBe(1);
    expect(sampleValue(families, 'quern_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(families, 'quern_http_requests_total', { route: '/trpc/unknown', status: '404' })).toBe(1);
    // Bounded labels: no raw URL, id or made-up procedure name became a label value.
    const routes = new Set(families.get('quern_http_requests_total')?.samples.map((s) => s.labels.route));
    for (const route of routes) expect(route).not.toMatch(/7f3a|no\.such|[0-9a-f]{8}-[0-9a-f]{4}/);
    // Every projection is reported, and the log is all applied once things are quiet.
    const projections = families.get('quern_projection_lag_events')?.samples.map((s) => s.labels.projection);
    expect(projections).toEqual(
      expect.arrayContaining(['users', 'wallets', 'purchases', 'webhooks', 'merchant-payments', 'subscriptions']),
    );
    const queues = new Set(families.get('quern_queue_jobs')?.samples.map((s) => s.labels.queue));
    // Every queue of the job list is reported, each once.
    expect([...queues].sort()).toEqual([...ALL_QUEUES].sort());
    expect(queues.has('webhook-delivery') && queues.has('settlement')).toBe(true);
    expect(sampleValue(families, 'quern_reserve_balance_mlx')).toBe(1_000_000_000_000 - 1_000_000 - 1000);
  }, 60_000);

  it('catches up: no projection lags once the log is quiet', async () => {
    const families = await eventually(async () => {
      const scraped = parsePrometheusText((await scrape(`${quern.url}/metrics`, TOKEN)).text);
      const lagging = scraped.get('quern_projection_lag_events')?.samples.some((s) => s.value !== 0);
      return lagging ? undefined : scraped;
    });
    for (const sample of families.get('quern_projection_lag_seconds')?.samples ?? []) expect(sample.value).toBe(0);
  });

  it('the main app refuses /metrics without the right token', async () => {
    const none = await scrape(`${quern.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.text).toBe('');
    expect((await scrape(`${quern.url}/metrics`, `${TOKEN}x`)).status).toBe(401);
    const ok = await scrape(`${quern.url}/metrics`, TOKEN);
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('the METRICS_PORT server asks for the token too, and serves nothing but /metrics', async () => {
    const url = quern.metricsUrl as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect((await scrape(url)).status).toBe(401);
    const ok = await scrape(url, TOKEN);
    expect(ok.status).toBe(200);
    expect(parsePrometheusText(ok.text).has('quern_http_requests_total')).toBe(true);
    expect((await scrape(url.replace('/metrics', '/healthz'), TOKEN)).status).toBe(404);
    expect((await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(405);
  });
});

describe('metrics of a Quern without a token, with a send waiting for settlement', () => {
  let quern: TestQuern;

  beforeAll(async () => {
    // Settlement waits ten minutes: the reserved send stays pending for the whole test.
    quern = await startTestQuern({ METRICS_PORT: '0', SETTLEMENT_DELAY_MS: '600000' });
  }, 60_000);

  afterAll(async () => {
    await quern?.stop();
  });

  it('the main app has no /metrics at all', async () => {
    expect((await quern.call('GET', '/metrics')).status).toBe(404);
    expect((await quern.call('GET', '/metrics', { headers: { authorization: 'Bearer anything-at-all' } })).status).toBe(404);
  });

  it('shows the pending settlement, its delayed job and the MLX held out of the reserve', async () => {
    const user = await registerUser(quern, 'metrics_payee');
    const deps = { ...walletDepsFor(quern.store), twoPhaseInternalSends: true };
    await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, { to: { kind: 'address', address: user.address }, amount: 5_000n, fee: 1_000n });
    const families = await eventually(async () => {
      const scraped = parsePrometheusText((await scrape(quern.metricsUrl as string)).text);
      return sampleValue(scraped, 'quern_settlements_pending') === 1 &&
        sampleValue(scraped, 'quern_queue_jobs', { queue: 'settlement', state: 'delayed' }) === 1
        ? scraped
        : undefined;
    });
    expect(sampleValue(families, 'quern_reserve_balance_mlx')).toBe(1_000_000_000_000 - 6_000);
    expect(sampleValue(families, 'quern_queue_jobs', { queue: 'settlement', state: 'failed' })).toBe(0);
  }, 30_000);
});
