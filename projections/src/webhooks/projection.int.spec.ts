// Proves the webhooks read model on a real Redis: each scheduled delivery is listed under its
// endpoint, newest first; pages follow the cursor with has_more; an unknown cursor is an empty
// page; only the latest WEBHOOK_DELIVERIES_KEPT stay; other webhook events change nothing; and a
// malformed WebhookDeliveryScheduled is refused rather than half applied.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CommittedLog, openCommittedLog } from '../../test/committed-log.js';
import { openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { WEBHOOK_DELIVERIES_KEPT, webhooksProjection } from './projection.js';
import { listWebhookDeliveryIds } from './queries.js';

let redis: PrivateRedis;
let log: CommittedLog;

beforeAll(async () => {
  redis = await openPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.redis.flushall();
  log = openCommittedLog(redis.redis, [webhooksProjection]);
});
afterEach(() => {
  log.close();
});

const endpointA = `we_${'a'.repeat(32)}`;
const endpointB = `we_${'b'.repeat(32)}`;
const id = (n: number) => `msg_${n.toString(16).padStart(32, '0')}`;
const scheduled = (n: number, endpointId = endpointA) => ({
  deliveryId: id(n),
  endpointId,
  merchantUserId: 'm1',
  eventType: 'order.paid',
  body: '{}',
  sourceStreamId: 'checkout-x',
  sourceRevision: String(n),
  scheduledAt: '2026-11-24T12:00:00.000Z',
});

describe('webhooks read model', () => {
  it('lists each endpoint its deliveries, newest first, by cursor pages', async () => {
    for (let n = 1; n <= 5; n++) await log.apply('WebhookDeliveryScheduled', scheduled(n));
    await log.apply('WebhookDeliveryScheduled', scheduled(6, endpointB));
    await log.apply('WebhookDeliverySucceeded', { deliveryId: id(1), run: 0, deliveredAt: '2026-11-24T12:00:01.000Z' });
    expect(await listWebhookDeliveryIds(redis.redis, endpointA, { limit: 2 })).toEqual({ ids: [id(5), id(4)], hasMore: true });
    expect(await listWebhookDeliveryIds(redis.redis, endpointA, { limit: 2, startingAfter: id(4) })).toEqual({
      ids: [id(3), id(2)],
      hasMore: true,
    });
    expect(await listWebhookDeliveryIds(redis.redis, endpointA, { limit: 2, startingAfter: id(2) })).toEqual({
      ids: [id(1)],
      hasMore: false,
    });
    expect(await listWebhookDeliveryIds(redis.redis, endpointB, { limit: 10 })).toEqual({ ids: [id(6)], hasMore: false });
    expect(await listWebhookDeliveryIds(redis.redis, endpointA, { limit: 10, startingAfter: id(99) })).toEqual({ ids: [], hasMore: false });
    await expect(listWebhookDeliveryIds(redis.redis, endpointA, { limit: 0 })).rejects.toThrow(RangeError);
  });

  it(`keeps the latest ${WEBHOOK_DELIVERIES_KEPT} deliveries of an endpoint`, async () => {
    const events = Array.from({ length: WEBHOOK_DELIVERIES_KEPT + 5 }, (_, i) => log.event('WebhookDeliveryScheduled', scheduled(i + 1)));
    await log.commit(...events);
    expect(await redis.redis.zcard(`rm:webhooks:deliveries:${endpointA}`)).toBe(WEBHOOK_DELIVERIES_KEPT);
    const oldest = await redis.redis.zrange(`rm:webhooks:deliveries:${endpointA}`, '0', '0');
    expect(oldest).toEqual([id(6)]);
  });

  it('refuses a malformed WebhookDeliveryScheduled', async () => {
    await expect(log.apply('WebhookDeliveryScheduled', { deliveryId: 'nope' })).rejects.toThrow();
    expect(await listWebhookDeliveryIds(redis.redis, endpointA, { limit: 10 })).toEqual({ ids: [], hasMore: false });
  });
});
