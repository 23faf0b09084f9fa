// Proves signed webhooks end to end over real HTTP (ADR 035): a merchant's endpoint receives
// order.paid after a real checkout (and refund.succeeded and payout.completed after a real refund
// and payout), signed so that an independent verifier written here from the
// Standard Webhooks spec (node:crypto, not the signing library) accepts it; a receiver that
// answers 500 then 200 gets the same webhook-id twice and the delivery log shows both attempts;
// a redelivery is a new attempt with the same webhook-id; a 3xx is not followed; a receiver
// slower than the timeout counts as failed; an endpoint subscribed to other types gets nothing;
// and with WEBHOOK_ALLOW_PRIVATE_NETWORKS off, loopback, private and metadata addresses are refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve } from '../../test/ledger.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface User extends TestUser {
  key: string;
}

const TIMEOUT_MS = 1_000;
let quern: TestQuern;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** How many times each path was called, for answers that change (500 then 200). */
const calls = new Map<string, number>();
let shopper: User;

/** The receiver: /ok answers 200, /flaky 500 once then 200, /redirect 302 to /ok, /slow after the timeout. */
function startReceiver(): Promise<void> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const n = (calls.get(path) ?? 0) + 1;
      calls.set(path, n);
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path.startsWith('/flaky') && n === 1) return void res.writeHead(500).end('oops');
      if (path.startsWith('/redirect')) return void res.writeHead(302, { location: `${receiverUrl}/ok-target` }).end();
      if (path.startsWith('/slow')) return void setTimeout(() => res.writeHead(200).end('late'), TIMEOUT_MS * 3).unref();
      res.writeHead(200).end('thanks');
    });
  });
  return new Promise((done) =>
    receiver.listen(0, '127.0.0.1', () => {
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      done();
    }),
  );
}

/**
 * An independent Standard Webhooks verifier: base64-decode the secret after `whsec_`, HMAC-SHA256
 * over `{id}.{timestamp}.{body}`, base64, and compare in constant time with any `v1,` signature
 * of the space-separated header; the timestamp must be within five minutes.
 */
