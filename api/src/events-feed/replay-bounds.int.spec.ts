// Proves the replay's bound on a real log and Redis, without a whole Quern: a range holding more
// events than one replay may send is refused with 422 and a message saying to narrow it, and
// nothing is appended; a time range after the last event holds none and queues nothing.
import { randomBytes, randomUUID } from 'node:crypto';
import { isAppError, systemClock } from '@quern/core';
import { FEED_REPLAY_MAX } from '@quern/core/events-feed';
import { createWebhookEndpoint } from '@quern/core/webhooks';
import { merchantEventsProjection, startProjections } from '@quern/projections';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { openTempStore, type TempStore } from '@quern/test-support/temp-store';
import { webhookSourceOf } from '@quern/workers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsFeedService } from './service.js';

let temp: TempStore;
let redisServer: RedisServer;
let redis: Redis;

beforeAll(async () => {
  temp = openTempStore('quern-replay-bounds-');
  redisServer = await startPrivateRedis();
  redis = new Redis(redisServer.url);
});
afterAll(async () => {
  redis?.disconnect();
  await redisServer?.stop();
  await temp?.dispose();
});

describe('replay bounds', () => {
  it(`refuses a range of more than ${FEED_REPLAY_MAX} events with 422, appending nothing`, async () => {
    const { store } = temp;
    const deps = { store, clock: systemClock, newId: randomUUID };
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const endpoint = await createWebhookEndpoint(deps, { merchantUserId: 'm1', url: 'https://shop.example/h', events: [], secret });
    // Paid orders as the log indexes them: the bound is checked before any of them is read.
    for (let n = 0; n <= FEED_REPLAY_MAX; n += 1)
      await store.append(
        `checkout-${n}`,
        [{ type: 'CheckoutPaid', data: { orderId: String(n), merchantUserId: 'm1' } } as never],
        'no_stream',
      );
    const last = (await store.readAll({ after: 1000n, maxCount: 1_000 })).at(-1)?.position ?? 0n;
    const runner = startProjections({ store, redis, projections: [merchantEventsProjection] });
    expect(await runner.waitForPosition(last, 30_000)).toBe(true);
    await runner.close();

    const service = createEventsFeedService({
      store,
      redis,
      clock: systemClock,
      mode: 'sandbox',
      publicUrl: 'http://localhost',
      webhookSourceOf,
    });
    const refused = await service.replay('m1', endpoint.endpointId, { from: '0', to: last.toString() }).catch((error: unknown) => error);
    expect(isAppError(refused) && [refused.code, refused.messageKey, refused.params]).toEqual([
      'UNPROCESSABLE',
      'errors:eventsReplayTooMany',
      { max: FEED_REPLAY_MAX },
    ]);
    expect((await store.readAll({ after: last, maxCount: 10 })).length).toBe(0);

    const later = await service.replay('m1', endpoint.endpointId, { from: '2999-01-01', to: '2999-01-02' });
    expect(later).toMatchObject({ events: 0, queued: 0 });
    await expect(service.replay('m2', endpoint.endpointId, { from: '0', to: '5' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  }, 60_000);
});
