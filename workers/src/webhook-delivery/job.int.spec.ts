// Proves the delivery job's schedule against a real SQLite log with a controlled clock and sender:
// a failed attempt is recorded and the job asks to run again when the next pause ends; a run that
// comes early sends nothing and waits for that time; success ends the run; the last allowed
// failure gives up; a deleted endpoint ends the run without another POST; every attempt carries
// the delivery id as its webhook-id and the same body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '@quern/core';
import { createWebhookEndpoint, deleteWebhookEndpoint, fanOutWebhook, loadWebhookDelivery } from '@quern/core/webhooks';
import { ERASED } from '@quern/core/personal-data';
import type { WebhookAttemptInput, WebhookAttemptResult } from '@quern/adapters/webhooks';
import { openTempStore, type TempStore } from '../../test/store.js';
import type { ResumableJob } from '../job/resumable.js';
import { deliverWebhook, type WebhookDeliveryDeps } from './job.js';

let temp: TempStore;
let store: EventStore;
let nowMs = Date.parse('2026-11-24T12:00:00.000Z');
const clock = { now: () => new Date(nowMs) };
let uuid = 0;
let position = 1_000n;
const sent: WebhookAttemptInput[] = [];
let answers: WebhookAttemptResult[] = [];
const logger = { info: () => {}, error: () => {} };

class RunAgain extends Error {
  constructor(readonly atMs: number) {
    super('run again');
  }
}
const job = (deliveryId: string, run = 0): ResumableJob => ({
  data: { deliveryId, run },
  updateData: async () => {},
  runAgainAt: async (atMs) => {
    throw new RunAgain(atMs);
  },
});

/** What the job told the metrics, in order (ADR 053). */
const outcomes: string[] = [];

const deps = (): WebhookDeliveryDeps => ({
  store,
  clock,
  logger: logger as never,
  send: async (input) => {
    sent.push(input);
    return answers.shift() ?? { delivered: true, statusCode: 200 };
  },
  retryScheduleMs: [1_000, 60_000],
  timeoutMs: 10_000,
  allowPrivateNetworks: true,
  onOutcome: (outcome) => outcomes.push(outcome),
});

/** A merchant with one endpoint and one delivery scheduled to it. */
async function scheduled(merchant: string): Promise<{ deliveryId: string; endpointId: string }> {
  const endpoint = await createWebhookEndpoint(
    { store, clock, newId: () => `00000000-0000-0000-0000-${String(++uuid).padStart(12, '0')}` },
    { merchantUserId: merchant, url: 'https://shop.example/hook', events: [], secret: `whsec_${'A'.repeat(43)}=` },
  );
  position += 1_000n;
  const [deliveryId] = await fanOutWebhook(
    { store, clock, mode: 'sandbox' },
    {
      event: { streamId: `checkout-${merchant}`, revision: 0n, position },
      merchantUserId: merchant,
      webhook: {
        type: 'refund.succeeded',
        data: { id: 're', object: 'refund', order: 'o', amount: '1', currency: 'MLX', status: 'succeeded', created_at: 't' },
      },
      occurredAt: 't',
    },
  );
  if (!deliveryId) throw new Error('no delivery scheduled');
  return { deliveryId, endpointId: endpoint.endpointId };
}

const run = (deliveryId: string) =>
  deliverWebhook(job(deliveryId), deps()).catch((e: unknown) => (e instanceof RunAgain ? e : Promise.reject(e)));

beforeAll(() => {
  temp = openTempStore();
  store = temp.store;
});
afterAll(async () => {
  await temp.dispose();
});

