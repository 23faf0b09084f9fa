// Proves the merchant events read model on a real Redis and a real log: each merchant's entries come
// oldest first, only of the types asked, after a cursor and up to a bound, with `hasMore` at a page
// edge; a subscription's later events (which name only the subscription) go to the provider its
// start named; other events and another merchant's are apart; a read while a rebuild holds the
// checkpoint is refused rather than answered partial; and a rebuild from the log gives the same keys.
import { payoutTransferId } from '@quern/core/payouts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fenceValue } from '../checkpoint.js';
import { rebuildProjections } from '../rebuild.js';
import { startProjections } from '../runner.js';
import { DEFAULT_CHECKPOINT_KEY } from '../types.js';
import { dumpKeys } from '../../test/redis-dump.js';
import { captureLog, openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { openTempStore } from '../../test/store.js';
import { merchantEventsProjection } from './projection.js';
import { merchantEventPositionAtTime, ReadModelsRebuildingError, readMerchantEvents } from './queries.js';

let redis: PrivateRedis;

beforeAll(async () => {
  redis = await openPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.redis.flushall();
});

const endpointId = (n: number) => `we_${n.toString(16).padStart(32, '0')}`;
const created = (merchant: string, n: number) => ({
  type: 'WebhookEndpointCreated',
  data: { endpointId: endpointId(n), merchantUserId: merchant, url: 'https://x.example/h', events: [], secret: 'x', createdAt: 't' },
});

/** A log of two merchants' events, projected by the runner; answers the store and the positions by name. */
async function projectedLog() {
  const temp = openTempStore();
  const { store } = temp;
  await store.append('webhook-endpoints-m1', [created('m1', 1) as never], 'no_stream');
  await store.append('checkout-a', [{ type: 'CheckoutPaid', data: { orderId: 'a', merchantUserId: 'm1' } } as never], 'no_stream');
  await store.append('webhook-endpoints-m2', [created('m2', 2) as never], 'no_stream');
  await store.append(
    'subscription-sub_1',
    [{ type: 'SubscriptionStarted', data: { subscriptionId: 'sub_1', providerUserId: 'm1', subscriberUserId: 's' } } as never],
    'no_stream',
  );
  await store.append('wallet-m1', [{ type: 'TransferPosted', data: { walletId: 'm1', transferId: 'send-1' } } as never], 'no_stream');
  await store.append(
    'wallet-m1',
    [{ type: 'TransferPosted', data: { walletId: 'm1', transferId: payoutTransferId(`po_${'1'.repeat(32)}`) } } as never],
    0n,
  );
  await store.append('subscription-sub_1', [{ type: 'SubscriptionRenewed', data: { subscriptionId: 'sub_1' } } as never], 0n);
  await store.append('subscription-sub_1', [{ type: 'SubscriptionCancelled', data: { subscriptionId: 'sub_1' } } as never], 1n);
  // A subscription whose start is not in the log makes no entry: nobody is known to own it.
  await store.append('subscription-sub_2', [{ type: 'SubscriptionRenewed', data: { subscriptionId: 'sub_2' } } as never], 'no_stream');
  const all = await store.readAll({ after: 0n, maxCount: 1_000 });
  const runner = startProjections({ store, redis: redis.redis, projections: [merchantEventsProjection], logger: captureLog().logger });
  await expect(runner.waitForPosition(all.at(-1)?.position ?? 0n, 20_000)).resolves.toBe(true);
  await runner.close();
  return { temp, all };
}

describe('merchant events read model', () => {
  it("given two merchants' events, when read, then each gets only theirs, in log order, by type, cursor and bound", async () => {
    const { temp, all } = await projectedLog();
    try {
      const everything = [
        'webhook_endpoint.created',
        'order.paid',
        'payout.completed',
        'subscription.created',
        'subscription.renewed',
        'subscription.cancelled',
      ] as const;
      const m1 = await readMerchantEvents(redis.redis, 'm1', { limit: 100, types: everything });
      expect(m1.refs.map((r) => r.type)).toEqual([
        'webhook_endpoint.created',
        'order.paid',
        'subscription.created',
        'payout.completed',
        'subscription.renewed',
        'subscription.cancelled',
      ]);
      expect(m1.hasMore).toBe(false);
      const positions = m1.refs.map((r) => r.position);
      expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
      expect(m1.refs[1]).toEqual({ position: all[1]?.position, streamId: 'checkout-a', revision: 0n, type: 'order.paid' });
      const m2 = await readMerchantEvents(redis.redis, 'm2', { limit: 100, types: everything });
      expect(m2.refs.map((r) => r.streamId)).toEqual(['webhook-endpoints-m2']);

      const page = await readMerchantEvents(redis.redis, 'm1', { limit: 2, types: everything });
      expect([page.refs.length, page.hasMore]).toEqual([2, true]);
      const next = await readMerchantEvents(redis.redis, 'm1', { after: page.refs[1]?.position, limit: 2, types: everything });
      expect(next.refs.map((r) => r.type)).toEqual(['subscription.created', 'payout.completed']);
      const bounded = await readMerchantEvents(redis.redis, 'm1', { upTo: next.refs[0]?.position, limit: 100, types: everything });
      expect(bounded.refs).toHaveLength(3);
      const subscriptions = await readMerchantEvents(redis.redis, 'm1', {
        limit: 100,
        types: ['subscription.renewed', 'subscription.cancelled'],
      });
      expect(subscriptions.refs.map((r) => r.streamId)).toEqual(['subscription-sub_1', 'subscription-sub_1']);
      await expect(readMerchantEvents(redis.redis, 'm1', { limit: 1_001, types: everything })).rejects.toThrow(RangeError);
      const recordedMs = Date.parse(all[0]?.recordedAt ?? '');
      expect(await merchantEventPositionAtTime(redis.redis, 'm1', recordedMs - 1, 'first')).toBe(all[0]?.position);
      expect(await merchantEventPositionAtTime(redis.redis, 'm1', recordedMs - 1, 'last')).toBeUndefined();

      await redis.redis.set(DEFAULT_CHECKPOINT_KEY, fenceValue('test'));
      await expect(readMerchantEvents(redis.redis, 'm1', { limit: 10, types: everything })).rejects.toThrow(ReadModelsRebuildingError);
    } finally {
      await temp.dispose();
    }
  });

  it('given a log projected live, when rebuilt from position 0, then every key and value is the same', async () => {
    const { temp } = await projectedLog();
    try {
      const live = await dumpKeys(redis.redis, 'rm:*');
      expect(Object.keys(live).length).toBeGreaterThan(4);
      await rebuildProjections({ store: temp.store, redis: redis.redis, projections: [merchantEventsProjection], pageSize: 3 });
      expect(await dumpKeys(redis.redis, 'rm:*')).toEqual(live);
    } finally {
      await temp.dispose();
    }
  });
});
