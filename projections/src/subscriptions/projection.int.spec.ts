// Proves the plans and subscriptions read model on a real Redis, from events the real handlers
// wrote to a real SQLite log: a provider's live plans with their current terms (a deleted plan
// leaves the list), a user's subscriptions newest first, a plan's subscriptions with subscriber
// and status through cancel and end; the as-of read waits for the checkpoint; a malformed event
// is refused; and a rebuild from position 0 gives the same keys and values.
import { type Clock, createKeyedSerializer } from '@quern/core';
import { createPlan, deletePlan, updatePlan } from '@quern/core/plans';
import { cancelSubscription, subscribe } from '@quern/core/subscriptions';
import { identityPayeeDirectory } from '@quern/core/identity';
import {
  ensureSystemWallets,
  openUserWallet,
  SYSTEM_WALLET_IDS,
  sendMlx,
  settleInternalTransfer,
  type WalletDeps,
} from '@quern/core/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectionApplyError } from '../commit.js';
import { rebuildProjections } from '../rebuild.js';
import { startProjections } from '../runner.js';
import { openCommittedLog } from '../../test/committed-log.js';
import { dumpKeys } from '../../test/redis-dump.js';
import { captureLog, openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { openTempStore } from '../../test/store.js';
import { subscriptionsProjection } from './projection.js';
import { pagePlansOfProvider, pageSubscriptionIdsOfSubscriber, pageSubscriptionsOfPlan, subscriptionIdsOfPlanAsOf } from './queries.js';
import { transferTermsBook } from '@quern/core/transfer-references';

let redis: PrivateRedis;
beforeAll(async () => {
  redis = await openPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});

const terms = (name: string, price: bigint) => ({
  name,
  description: `${name} tier`,
  price,
  currency: 'mlx' as const,
  duration: 'monthly' as const,
});

describe('subscriptions read model', () => {
  it('follows plans and subscriptions written by the handlers, and a rebuild gives the same keys', async () => {
    await redis.redis.flushall();
    const temp = openTempStore();
    let nowMs = Date.parse('2026-05-01T12:00:00.000Z');
    const clock: Clock = {
      now: () => {
        nowMs += 1_000;
        return new Date(nowMs);
      },
    };
    let n = 0;
    const deps: WalletDeps = {
      store: temp.store,
      transferTerms: transferTermsBook,
      clock,
      newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
      newKeyIdentifier: () => new Uint8Array(20).fill(n++ % 250),
      network: 'mainnet',
      payees: identityPayeeDirectory({ store: temp.store }),
      serialize: createKeyedSerializer(),
    };
    try {
      await ensureSystemWallets(deps, { supplyMlx: 10_000_000n, reserveFundingMlx: 5_000_000n });
      const addresses = new Map<string, string>();
      for (const user of ['prov', 'alice', 'bob']) addresses.set(user, await openUserWallet(deps, user));
      for (const user of ['alice', 'bob']) {
        const sent = await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, {
          to: { kind: 'address', address: addresses.get(user) as string },
          amount: 100_000n,
          fee: 1000n,
        });
        await settleInternalTransfer(deps, SYSTEM_WALLET_IDS.reserve, sent.transferId);
      }
      const gold = (await createPlan(deps, 'prov', terms('Gold', 5_000n))).plan.planId;
      const silver = (await createPlan(deps, 'prov', terms('Silver', 1_000n))).plan.planId;
      const gone = (await createPlan(deps, 'prov', terms('Gone', 1_000n))).plan.planId;
      await updatePlan(deps, 'prov', gold, terms('Gold+', 6_000n));
      await deletePlan(deps, 'prov', gone);
      const a = (await subscribe(deps, 'alice', { subscription_plan_id: gold })).state.subscriptionId;
      const b = (await subscribe(deps, 'bob', { subscription_plan_id: gold })).state.subscriptionId;
      const a2 = (await subscribe(deps, 'alice', { subscription_plan_id: silver })).state.subscriptionId;
      await cancelSubscription(deps, 'bob', b);

      const projections = [subscriptionsProjection];
      const runner = startProjections({ store: temp.store, redis: redis.redis, projections, logger: captureLog().logger });
      const last = (await temp.store.readAll({ after: 0n, maxCount: 1_000 })).at(-1)?.position ?? 0n;
      await expect(runner.waitForPosition(last, 20_000)).resolves.toBe(true);
      await runner.close();

      const { plans } = await pagePlansOfProvider(redis.redis, 'prov', { limit: 1_000 });
      expect(plans.map((p) => [p.name, p.price, p.provider_id])).toEqual([
        ['Gold+', 6000, 'prov'],
        ['Silver', 1000, 'prov'],
      ]);
      expect((await pageSubscriptionIdsOfSubscriber(redis.redis, 'alice', { limit: 1_000 })).ids).toEqual([a2, a]);
      expect((await pageSubscriptionsOfPlan(redis.redis, gold, { limit: 1_000 })).rows).toEqual([
        { subscriptionId: a, subscriberUserId: 'alice', status: 'active' },
        { subscriptionId: b, subscriberUserId: 'bob', status: 'cancelled' },
      ]);
      expect(await subscriptionIdsOfPlanAsOf(redis.redis, gold, last)).toEqual([a, b]);
      expect(await subscriptionIdsOfPlanAsOf(redis.redis, gold, last + 1n)).toBeUndefined();

      const live = await dumpKeys(redis.redis, 'rm:*');
      await rebuildProjections({ store: temp.store, redis: redis.redis, projections, pageSize: 7 });
      expect(await dumpKeys(redis.redis, 'rm:*')).toEqual(live);
    } finally {
      await temp.dispose();
    }
  });

  it('given a malformed plan or subscription event, when committed, then it is refused and writes nothing', async () => {
    await redis.redis.flushall();
    const log = openCommittedLog(redis.redis, [subscriptionsProjection]);
    try {
      await expect(log.commit(log.event('PlanCreated', { planId: 'not-a-uuid' }))).rejects.toThrow(ProjectionApplyError);
      await expect(log.commit(log.event('SubscriptionStarted', { subscriptionId: 'x' }))).rejects.toThrow(ProjectionApplyError);
      expect(await dumpKeys(redis.redis, 'rm:*')).toEqual({});
      expect(await log.checkpoint()).toBeNull();
    } finally {
      log.close();
    }
  });
});