describe('deliverWebhook', () => {
  it('retries after the pause, waits when run early, and ends on success with one webhook-id', async () => {
    const { deliveryId } = await scheduled('m1');
    sent.length = 0;
    outcomes.length = 0;
    answers = [{ delivered: false, statusCode: 500, error: 'http_status' }];
    const startedMs = nowMs;
    expect(await run(deliveryId)).toEqual(new RunAgain(startedMs + 1_000));
    nowMs += 500;
    expect(await run(deliveryId)).toEqual(new RunAgain(startedMs + 1_000));
    expect(sent).toHaveLength(1);
    nowMs += 600;
    expect(await run(deliveryId)).toBe('delivered');
    expect(await run(deliveryId)).toBe('already-ended');
    expect(sent.map((s) => s.webhookId)).toEqual([deliveryId, deliveryId]);
    expect(new Set(sent.map((s) => s.body)).size).toBe(1);
    const { state } = await loadWebhookDelivery(store, deliveryId);
    expect(state.runs[0]?.attempts.map((a) => [a.attempt, a.statusCode, a.delivered])).toEqual([
      [1, 500, false],
      [2, 200, true],
    ]);
    expect(state.runs[0]?.outcome).toBe('succeeded');
    // The early run that found its attempt not due, and the run after the end, are not counted.
    expect(outcomes).toEqual(['retried', 'delivered']);
  });

  it('gives up after the last attempt the schedule allows', async () => {
    const { deliveryId } = await scheduled('m2');
    outcomes.length = 0;
    answers = [0, 1, 2].map(() => ({ delivered: false, error: 'timeout' }));
    expect(await run(deliveryId)).toBeInstanceOf(RunAgain);
    nowMs += 1_000;
    expect(await run(deliveryId)).toBeInstanceOf(RunAgain);
    nowMs += 60_000;
    expect(await run(deliveryId)).toBe('failed');
    const { state } = await loadWebhookDelivery(store, deliveryId);
    expect([state.runs[0]?.attempts.length, state.runs[0]?.outcome]).toEqual([3, 'failed']);
    expect(outcomes).toEqual(['retried', 'retried', 'given_up']);
  });

  it('a deleted endpoint ends the run without another POST', async () => {
    const { deliveryId, endpointId } = await scheduled('m3');
    outcomes.length = 0;
    answers = [{ delivered: false, statusCode: 503, error: 'http_status' }];
    expect(await run(deliveryId)).toBeInstanceOf(RunAgain);
    await deleteWebhookEndpoint({ store, clock, newId: () => 'x' }, 'm3', endpointId);
    const before = sent.length;
    nowMs += 1_000;
    expect(await run(deliveryId)).toBe('endpoint-deleted');
    expect(sent.length).toBe(before);
    const events = await store.readStream(`webhook-delivery-${deliveryId}`);
    expect(events.at(-1)?.data).toMatchObject({ reason: 'endpoint_deleted' });
    expect(outcomes).toEqual(['retried', 'abandoned']);
  });

  it('an endpoint whose secret was erased ends the run without a POST, and is counted as abandoned', async () => {
    const { deliveryId } = await scheduled('m4');
    outcomes.length = 0;
    const before = sent.length;
    // What the sealing store reads once the merchant's key is erased: the secret as ERASED.
    const erasing: EventStore = Object.create(store, {
      readStream: {
        value: async (streamId: string, ...rest: unknown[]) => {
          const events = await (store.readStream as (...args: unknown[]) => ReturnType<EventStore['readStream']>)(streamId, ...rest);
          return streamId.startsWith('webhook-endpoints-')
            ? events.map((e) => ({ ...e, data: { ...(e.data as object), ...('secret' in (e.data as object) ? { secret: ERASED } : {}) } }))
            : events;
        },
      },
    });
    const result = await deliverWebhook(job(deliveryId), { ...deps(), store: erasing });
    expect(result).toBe('endpoint-deleted');
    expect(sent.length).toBe(before);
    const events = await store.readStream(`webhook-delivery-${deliveryId}`);
    expect(events.at(-1)?.data).toMatchObject({ reason: 'endpoint_deleted' });
    expect(outcomes).toEqual(['abandoned']);
  });
});
