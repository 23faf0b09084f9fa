// Proves secret rotation at the delivery job (ADR 056) with the real sender over HTTP and a
// receiver that verifies with the `standardwebhooks` library: right after a rotation a delivery
// verifies with the old secret AND with the new one; 24 hours later (the clock moved) only with
// the new one; a second rotation within the overlap stops the oldest secret at once; and a secret
// never issued verifies nothing. The clock is Date itself (faked), so the library's five-minute
// timestamp check sees the same time as the job that signed.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { EventStore } from '@quern/core';
import { createWebhookEndpoint, fanOutWebhook, rotateWebhookSecret, WEBHOOK_SECRET_OVERLAP_MS } from '@quern/core/webhooks';
import { sendWebhookAttempt } from '@quern/adapters/webhooks';
import { openTempStore, type TempStore } from '../../test/store.js';
import type { ResumableJob } from '../job/resumable.js';
import { deliverWebhook } from './job.js';

let temp: TempStore;
let store: EventStore;
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const clock = { now: () => new Date() };
let uuid = 0;
let position = 1_000n;
const core = () => ({ store, clock, newId: () => `00000000-0000-0000-0000-${String(++uuid).padStart(12, '0')}` });
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const job = (deliveryId: string): ResumableJob => ({
  data: { deliveryId, run: 0 },
  updateData: async () => {},
  runAgainAt: async () => {
    throw new Error('the receiver answers 200: no retry expected');
  },
});

/** One event to the merchant's endpoints, delivered now; the receiver's copy of it. */
async function deliverOne(merchant: string): Promise<{ headers: IncomingHttpHeaders; body: string }> {
  position += 1_000n;
  const [deliveryId] = await fanOutWebhook(
    { store, clock, mode: 'sandbox' },
    {
      event: { streamId: `checkout-${merchant}`, revision: position, position },
      merchantUserId: merchant,
      webhook: {
        type: 'refund.succeeded',
        data: { id: 're', object: 'refund', order: 'o', amount: '1', currency: 'MLX', status: 'succeeded', created_at: 't' },
      },
      occurredAt: 't',
    },
  );
  if (!deliveryId) throw new Error('no delivery scheduled');
  const before = received.length;
  const deps = {
    store,
    clock,
    logger: { info: () => {}, error: () => {} } as never,
    send: sendWebhookAttempt,
    retryScheduleMs: [1_000],
    timeoutMs: 5_000,
    allowPrivateNetworks: true,
  };
  expect(await deliverWebhook(job(deliveryId), deps)).toBe('delivered');
  expect(received.length).toBe(before + 1);
  return received.at(-1) as { headers: IncomingHttpHeaders; body: string };
}

const verifies = (secret: string, delivery: { headers: IncomingHttpHeaders; body: string }): boolean => {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  temp = openTempStore();
  store = temp.store;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await new Promise((done) => receiver.close(done));
  await temp.dispose();
});

