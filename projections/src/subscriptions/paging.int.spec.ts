// Proves the cursor pages of the plans and subscriptions read model (ADR 057) on a real Redis
// with more than 1,000 items: a plan's 1,234 subscriptions (oldest first) and a subscriber's
// (newest first) are each reached exactly once, page after page, even when items are added while
// the walk goes on (they come after the cursor, or before it, never twice); the last page says so;
// every id of a list is read however many there are; a limit out of range is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommittedLog, openCommittedLog } from '../../test/committed-log.js';
import { openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { subscriptionsProjection } from './projection.js';
import { allSubscriptionIdsOfSubscriber, type IdPage, pageSubscriptionIdsOfSubscriber, pageSubscriptionsOfPlan } from './queries.js';

let redis: PrivateRedis;
let log: CommittedLog;
const PLAN = '00000000-0000-4000-8000-000000000001';
const COUNT = 1_234;
const subscriptionId = (n: number) => `sub_${n.toString(16).padStart(24, '0')}`;
const started = (n: number) =>
  log.event('SubscriptionStarted', {
    subscriptionId: subscriptionId(n),
    period: 1,
    attempt: 1,
    priceMlx: '1000',
    transferId: `t-${n}`,
    chargedAt: '2026-05-01T00:00:00.000Z',
    paidThrough: '2026-06-01T00:00:00.000Z',
    billingDay: 1,
    planId: PLAN,
    providerUserId: 'provider',
    subscriberUserId: 'subscriber',
    generation: 1,
    planName: 'Gold',
  });

beforeAll(async () => {
  redis = await openPrivateRedis();
  log = openCommittedLog(redis.redis, [subscriptionsProjection]);
  const events = Array.from({ length: COUNT }, (_, i) => started(i + 1));
  for (let i = 0; i < events.length; i += 500) await log.commit(...events.slice(i, i + 500));
}, 60_000);
afterAll(async () => {
  log.close();
  await redis.stop();
});

/** Walks a list page by page; `between` runs after each page (to add items mid-walk). */
async function walk(read: (after: bigint | undefined) => Promise<IdPage>, between?: (page: number) => Promise<void>) {
  const seen: string[] = [];
  let after: bigint | undefined;
  for (let page = 0; page < 100; page++) {
    const { ids, next } = await read(after);
    seen.push(...ids);
    if (next === undefined) return { seen, pages: page + 1 };
    await between?.(page);
    after = next;
  }
  throw new Error('the walk did not end');
}

describe('cursor pages past 1,000', () => {
  it("reaches every one of a plan's subscriptions exactly once, oldest first", async () => {
    const { seen, pages } = await walk(async (after) => {
      const { rows, next } = await pageSubscriptionsOfPlan(redis.redis, PLAN, { limit: 100, after });
      return { ids: rows.map((r) => r.subscriptionId), next };
    });
    expect(pages).toBe(13);
    expect(seen).toEqual(Array.from({ length: COUNT }, (_, i) => subscriptionId(i + 1)));
  });

  it("reaches every one of a subscriber's subscriptions exactly once, newest first, with items added mid-walk", async () => {
    let added = COUNT;
    const { seen } = await walk(
      (after) => pageSubscriptionIdsOfSubscriber(redis.redis, 'subscriber', { limit: 1_000, after }),
      async () => {
        // A new subscription (a later log position) lands before the cursor of a newest-first walk: not seen in this walk, never twice.
        await log.commit(started(++added));
      },
    );
    expect(seen).toHaveLength(COUNT);
    expect(new Set(seen).size).toBe(COUNT);
    expect(seen[0]).toBe(subscriptionId(COUNT));
    expect(seen.at(-1)).toBe(subscriptionId(1));
    expect(await allSubscriptionIdsOfSubscriber(redis.redis, 'subscriber')).toHaveLength(added);
  });

  it('the last page has no next cursor, an empty list is one empty page, and limits out of range are refused', async () => {
    const first = await pageSubscriptionIdsOfSubscriber(redis.redis, 'nobody', { limit: 10 });
    expect(first).toEqual({ ids: [], next: undefined });
    const all = await pageSubscriptionsOfPlan(redis.redis, PLAN, { limit: 1_000 });
    const rest = await pageSubscriptionsOfPlan(redis.redis, PLAN, { limit: 1_000, after: all.next });
    expect(rest.next).toBeUndefined();
    await expect(pageSubscriptionsOfPlan(redis.redis, PLAN, { limit: 0 })).rejects.toThrow(RangeError);
    await expect(pageSubscriptionsOfPlan(redis.redis, PLAN, { limit: 1_001 })).rejects.toThrow(RangeError);
  });
});