function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id']);
  const timestamp = String(headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .some((s) => {
      const given = Buffer.from(s.slice(3), 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

async function register(name: string): Promise<User> {
  const user = await registerUser(quern, name);
  return { ...user, key: await generateApiKey(quern, user) };
}

const bearer = (user: User) => ({ authorization: `Bearer ${user.key}` });

async function createEndpoint(user: User, path: string, events?: string[]) {
  const answer = await quern.call('POST', '/api/v1/webhook-endpoints', {
    headers: bearer(user),
    body: { url: `${receiverUrl}${path}`, ...(events ? { events } : {}) },
  });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; secret: string; url: string; events: string[] };
}

async function pay(to: User, marker: string): Promise<string> {
  const body = { cart: [{ name: `Tea ${marker}`, price: '120000', quantity: 2 }], price: '240000', currency: 'MLX', to: to.name };
  const answer = await quern.call('POST', '/api/quern/checkout', { cookie: shopper.cookie, body });
  expect([answer.status, answer.body.success]).toEqual([200, true]);
  return answer.body.order as string;
}

const deliveries = async (user: User, endpointId: string) =>
  (await quern.call('GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries`, { headers: bearer(user) })).body;

/** The endpoint's newest delivery once it is no longer pending. */
const settledDelivery = (user: User, endpointId: string) =>
  eventually(async () => {
    const [first] = (await deliveries(user, endpointId)).data ?? [];
    return first && first.status !== 'pending' ? first : undefined;
  }, 20_000);

const receivedAt = (path: string) => received.filter((r) => r.path === path);

beforeAll(async () => {
  await startReceiver();
  quern = await startTestQuern({
    REGISTRATIONS_PER_IP_HOUR: '1000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_RETRY_SCHEDULE_MS: '300,300',
  });
  shopper = await register('hook_shopper');
  await fundFromReserve(quern.store, shopper.address, 10_000_000n);
  await eventually(async () => {
    const balance = await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie });
    return balance.body.stable === '10000000' ? true : undefined;
  });
}, 60_000);

afterAll(async () => {
  await quern?.stop();
  await new Promise((done) => receiver?.close(done));
});

describe('webhook endpoints', () => {
  it('create answers 201 with a whsec_ secret once; the list never shows it; delete removes it', async () => {
    const shop = await register('hook_shop_crud');
    const created = await createEndpoint(shop, '/crud', ['order.paid']);
    expect(created).toEqual({
      id: expect.stringMatching(/^we_[0-9a-f]{32}$/),
      object: 'webhook_endpoint',
      url: `${receiverUrl}/crud`,
      events: ['order.paid'],
      created_at: expect.stringMatching(/^\d{4}-/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      livemode: false,
    });
    const list = await quern.call('GET', '/api/v1/webhook-endpoints', { headers: bearer(shop) });
    const { secret: _, ...listed } = created;
    expect(list.body).toEqual({ object: 'list', data: [listed], livemode: false });
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const gone = await quern.call('DELETE', `/api/v1/webhook-endpoints/${created.id}`, { headers: bearer(shop) });
    expect(gone.body).toEqual({ id: created.id, object: 'webhook_endpoint', deleted: true, livemode: false });
    expect((await quern.call('GET', '/api/v1/webhook-endpoints', { headers: bearer(shop) })).body.data).toEqual([]);
    expect((await quern.call('DELETE', `/api/v1/webhook-endpoints/${created.id}`, { headers: bearer(shop) })).status).toBe(404);
  });

  it("another merchant's endpoint is 404, and bad input is 400 with nothing created", async () => {
    const owner = await register('hook_shop_owner');
    const stranger = await register('hook_shop_stranger');
    const endpoint = await createEndpoint(owner, '/owned');
    expect((await quern.call('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`, { headers: bearer(stranger) })).status).toBe(404);
    const theirs = await quern.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`, { headers: bearer(stranger) });
    expect(theirs.status).toBe(404);
    for (const body of [
      { url: 'ftp://example.com/hook' },
      { url: 'https://user:pw@example.com/hook' },
      { url: 'not a url' },
      { url: `https://example.com/${'a'.repeat(2050)}` },
      { url: 'https://example.com/hook', events: ['order.shipped'] },
      { url: 'https://example.com/hook', extra: 1 },
    ]) {
      const answer = await quern.call('POST', '/api/v1/webhook-endpoints', { headers: bearer(stranger), body });
      expect([JSON.stringify(body), answer.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await quern.call('GET', '/api/v1/webhook-endpoints', { headers: bearer(stranger) })).body.data).toEqual([]);
  });
});

describe('deliveries', () => {
  it('order.paid after a real checkout, signed so that an independent verifier accepts it', async () => {
    const shop = await register('hook_shop_ok');
    const all = await createEndpoint(shop, '/ok');
    const refundsOnly = await createEndpoint(shop, '/refunds-only', ['refund.succeeded']);
    const order = await pay(shop, 'ok');
    const delivery = await settledDelivery(shop, all.id);
    expect(delivery).toMatchObject({ object: 'webhook_delivery', endpoint: all.id, event_type: 'order.paid', status: 'delivered' });
    expect(delivery.attempts).toEqual([
      {
        run: 0,
        attempt: 1,
        started_at: expect.any(String),
        duration_ms: expect.any(Number),
        status_code: 200,
        error: null,
        delivered: true,
      },
    ]);
    const [hit] = receivedAt('/ok');
    expect(hit?.headers['webhook-id']).toBe(delivery.id);
    expect(hit?.headers['content-type']).toBe('application/json');
    expect(verifyStandardWebhook(all.secret, hit?.headers ?? {}, hit?.body ?? '')).toBe(true);
    // The verifier is not a rubber stamp: another secret or a changed body fails it.
    expect(verifyStandardWebhook(refundsOnly.secret, hit?.headers ?? {}, hit?.body ?? '')).toBe(false);
    expect(verifyStandardWebhook(all.secret, hit?.headers ?? {}, `${hit?.body ?? ''} `)).toBe(false);
    const payload = JSON.parse(hit?.body ?? '{}');
    // The order as the merchant API answers it, livemode included, and livemode on the payload (ADR 050).
    expect(payload).toEqual({
      type: 'order.paid',
      timestamp: expect.stringMatching(/^\d{4}-/),
      livemode: false,
      data: (await quern.call('GET', `/api/v1/orders/${order}`, { headers: bearer(shop) })).body,
    });
    expect(payload.data.livemode).toBe(false);
    expect(payload.data).toMatchObject({ id: order, amount: '240000', currency: 'MLX', status: 'paid' });
    expect((await deliveries(shop, refundsOnly.id)).data).toEqual([]);
    expect(receivedAt('/refunds-only')).toEqual([]);
  });

  it('a real refund and a real payout through the merchant API reach the endpoint as refund.succeeded and payout.completed', async () => {
    const shop = await register('hook_shop_money');
    const endpoint = await createEndpoint(shop, '/money', ['refund.succeeded', 'payout.completed']);
    const order = await pay(shop, 'money');
    const refund = await quern.call('POST', '/api/v1/refunds', {
      headers: { ...bearer(shop), 'idempotency-key': 'hook-refund-1' },
      body: { order, amount: '40000' },
    });
    expect(refund.status).toBe(201);
    const payout = await quern.call('POST', '/api/v1/payouts', {
      headers: { ...bearer(shop), 'idempotency-key': 'hook-payout-1' },
      body: { to: shopper.name, amount: '50000' },
    });
    expect([payout.status, payout.body.status]).toEqual([201, 'completed']);
    const bodies = await eventually(async () => {
      const hits = receivedAt('/money');
      return hits.length >= 2 ? hits : undefined;
    }, 20_000);
    const payloads = bodies.map((hit) => {
      expect(verifyStandardWebhook(endpoint.secret, hit.headers, hit.body)).toBe(true);
      return JSON.parse(hit.body);
    });
    const byType = Object.fromEntries(payloads.map((p) => [p.type, p.data]));
    expect(Object.keys(byType).sort()).toEqual(['payout.completed', 'refund.succeeded']);
    expect(byType['refund.succeeded']).toMatchObject({ id: refund.body.id, object: 'refund', order, amount: '40000', status: 'succeeded' });
    expect(byType['payout.completed']).toMatchObject({
      id: payout.body.id,
      object: 'payout',
      amount: '50000',
      fee: '1000',
      status: 'completed',
    });
    // order.paid was not asked for, so only the two arrived.
    expect(receivedAt('/money')).toHaveLength(2);
  });

  it('a 500 then a 200: two attempts with the same webhook-id; a redelivery is a third with it again', async () => {
    const shop = await register('hook_shop_flaky');
    const endpoint = await createEndpoint(shop, '/flaky');
    await pay(shop, 'flaky');
    const delivery = await settledDelivery(shop, endpoint.id);
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map((a: { status_code: number; delivered: boolean }) => [a.status_code, a.delivered])).toEqual([
      [500, false],
      [200, true],
    ]);
    expect(receivedAt('/flaky').map((r) => r.headers['webhook-id'])).toEqual([delivery.id, delivery.id]);
    expect(new Set(receivedAt('/flaky').map((r) => r.body)).size).toBe(1);

    const again = await quern.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/redeliver`, {
      headers: bearer(shop),
    });
    expect([again.status, again.body.id]).toEqual([200, delivery.id]);
    const redelivered = await eventually(async () => {
      const [first] = (await deliveries(shop, endpoint.id)).data;
      return first.attempts.length === 3 && first.status === 'delivered' ? first : undefined;
    }, 20_000);
    expect(redelivered.attempts[2]).toMatchObject({ run: 1, attempt: 1, status_code: 200, delivered: true });
    expect(receivedAt('/flaky').map((r) => r.headers['webhook-id'])).toEqual([delivery.id, delivery.id, delivery.id]);
    const unknown = await quern.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/msg_${'0'.repeat(32)}/redeliver`, {
      headers: bearer(shop),
    });
    expect(unknown.status).toBe(404);
  });

  it('a 3xx is a failed attempt and its Location is not followed', async () => {
    const shop = await register('hook_shop_redirect');
    const endpoint = await createEndpoint(shop, '/redirect');
    await pay(shop, 'redirect');
    const delivery = await settledDelivery(shop, endpoint.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.map((a: { status_code: number; error: string }) => [a.status_code, a.error])).toEqual([
      [302, 'http_status'],
      [302, 'http_status'],
      [302, 'http_status'],
    ]);
    expect(receivedAt('/ok-target')).toEqual([]);
  });

  it('a receiver slower than the timeout counts as failed', async () => {
    const shop = await register('hook_shop_slow');
    const endpoint = await createEndpoint(shop, '/slow');
    await pay(shop, 'slow');
    const delivery = await settledDelivery(shop, endpoint.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.map((a: { status_code: number | null; error: string }) => [a.status_code, a.error])).toEqual([
      [null, 'timeout'],
      [null, 'timeout'],
      [null, 'timeout'],
    ]);
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE_NETWORKS off', () => {
  let strict: TestQuern;
  beforeAll(async () => {
    strict = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
  }, 60_000);
  afterAll(async () => {
    await strict?.stop();
  });

  it('refuses loopback, private, link-local and IPv6 loopback URLs, and a name resolving to loopback', async () => {
    const user = {
      userName: 'hook_strict',
      firstName: 'S',
      lastName: 'T',
      email: 'hook_strict@example.com',
      phone: '+15552999999',
      password: 'long enough secret',
    };
    expect((await strict.call('POST', '/api/user/register', { body: user })).status).toBe(200);
    const cookie = cookieOf(
      (await strict.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } })).setCookie,
    );
    const key = (await strict.call('POST', '/api/direct/key-generate', { cookie })).body.content.api_key as string;
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[::ffff:192.168.0.1]/hook',
      'http://100.64.0.1/hook',
      'http://localhost:3000/hook',
    ]) {
      const answer = await strict.call('POST', '/api/v1/webhook-endpoints', { headers: { authorization: `Bearer ${key}` }, body: { url } });
      expect([url, answer.status, answer.body.error.code]).toEqual([url, 400, 'webhook_url_private']);
    }
    expect((await strict.call('GET', '/api/v1/webhook-endpoints', { headers: { authorization: `Bearer ${key}` } })).body.data).toEqual([]);
  });
});
