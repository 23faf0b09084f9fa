// Proves on a real SQLite log that a renewal never charges more than the price its subscriber
// agreed to: an owner who raises the price from 1,000 to 1,000,000 MLX still gets 1,000 at the next
// renewal; a decrease applies from the next renewal and becomes the agreed price; an increase the
// subscriber accepted is charged from the next renewal; an owner who ends a subscription whose
// subscriber has not accepted leaves it paid until its period ends, then it ends without a charge.
import { updatePlan } from '@quern/core/plans';
import {
  acceptSubscriptionPrice,
  endSubscriptionForUnacceptedPrice,
  loadSubscription,
  openRenewal,
  runRenewal,
  subscribe,
  type SubscriptionState,
} from '@quern/core/subscriptions';
import { readWallet } from '@quern/core/wallet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTempStore, type TempStore } from '../../test/store.js';
import { billingDeps, billingUser, monthlyPlan, prepareBilling, TestClock } from '../../test/subscriptions.js';

let temp: TempStore;
let clock: TestClock;
const deps = () => billingDeps(temp.store, clock);

beforeEach(async () => {
  temp = openTempStore();
  clock = new TestClock('2026-01-15T10:00:00.000Z');
  await prepareBilling(temp.store, clock);
});
afterEach(async () => {
  await temp.dispose();
});

const state = async (subscriptionId: string): Promise<SubscriptionState> => {
  const loaded = await loadSubscription({ store: temp.store }, subscriptionId);
  if (!loaded) throw new Error(`no subscription ${subscriptionId}`);
  return loaded.state;
};
const balance = async (userId: string) => (await readWallet(deps(), userId)).state.postedBalanceMlx;

async function setUp(priceMlx: bigint, subscriberMlx: bigint) {
  const provider = await billingUser(temp.store, clock, 1, 0n);
  const subscriber = await billingUser(temp.store, clock, 2, subscriberMlx);
  const planId = await monthlyPlan(temp.store, clock, provider.userId, priceMlx);
  const { state: started } = await subscribe(deps(), subscriber.userId, { subscription_plan_id: planId });
  return { provider, subscriber, planId, subscriptionId: started.subscriptionId };
}

async function setPrice(providerUserId: string, planId: string, price: bigint) {
  await updatePlan({ store: temp.store, clock, newId: () => 'x' }, providerUserId, planId, {
    name: 'Gold',
    description: 'Gold monthly plan',
    price,
    currency: 'mlx',
    duration: 'monthly',
  });
}

/** Moves the clock to the open renewal's due time and runs it as its job would. */
async function renewNow(subscriptionId: string) {
  const open = openRenewal(await state(subscriptionId));
  if (!open) throw new Error('no open renewal');
  clock.set(open.dueAt);
  return runRenewal(deps(), { subscriptionId, period: open.period, attempt: open.attempt });
}

describe('a renewal charges at most the agreed price', () => {
  it('an owner who raises the price from 1,000 to 1,000,000 MLX is paid 1,000 at the next renewal', async () => {
    const { provider, subscriber, planId, subscriptionId } = await setUp(1_000n, 5_000_000n);
    clock.set('2026-01-20T10:00:00.000Z');
    await setPrice(provider.userId, planId, 1_000_000n);

    expect(await renewNow(subscriptionId)).toMatchObject({ outcome: 'renewed', period: 2 });

    expect((await state(subscriptionId)).charges.map((c) => c.priceMlx)).toEqual(['1000', '1000']);
    expect(await balance(subscriber.userId)).toBe(5_000_000n - 2_000n);
    expect(await balance(provider.userId)).toBe(2_000n);
  });

  it('a decrease applies from the next renewal and becomes the agreed price: raising it back again waits for consent', async () => {
    const { provider, planId, subscriptionId } = await setUp(1_000n, 100_000n);
    await setPrice(provider.userId, planId, 600n);
    expect(await renewNow(subscriptionId)).toMatchObject({ outcome: 'renewed', period: 2 });
    expect((await state(subscriptionId)).agreedPriceMlx).toBe('600');
    await setPrice(provider.userId, planId, 1_000n);
    expect(await renewNow(subscriptionId)).toMatchObject({ outcome: 'renewed', period: 3 });
    expect((await state(subscriptionId)).charges.map((c) => c.priceMlx)).toEqual(['1000', '600', '600']);
  });

  it('an increase the subscriber accepted is charged from the next renewal', async () => {
    const { provider, subscriber, planId, subscriptionId } = await setUp(1_000n, 100_000n);
    await setPrice(provider.userId, planId, 1_500n);
    await acceptSubscriptionPrice(deps(), subscriber.userId, subscriptionId, 1_500n);
    expect(await renewNow(subscriptionId)).toMatchObject({ outcome: 'renewed', period: 2 });
    expect((await state(subscriptionId)).charges.map((c) => c.priceMlx)).toEqual(['1000', '1500']);
    expect(await balance(provider.userId)).toBe(2_500n);
  });

  it('an owner who ends a subscription for an unaccepted increase leaves it paid until its period ends, then it ends without a charge', async () => {
    const { provider, subscriber, planId, subscriptionId } = await setUp(1_000n, 100_000n);
    await setPrice(provider.userId, planId, 1_500n);
    clock.set('2026-01-20T10:00:00.000Z');
    const { state: cancelled } = await endSubscriptionForUnacceptedPrice(deps(), provider.userId, subscriptionId);
    expect(cancelled.cancellation).toMatchObject({ by: 'priceNotAccepted', endsAt: '2026-02-15T10:00:00.000Z' });
    expect(cancelled.ended).toBeUndefined();

    expect(await renewNow(subscriptionId)).toEqual({ outcome: 'ended', reason: 'priceNotAccepted' });
    const s = await state(subscriptionId);
    expect(s.ended).toEqual({ reason: 'priceNotAccepted', endedAt: '2026-02-15T10:00:00.000Z' });
    expect(s.charges).toHaveLength(1);
    expect(await balance(subscriber.userId)).toBe(100_000n - 1_000n);
    expect(await balance(provider.userId)).toBe(1_000n);
  });
});
