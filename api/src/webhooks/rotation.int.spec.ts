// Proves webhook secret rotation through the whole Quern (ADR 056): POST
// /api/v1/webhook-endpoints/{id}/rotate-secret and the web app's webhooks.rotateSecret answer a
// new secret once; the next delivery after a real checkout verifies with the `standardwebhooks`
// library under the old secret AND under the new one; a stranger's or an unknown id is 404 (a
// malformed one 400) and appends nothing; the eleventh rotation within an hour is 429; and neither the event log (its
// raw rows and its file) nor any Redis key holds a secret in the clear after creation and rotation.
// The overlap's end (24 h later) is proven at the delivery job with a moved clock
// (workers/src/webhook-delivery/rotation.int.spec.ts).
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { openRawEventStore } from '@quern/adapters/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

interface User extends TestUser {
  key: string;
}

let quern: TestQuern;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
let shopper: User;

async function register(name: string): Promise<User> {
  const user = await registerUser(quern, name);
  return { ...user, key: await generateApiKey(quern, user) };
}
const bearer = (user: User) => ({ authorization: `Bearer ${user.key}` });

async function createEndpoint(user: User, path: string) {
  const answer = await quern.call('POST', '/api/v1/webhook-endpoints', { headers: bearer(user), body: { url: `${receiverUrl}${path}` } });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; secret: string };
}

const rotate = (user: User, id: string) => quern.call('POST', `/api/v1/webhook-endpoints/${id}/rotate-secret`, { headers: bearer(user) });

async function payAndReceive(to: User, path: string) {
  const before = received.filter((r) => r.path === path).length;
  const body = { cart: [{ name: `Tea ${path}`, price: '1000', quantity: 1 }], price: '1000', currency: 'MLX', to: to.name };
  const answer = await quern.call('POST', '/api/quern/checkout', { cookie: shopper.cookie, body });
  expect([answer.status, answer.body.success]).toEqual([200, true]);
  return eventually(() => received.filter((r) => r.path === path)[before], 20_000);
}

const verifies = (secret: string, hit: { headers: IncomingHttpHeaders; body: string }): boolean => {
  try {
    new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

/** Every value in the private Redis, whatever its type, as one text. */
async function redisDump(): Promise<string> {
  const redis = new Redis(quern.redisUrl);
  try {
    const dump: string[] = [];
    for (const key of await redis.keys('*')) {
      const type = await redis.type(key);
      if (type === 'hash') dump.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === 'string') dump.push((await redis.get(key)) ?? '');
      else if (type === 'zset') dump.push(JSON.stringify(await redis.zrange(key, '0', '-1')));
      else if (type === 'list') dump.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === 'set') dump.push(JSON.stringify(await redis.smembers(key)));
      else if (type === 'stream') dump.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    }
    return dump.join('\n');
  } finally {
    redis.disconnect();
  }
}

/** The log as stored: its raw rows (no personal-data layer) and its files' bytes. */
async function rawLog(): Promise<string> {
  const raw = openRawEventStore({ dataDir: quern.dataDir });
  try {
    const rows = JSON.stringify((await raw.readAll({ maxCount: 10_000 })).map((e) => [e.streamId, e.type, e.data]));
    const bytes = ['events.sqlite', 'events.sqlite-wal']
      .map((file) => {
        try {
          return readFileSync(join(quern.dataDir, file)).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    return `${rows}\n${bytes}`;
  } finally {
    await raw.close();
  }
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  shopper = await register('rot_shopper');
  await fundFromReserve(quern.store, shopper.address, 1_000_000n);
  await eventually(async () => {
    const balance = await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie });
    return balance.body.stable === '1000000' ? true : undefined;
  });
}, 60_000);

afterAll(async () => {
  await quern?.stop();
  await new Promise((done) => receiver?.close(done));
});

describe('webhook secret rotation', () => {
  it('REST: a new secret once; the next delivery verifies with the old and the new secret; the secrets are sealed everywhere', async () => {
    const shop = await register('rot_shop_rest');
    const created = await createEndpoint(shop, '/rest');
    const rotated = await rotate(shop, created.id);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      id: created.id,
      object: 'webhook_endpoint',
      url: `${receiverUrl}/rest`,
      events: [],
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      livemode: false,
    });
    expect(rotated.body.secret).not.toBe(created.secret);
    const list = await quern.call('GET', '/api/v1/webhook-endpoints', { headers: bearer(shop) });
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const hit = await payAndReceive(shop, '/rest');
    expect(String(hit.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(created.secret, hit)).toBe(true);
    expect(verifies(rotated.body.secret, hit)).toBe(true);
    // The verifier is not a rubber stamp: another endpoint's secret fails it.
    const other = await createEndpoint(shop, '/other');
    expect(verifies(other.secret, hit)).toBe(false);

    const secrets = [created.secret, rotated.body.secret, other.secret];
    const log = await rawLog();
    expect(log).toContain('WebhookEndpointSecretRotated');
    for (const secret of secrets) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(secret.slice('whsec_'.length, 30));
    }
    const redis = await redisDump();
    for (const secret of secrets) expect(redis).not.toContain(secret.slice('whsec_'.length, 30));
    // Quern itself still reads them: the log as the api reads it holds them opened.
    const [first] = await quern.store.readStream(`webhook-endpoints-${shop.id}`);
    expect(first?.data.secret).toBe(created.secret);
  });

  it("the web app's procedure rotates too; a stranger's or unknown endpoint is 404 and nothing is appended", async () => {
    const owner = await register('rot_shop_owner');
    const stranger = await register('rot_shop_stranger');
    const endpoint = await createEndpoint(owner, '/trpc');
    const stream = `webhook-endpoints-${owner.id}`;
    const before = (await quern.store.readStream(stream)).length;

    expect((await rotate(stranger, endpoint.id)).status).toBe(404);
    expect((await rotate(owner, `we_${'0'.repeat(32)}`)).status).toBe(404);
    expect((await rotate(owner, 'we_1')).status).toBe(400);
    const theirs = await quern.call('POST', '/trpc/webhooks.rotateSecret', {
      cookie: stranger.cookie,
      body: { id: endpoint.id },
      headers: { origin: quern.url },
    });
    expect(theirs.status).toBe(404);
    expect(await quern.store.readStream(stream)).toHaveLength(before);
    expect(await quern.store.readStream(`webhook-endpoints-${stranger.id}`)).toHaveLength(0);

    const byTrpc = await quern.call('POST', '/trpc/webhooks.rotateSecret', {
      cookie: owner.cookie,
      body: { id: endpoint.id },
      headers: { origin: quern.url },
    });
    expect(byTrpc.status).toBe(200);
    const secret = byTrpc.body.result.data.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(endpoint.secret);
    const hit = await payAndReceive(owner, '/trpc');
    expect([verifies(endpoint.secret, hit), verifies(secret, hit)]).toEqual([true, true]);
  });

  it('the eleventh rotation within an hour is 429 and changes nothing', async () => {
    const shop = await register('rot_shop_limit');
    const endpoint = await createEndpoint(shop, '/limit');
    for (let i = 0; i < 10; i++) expect((await rotate(shop, endpoint.id)).status).toBe(200);
    const before = (await quern.store.readStream(`webhook-endpoints-${shop.id}`)).length;
    const refused = await rotate(shop, endpoint.id);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error' });
    expect(await quern.store.readStream(`webhook-endpoints-${shop.id}`)).toHaveLength(before);
  });
});