describe('webhook secret rotation at delivery', () => {
  it('signs with the old and the new secret for 24 hours, then with the new one only', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-24T12:00:00.000Z'));
    const original = newSecret();
    const endpoint = await createWebhookEndpoint(core(), { merchantUserId: 'm1', url: receiverUrl, events: [], secret: original });
    const before = await deliverOne('m1');
    expect([verifies(original, before), before.headers['webhook-signature']?.toString().split(' ').length]).toEqual([true, 1]);

    vi.setSystemTime(Date.parse('2026-11-24T13:00:00.000Z'));
    const rotated = newSecret();
    await rotateWebhookSecret(core(), { merchantUserId: 'm1', endpointId: endpoint.endpointId, secret: rotated });
    const during = await deliverOne('m1');
    expect(during.headers['webhook-signature']?.toString().split(' ')).toHaveLength(2);
    expect([verifies(original, during), verifies(rotated, during), verifies(newSecret(), during)]).toEqual([true, true, false]);

    // A minute before the overlap ends: both still sign.
    vi.setSystemTime(Date.parse('2026-11-24T13:00:00.000Z') + WEBHOOK_SECRET_OVERLAP_MS - 60_000);
    const late = await deliverOne('m1');
    expect([verifies(original, late), verifies(rotated, late)]).toEqual([true, true]);

    vi.setSystemTime(Date.parse('2026-11-24T13:00:00.000Z') + WEBHOOK_SECRET_OVERLAP_MS);
    const after = await deliverOne('m1');
    expect(after.headers['webhook-signature']?.toString().split(' ')).toHaveLength(1);
    expect([verifies(original, after), verifies(rotated, after)]).toEqual([false, true]);
  });

  it('a second rotation within the overlap stops the oldest secret at once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-25T12:00:00.000Z'));
    const first = newSecret();
    const endpoint = await createWebhookEndpoint(core(), { merchantUserId: 'm2', url: receiverUrl, events: [], secret: first });
    const second = newSecret();
    await rotateWebhookSecret(core(), { merchantUserId: 'm2', endpointId: endpoint.endpointId, secret: second });
    vi.setSystemTime(Date.parse('2026-11-25T18:00:00.000Z'));
    const third = newSecret();
    await rotateWebhookSecret(core(), { merchantUserId: 'm2', endpointId: endpoint.endpointId, secret: third });
    const delivery = await deliverOne('m2');
    expect([verifies(first, delivery), verifies(second, delivery), verifies(third, delivery)]).toEqual([false, true, true]);
    // The second secret's overlap counts from the rotation that replaced it (18:00), not the one that issued it.
    vi.setSystemTime(Date.parse('2026-11-26T17:00:00.000Z'));
    const later = await deliverOne('m2');
    expect([verifies(second, later), verifies(third, later)]).toEqual([true, true]);
  });

  it("another merchant's endpoint cannot be rotated, and nothing is appended", async () => {
    const endpoint = await createWebhookEndpoint(core(), { merchantUserId: 'm3', url: receiverUrl, events: [], secret: newSecret() });
    const before = await store.readStream('webhook-endpoints-m3');
    await expect(
      rotateWebhookSecret(core(), { merchantUserId: 'm4', endpointId: endpoint.endpointId, secret: newSecret() }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await store.readStream('webhook-endpoints-m3')).toHaveLength(before.length);
    expect(await store.readStream('webhook-endpoints-m4')).toHaveLength(0);
  });

  it('reads the endpoints once, admits the call once the endpoint is known, and never answers the replaced secret', async () => {
    const endpoint = await createWebhookEndpoint(core(), { merchantUserId: 'm5', url: receiverUrl, events: [], secret: newSecret() });
    await rotateWebhookSecret(core(), { merchantUserId: 'm5', endpointId: endpoint.endpointId, secret: newSecret() });
    const reads: string[] = [];
    const counting: EventStore = Object.create(store, {
      readStream: {
        value: (streamId: string, ...rest: unknown[]) => {
          reads.push(streamId);
          return (store.readStream as (...args: unknown[]) => ReturnType<EventStore['readStream']>)(streamId, ...rest);
        },
      },
    });
    let admitted = 0;
    const admit = async () => {
      admitted += 1;
    };
    const secret = newSecret();
    const rotated = await rotateWebhookSecret(
      { ...core(), store: counting },
      { merchantUserId: 'm5', endpointId: endpoint.endpointId, secret, admit },
    );
    expect(rotated).toEqual({ endpointId: endpoint.endpointId, url: receiverUrl, events: [], secret, createdAt: endpoint.createdAt });
    expect(reads).toEqual(['webhook-endpoints-m5']);
    expect(admitted).toBe(1);
    // A wrong id is refused before the caller's admission (its rate limit) is consulted.
    await expect(
      rotateWebhookSecret(core(), {
        merchantUserId: 'm5',
        endpointId: 'we_missing',
        secret: newSecret(),
        admit,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(admitted).toBe(1);
  });
});
