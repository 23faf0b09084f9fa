// Proves the events feed over real HTTP on a real log (issue 28, ADR 088): a merchant's paid order,
// refund, payout, subscription start and cancellation, invoice payments, invoice refunds (canceled,
// and claimed to an outside wallet with its payout), and webhook endpoint changes appear once each, in
// log order, each `data` equal to what the delivered webhook of that type carried (and never a
// secret); another merchant's events never appear; pages of 3 walked while events are being written
// have no gap and no duplicate; the server-sent stream, cut off mid-way and resumed with Last-Event-
// ID, sees every event exactly once; the sixth concurrent stream is refused; a replay reaches a real
// local receiver signed so that the `standardwebhooks` library verifies it, with the original
// deliveries' ids (and, for an endpoint made later, the ids the fan-out would have given), and bad
// replays are refused, nothing queued.
import { request as httpRequest, createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openSimulatedNetwork, type SimulatedNetwork, simulatedNetworkFile } from '@quern/adapters/millix';
import { createAddress, parseAddress } from '@quern/core/wallet';
import { webhookDeliveryId } from '@quern/core/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

interface Merchant extends TestUser {
  key: string;
}
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
interface FeedEvent {
  id: string;
  object: 'event';
  type: string;
  cursor: string;
  created_at: string;
  livemode: boolean;
  data: Record<string, unknown>;
}

let quern: TestQuern;
let network: SimulatedNetwork;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let shopper: TestUser;
let subscriber: TestUser;
let keys = 0;

const bearer = (m: Merchant) => ({ authorization: `Bearer ${m.key}` });
const receivedAt = (path: string) => received.filter((r) => r.path === path);

function startReceiver(): Promise<void> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  return new Promise((done) =>
    receiver.listen(0, '127.0.0.1', () => {
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      done();
    }),
  );
}

async function merchant(name: string): Promise<Merchant> {
  const user = await registerUser(quern, name);
  return { ...user, key: await generateApiKey(quern, user) };
}

async function funded(name: string): Promise<TestUser> {
  const user = await registerUser(quern, name);
  await fundFromReserve(quern.store, user.address, 10_000_000n);
  await eventually(async () => {
    const balance = await quern.call('GET', `/api/millix/balance/${user.address}`, { cookie: user.cookie });
    return balance.body.stable === '10000000' ? true : undefined;
  });
  return user;
}

async function createEndpoint(m: Merchant, path: string, events?: string[]) {
  const answer = await quern.call('POST', '/api/v1/webhook-endpoints', {
    headers: bearer(m),
    body: { url: `${receiverUrl}${path}`, ...(events ? { events } : {}) },
  });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; secret: string; url: string; events: string[]; created_at: string };
}

async function pay(to: Merchant, marker: string): Promise<string> {
  const body = { cart: [{ name: `Tea ${marker}`, price: '120000', quantity: 2 }], price: '240000', currency: 'MLX', to: to.name };
  const answer = await quern.call('POST', '/api/quern/checkout', { cookie: shopper.cookie, body });
  expect([answer.status, answer.body.success]).toEqual([200, true]);
  return answer.body.order as string;
}

const events = (m: Merchant, query = '') => quern.call('GET', `/api/v1/events${query}`, { headers: bearer(m) });

/** Every event of the merchant, walked by pages of `limit`. */
async function allEvents(m: Merchant, limit = 1000, types?: string): Promise<FeedEvent[]> {
  const all: FeedEvent[] = [];
  let after: string | null = null;
  for (;;) {
    const query = new URLSearchParams({ limit: String(limit), ...(after ? { after } : {}), ...(types ? { types } : {}) });
    const page = await events(m, `?${query}`);
    expect(page.status).toBe(200);
    all.push(...(page.body.data as FeedEvent[]));
    if (!page.body.has_more) return all;
    after = page.body.next_cursor as string;
  }
}

/** The merchant's events once `ready` holds for them (the read model follows the log). */
const eventsOnce = (m: Merchant, ready: (all: FeedEvent[]) => boolean, timeoutMs = 20_000) =>
  eventually(async () => {
    const all = await allEvents(m);
    return ready(all) ? all : undefined;
  }, timeoutMs);

/** A stream's messages as they come: its id, event name and parsed data. */
interface StreamMessage {
  id: string;
  event: string;
  data: FeedEvent;
}

