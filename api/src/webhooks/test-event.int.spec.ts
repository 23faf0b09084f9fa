// Proves 'Send test event' through the whole Quern (issue 25, ADR 060): POST
// /api/v1/webhook-endpoints/{id}/test and the web app's webhooks.sendTest send a `test.ping` to
// that endpoint only, through the real delivery path: the receiver gets it signed (it verifies
// with the endpoint's secret, `webhook-id` = the delivery id), with `livemode` as every webhook,
// and the delivery shows in the endpoint's log as delivered; another merchant's endpoint or an
// unknown id is 404 (a malformed id 400) and appends nothing; the eleventh test within a minute
// on one endpoint is 429 with Retry-After, while another endpoint is not affected.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';
import { WEBHOOK_TESTS_PER_MINUTE } from './service.js';

interface User extends TestUser {
  key: string;
}

let quern: TestQuern;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
let shop: User;
let other: User;

async function register(name: string): Promise<User> {
  const user = await registerUser(quern, name);
  return { ...user, key: await generateApiKey(quern, user) };
}
const bearer = (user: User) => ({ authorization: `Bearer ${user.key}` });
async function createEndpoint(user: User, path: string) {
  const answer = await quern.call('POST', '/api/v1/webhook-endpoints', {
    headers: bearer(user),
    body: { url: `${receiverUrl}${path}`, events: ['order.paid'] },
  });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; secret: string };
}
const sendTest = (user: User, id: string) => quern.call('POST', `/api/v1/webhook-endpoints/${id}/test`, { headers: bearer(user) });
const testDeliveries = async () =>
  (await quern.store.readAll({ maxCount: 10_000 })).filter(
    (e) => e.type === 'WebhookDeliveryScheduled' && (e.data as { eventType: string }).eventType === 'test.ping',
  ).length;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  shop = await register('tst_shop');
  other = await register('tst_other');
}, 60_000);

afterAll(async () => {
  await quern?.stop();
  await new Promise((done) => receiver?.close(done));
});

describe('sending a test event to a webhook endpoint', () => {
  it('REST: the receiver gets a signed test.ping for that endpoint, and the log shows it delivered', async () => {
    const endpoint = await createEndpoint(shop, '/rest');
    const answer = await sendTest(shop, endpoint.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'webhook_delivery', endpoint: endpoint.id, event_type: 'test.ping', status: 'pending' });
    const hit = await eventually(() => received.find((r) => r.path === '/rest'), 20_000);
    expect(hit.headers['webhook-id']).toBe(answer.body.id);
    const payload = new Webhook(endpoint.secret).verify(hit.body, hit.headers as Record<string, string>);
    expect(payload).toEqual({
      type: 'test.ping',
      timestamp: expect.any(String),
      livemode: false,
      data: { id: answer.body.id, object: 'test_event', endpoint: endpoint.id, livemode: false },
    });
    const log = await eventually(async () => {
      const page = await quern.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`, { headers: bearer(shop) });
      return page.body.data[0]?.status === 'delivered' ? page.body : undefined;
    }, 20_000);
    expect(log.data[0]).toMatchObject({ id: answer.body.id, event_type: 'test.ping', attempts: [{ status_code: 204, delivered: true }] });
  });

  it('tRPC: the web app sends one too, answered as the new delivery', async () => {
    const endpoint = await createEndpoint(shop, '/trpc');
    const answer = await quern.call('POST', '/trpc/webhooks.sendTest', { cookie: shop.cookie, body: { id: endpoint.id } });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).toContain('"event_type":"test.ping"');
    await eventually(() => received.find((r) => r.path === '/trpc'), 20_000);
  });

  it("refuses another merchant's endpoint and an unknown id with 404, a malformed id with 400; nothing is sent", async () => {
    const endpoint = await createEndpoint(shop, '/refused');
    const before = await testDeliveries();
    expect((await sendTest(other, endpoint.id)).status).toBe(404);
    expect((await sendTest(shop, `we_${'0'.repeat(32)}`)).status).toBe(404);
    expect((await sendTest(shop, 'we_1')).status).toBe(400);
    const trpc = await quern.call('POST', '/trpc/webhooks.sendTest', { cookie: other.cookie, body: { id: endpoint.id } });
    expect(trpc.status).toBe(404);
    expect(await testDeliveries()).toBe(before);
    expect(received.some((r) => r.path === '/refused')).toBe(false);
  });

  it('allows 10 tests per endpoint per minute, then answers 429 with Retry-After; another endpoint still may', async () => {
    const busy = await createEndpoint(shop, '/busy');
    const calm = await createEndpoint(shop, '/calm');
    for (let n = 1; n <= WEBHOOK_TESTS_PER_MINUTE; n++) expect((await sendTest(shop, busy.id)).status, `test ${n}`).toBe(200);
    const before = await testDeliveries();
    const refused = await sendTest(shop, busy.id);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await testDeliveries()).toBe(before);
    expect((await sendTest(shop, calm.id)).status).toBe(200);
  });
});