/** Opens the stream; `onMessage` sees each message; resolves with the response once headers arrive. */
function openStream(
  m: Merchant,
  headers: Record<string, string>,
  onMessage: (message: StreamMessage) => void,
): Promise<{ response: IncomingMessage; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${quern.url}/api/v1/events/stream`, { headers: { ...bearer(m), ...headers } }, (response) => {
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          const data = fields.get('data');
          if (fields.has('id') && data !== undefined)
            onMessage({ id: fields.get('id') as string, event: fields.get('event') ?? '', data: JSON.parse(data) });
        }
      });
      response.on('error', () => {});
      resolve({ response, close: () => req.destroy() });
    });
    req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
    req.end();
  });
}

/** An address of a wallet outside Quern, on the deployment's network (the shop's). */
function outsideAddress(seed: number): string {
  const parsed = parseAddress(shop.address);
  if (!parsed.ok) throw new Error('The shop has no valid address');
  return createAddress(new Uint8Array(20).fill(seed), parsed.network);
}

let shop: Merchant;
let other: Merchant;
let allEndpoint: { id: string; secret: string };
let rotatedSecret: string;
let order: string;
let invoiceId: string;

beforeAll(async () => {
  await startReceiver();
  quern = await startTestQuern({
    REGISTRATIONS_PER_IP_HOUR: '1000',
    API_KEY_REQUESTS_PER_MINUTE: '100000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    DEPOSIT_POLL_INTERVAL_MS: '50',
  });
  network = openSimulatedNetwork({ file: simulatedNetworkFile(quern.dataDir), confirmDelayMs: 200 });
  shopper = await funded('feed_shopper');
  subscriber = await funded('feed_subscriber');
  shop = await merchant('feed_shop');
  other = await merchant('feed_other');
}, 90_000);

afterAll(async () => {
  await network?.close();
  await quern?.stop();
  await new Promise((done) => receiver?.close(done));
});

describe('the events feed', () => {
  it('holds every kind of merchant event once, in log order, each with the data its webhook carried', async () => {
    allEndpoint = await createEndpoint(shop, '/all');
    const rotated = await quern.call('POST', `/api/v1/webhook-endpoints/${allEndpoint.id}/rotate-secret`, { headers: bearer(shop) });
    expect(rotated.status).toBe(200);
    rotatedSecret = rotated.body.secret;
    order = await pay(shop, 'feed');
    const refund = await quern.call('POST', '/api/v1/refunds', {
      headers: { ...bearer(shop), 'idempotency-key': 'feed-refund-1' },
      body: { order, amount: '40000' },
    });
    expect(refund.status).toBe(201);
    const payout = await quern.call('POST', '/api/v1/payouts', {
      headers: { ...bearer(shop), 'idempotency-key': 'feed-payout-1' },
      body: { to: shopper.name, amount: '50000' },
    });
    expect([payout.status, payout.body.status]).toEqual([201, 'completed']);
    const plan = await quern.call('POST', '/api/subscription-plans/create', {
      cookie: shop.cookie,
      body: { name: 'Feed tier', description: 'Monthly', price: 1_000, currency: 'mlx', duration: 'monthly' },
    });
    const subscribed = await quern.call('POST', '/api/subscriptions/create', {
      cookie: subscriber.cookie,
      body: { subscription_plan_id: plan.body.id, expected_price: 1_000 },
    });
    expect(subscribed.status).toBe(200);
    const cancelled = await quern.call('POST', '/api/subscriptions/cancel', {
      cookie: subscriber.cookie,
      body: { id: subscribed.body.content.id },
    });
    expect(cancelled.body.content.status).toBe('cancelled');
    const invoice = await quern.call('POST', '/api/v1/invoices', {
      headers: { ...bearer(shop), 'idempotency-key': `feed-inv-${++keys}` },
      body: { amount: '7000', reference: 'feed-77' },
    });
    invoiceId = invoice.body.id;
    await network.deposit(invoice.body.address, 7000n);
    await eventually(async () => {
      const now = await quern.call('GET', `/api/v1/invoices/${invoiceId}`, { headers: bearer(shop) });
      return now.body.status === 'paid' ? true : undefined;
    }, 20_000);
    const invoiceRefund = await quern.call('POST', `/api/v1/invoices/${invoiceId}/refunds`, {
      headers: { ...bearer(shop), 'idempotency-key': `feed-inv-${++keys}` },
      body: { amount: '1000' },
    });
    expect(invoiceRefund.status).toBe(201);
    const canceled = await quern.call('POST', `/api/v1/invoices/${invoiceId}/refunds/${invoiceRefund.body.id}/cancel`, {
      headers: bearer(shop),
    });
    expect(canceled.status).toBe(200);
    const temporary = await createEndpoint(shop, '/temporary', ['order.paid']);
    expect((await quern.call('DELETE', `/api/v1/webhook-endpoints/${temporary.id}`, { headers: bearer(shop) })).status).toBe(200);
    // Another merchant's order, paid by the same shopper, in the middle of the shop's log.
    const otherOrder = await pay(other, 'elsewhere');
    // A refund the payer claims to a wallet outside Quern: its payout completes once the network has it.
    const claimable = await quern.call('POST', `/api/v1/invoices/${invoiceId}/refunds`, {
      headers: { ...bearer(shop), 'idempotency-key': `feed-inv-${++keys}` },
      body: { amount: '2000' },
    });
    expect(claimable.status).toBe(201);
    const link = new URL(claimable.body.claim_url);
    const claimed = await quern.call('POST', '/trpc/invoices.claimRefund', {
      body: { refundId: claimable.body.id, token: link.hash.slice(1), address: outsideAddress(41) },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(claimed.status).toBe(200);

    const expected = [
      'webhook_endpoint.created',
      'webhook_endpoint.secret_rotated',
      'order.paid',
      'refund.succeeded',
      'payout.completed',
      'subscription.created',
      'subscription.cancelled',
      'invoice.processing',
      'invoice.paid',
      'invoice.refund_created',
      'invoice.refund_canceled',
      'webhook_endpoint.created',
      'webhook_endpoint.deleted',
      'invoice.refund_created',
      'invoice.refund_claimed',
      'payout.completed',
    ];
    const feed = await eventsOnce(shop, (all) => all.length >= expected.length, 40_000);
    expect(feed.map((e) => e.type)).toEqual(expected);
    const cursors = feed.map((e) => BigInt(e.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(feed.map((e) => e.id)).size).toBe(feed.length);
    for (const event of feed) {
      expect(event).toMatchObject({ object: 'event', livemode: false });
      expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(JSON.stringify(event)).not.toContain('whsec_');
    }
    const [created, rotatedEvent] = feed;
    expect(created?.data).toEqual({
      id: allEndpoint.id,
      object: 'webhook_endpoint',
      url: `${receiverUrl}/all`,
      events: [],
      created_at: expect.any(String),
      livemode: false,
    });
    expect(rotatedEvent?.data.id).toBe(allEndpoint.id);
    expect(feed.find((e) => e.type === 'webhook_endpoint.deleted')?.data).toMatchObject({
      id: temporary.id,
      deleted: true,
      events: ['order.paid'],
    });
    expect(feed.find((e) => e.type === 'invoice.refund_claimed')?.data).toMatchObject({
      id: invoiceId,
      refunds: [expect.objectContaining({ status: 'canceled' }), expect.objectContaining({ id: claimable.body.id, status: 'pending' })],
    });
    const invoicePaid = feed.find((e) => e.type === 'invoice.paid');
    const refundCreated = feed.find((e) => e.type === 'invoice.refund_created');
    // Each invoice event describes the invoice as it was then: paid and not yet refunded, then with its refund.
    expect(invoicePaid?.data).toMatchObject({ id: invoiceId, status: 'paid', refunds: [] });
    expect(refundCreated?.data).toMatchObject({ id: invoiceId, refunds: [expect.objectContaining({ amount_mlx: '1000' })] });

    // The webhook types: the feed's data is what the delivered webhook carried, to the byte once parsed.
    const webhookEvents = feed.filter((e) => !e.type.startsWith('webhook_endpoint.') && !e.type.startsWith('invoice.refund_'));
    const bodies = await eventually(() => {
      const hits = receivedAt('/all');
      return hits.length >= webhookEvents.length ? hits.map((h) => JSON.parse(h.body)) : undefined;
    }, 30_000);
    for (const event of webhookEvents) {
      const body = bodies.find((b) => b.type === event.type && b.data.id === event.data.id);
      expect(event.data, `${event.type} ${event.data.id}`).toEqual(body?.data);
    }
    const payouts = feed.filter((e) => e.type === 'payout.completed');
    expect(payouts.map((e) => e.data.to)).toEqual([shopper.name, outsideAddress(41)]);

    // The other merchant sees only their own order.
    const theirs = await eventsOnce(other, (all) => all.length >= 1);
    expect(theirs.map((e) => [e.type, e.data.id])).toEqual([['order.paid', otherOrder]]);
    expect(feed.some((e) => e.data.id === otherOrder)).toBe(false);
  }, 120_000);

  it('filters by type, bounds limit, and refuses unknown types and malformed cursors with a message', async () => {
    const orders = await allEvents(shop, 1000, 'order.paid,refund.succeeded');
    expect(orders.map((e) => e.type)).toEqual(['order.paid', 'refund.succeeded']);
    const first = await events(shop, '?limit=1');
    expect(first.body).toMatchObject({ object: 'list', has_more: true, livemode: false });
    expect(first.body.next_cursor).toBe(first.body.data[0].cursor);
    const unknown = await events(shop, '?types=order.paid,order.shipped');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('comma-separated list of event types');
    for (const query of ['?limit=1001', '?limit=0', '?after=-1', '?after=abc', '?after=01'])
      expect((await events(shop, query)).status, query).toBe(400);
    const empty = await events(shop, '?after=18446744073709551615');
    expect(empty.body).toMatchObject({ data: [], has_more: false, next_cursor: '18446744073709551615' });
    const none = await merchant('feed_nobody');
    expect((await events(none)).body).toMatchObject({ data: [], has_more: false, next_cursor: null });
    expect((await quern.call('GET', '/api/v1/events')).status).toBe(401);
  });

  it('pages of 3 walked while events are written have no gap and no duplicate', async () => {
    const busy = await merchant('feed_busy');
    await createEndpoint(busy, '/busy-0');
    let writing = true;
    const writer = (async () => {
      for (let i = 1; i <= 15; i += 1) {
        const endpoint = await createEndpoint(busy, `/busy-${i}`, ['order.paid']);
        await quern.call('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`, { headers: bearer(busy) });
      }
      writing = false;
    })();
    const walked: FeedEvent[] = [];
    let after: string | null = null;
    const walk = async (): Promise<boolean> => {
      const query = new URLSearchParams({ limit: '3', ...(after ? { after } : {}) });
      const page = await events(busy, `?${query}`);
      expect(page.status).toBe(200);
      walked.push(...page.body.data);
      after = page.body.next_cursor ?? after;
      return page.body.has_more;
    };
    while (writing) if (!(await walk())) await new Promise((r) => setTimeout(r, 20));
    await writer;
    const all = await eventsOnce(busy, (found) => found.length === 31);
    while (await walk());
    expect(walked.map((e) => e.id)).toEqual(all.map((e) => e.id));
  }, 60_000);

  it('the stream cut off mid-way and resumed with Last-Event-ID sees every event exactly once', async () => {
    const live = await merchant('feed_live');
    for (let i = 0; i < 4; i += 1) await createEndpoint(live, `/live-${i}`);
    await eventsOnce(live, (all) => all.length === 4);
    const seen: StreamMessage[] = [];
    const first = await openStream(live, {}, (message) => seen.push(message));
    expect(first.response.statusCode).toBe(200);
    expect(first.response.headers['content-type']).toMatch(/^text\/event-stream/);
    await eventually(() => (seen.length >= 4 ? true : undefined));
    first.close();
    const lastId = seen.at(-1)?.id as string;
    // Written while no stream is open, then more once it is back.
    await createEndpoint(live, '/live-4');
    const second = await openStream(live, { 'last-event-id': lastId }, (message) => seen.push(message));
    expect(second.response.statusCode).toBe(200);
    await createEndpoint(live, '/live-5');
    await eventually(() => (seen.length >= 6 ? true : undefined), 20_000);
    await new Promise((r) => setTimeout(r, 700));
    second.close();
    const all = await allEvents(live);
    expect(seen.map((m) => m.id)).toEqual(all.map((e) => e.cursor));
    expect(seen.map((m) => m.data.id)).toEqual(all.map((e) => e.id));
    expect(seen.every((m) => m.event === 'webhook_endpoint.created' && m.data.livemode === false)).toBe(true);
    const badResume = await quern.call('GET', '/api/v1/events/stream', { headers: { ...bearer(live), 'last-event-id': 'yesterday' } });
    expect(badResume.status).toBe(400);
  }, 60_000);

  it('refuses a sixth concurrent stream of one merchant with 429, and takes one again once a stream closes', async () => {
    const many = await merchant('feed_many');
    const open = await Promise.all(Array.from({ length: 5 }, () => openStream(many, {}, () => {})));
    expect(open.map((s) => s.response.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await quern.call('GET', '/api/v1/events/stream', { headers: bearer(many) });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.message).toContain('5 event streams open');
    open[0]?.close();
    const again = await eventually(async () => {
      const next = await openStream(many, {}, () => {});
      if (next.response.statusCode === 200) return next;
      next.close();
      return undefined;
    });
    for (const stream of [...open.slice(1), again]) stream.close();
  });
});

describe('replaying a range to an endpoint', () => {
  const verified = (secret: string, hit: Received) => {
    new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>);
    return JSON.parse(hit.body);
  };

  it('redelivers to an endpoint with the original ids, signed; a later endpoint gets the ids the fan-out would have given', async () => {
    // The order, its refund and the first payout (the invoice refund's payout comes later in the log).
    const feed = (await allEvents(shop, 1000, 'order.paid,refund.succeeded,payout.completed')).slice(0, 3);
    expect(feed.map((e) => e.type)).toEqual(['order.paid', 'refund.succeeded', 'payout.completed']);
    const from = feed[0]?.cursor as string;
    const to = feed[2]?.cursor as string;
    const originals = receivedAt('/all').filter((h) => {
      const body = JSON.parse(h.body);
      return feed.some((e) => e.type === body.type && e.data.id === body.data.id);
    });
    expect(originals).toHaveLength(3);
    const before = received.length;
    const replay = await quern.call('POST', `/api/v1/webhook-endpoints/${allEndpoint.id}/replay`, {
      headers: bearer(shop),
      body: { from, to },
    });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ object: 'webhook_replay', endpoint: allEndpoint.id, events: 3, livemode: false });
    expect(replay.body.queued + replay.body.already_pending).toBe(3);
    expect(replay.body.queued).toBeGreaterThan(0);
    const replayed = await eventually(() => {
      const hits = received.slice(before).filter((h) => h.path === '/all');
      return hits.length >= replay.body.queued ? hits : undefined;
    }, 30_000);
    for (const hit of replayed) {
      const original = originals.find((o) => o.headers['webhook-id'] === hit.headers['webhook-id']);
      expect(original, String(hit.headers['webhook-id'])).toBeDefined();
      expect(hit.body).toBe(original?.body);
      expect(verified(rotatedSecret, hit).type).toBe(JSON.parse(original?.body ?? '{}').type);
    }

    // An endpoint created after the events: each is delivered for the first time, under the id the fan-out would have used.
    const later = await createEndpoint(shop, '/later', ['order.paid']);
    const first = await quern.call('POST', `/api/v1/webhook-endpoints/${later.id}/replay`, {
      headers: bearer(shop),
      body: { from: '0', to: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(first.body).toMatchObject({ events: 1, queued: 1, already_pending: 0 });
    const hit = await eventually(() => receivedAt('/later')[0]);
    const paid = (await quern.store.readAll({ maxCount: 10_000 })).find((e) => e.type === 'CheckoutPaid' && e.data.orderId === order);
    expect(paid).toBeDefined();
    expect(hit.headers['webhook-id']).toBe(webhookDeliveryId(later.id, { streamId: paid?.streamId ?? '', revision: paid?.revision ?? 0n }));
    expect(verified(later.secret, hit).data).toEqual(feed[0]?.data);
  }, 60_000);

  it('answers 404 for an unknown, deleted or other merchant endpoint and 400 for a reversed or malformed range, queuing nothing', async () => {
    const before = received.length;
    const body = { from: '0', to: '99999999' };
    const otherEndpoint = await createEndpoint(other, '/other');
    for (const id of [`we_${'0'.repeat(32)}`, otherEndpoint.id]) {
      const answer = await quern.call('POST', `/api/v1/webhook-endpoints/${id}/replay`, { headers: bearer(shop), body });
      expect(answer.status, id).toBe(404);
    }
    const gone = await createEndpoint(shop, '/gone');
    await quern.call('DELETE', `/api/v1/webhook-endpoints/${gone.id}`, { headers: bearer(shop) });
    expect((await quern.call('POST', `/api/v1/webhook-endpoints/${gone.id}/replay`, { headers: bearer(shop), body })).status).toBe(404);
    const reversed = await quern.call('POST', `/api/v1/webhook-endpoints/${allEndpoint.id}/replay`, {
      headers: bearer(shop),
      body: { from: '2026-03-02', to: '2026-03-01' },
    });
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.message).toBe('from must not be after to.');
    for (const bad of [{ from: 'soon', to: '5' }, { from: '5' }, { from: 5, to: 6 }]) {
      const answer = await quern.call('POST', `/api/v1/webhook-endpoints/${allEndpoint.id}/replay`, { headers: bearer(shop), body: bad });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(received.slice(before).filter((h) => h.path !== '/other')).toEqual([]);
  });
});
