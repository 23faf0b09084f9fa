// Proves the price-change job on a real SQLite log: it waits (runAgainAt, a second later) while the
// plans' subscriptions read model has not reached the edit; then it tells every live subscription
// of the plan once (a cancelled one and another plan's are not told), closes with one
// PlanPriceChangeAnnounced naming the plan revision and the count told, and a re-run appends nothing.
import { cancelSubscription, loadSubscription, subscribe } from '@quern/core/subscriptions';
import { updatePlan } from '@quern/core/plans';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResumableJob } from '../job/resumable.js';
import { LogPlanSubscriptions } from '../../test/plan-subscriptions.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import { billingDeps, billingUser, monthlyPlan, prepareBilling, TestClock } from '../../test/subscriptions.js';
import { announcePlanPriceChange, READ_MODEL_RETRY_MS } from './job.js';
import { transferTermsBook } from '@quern/core/transfer-references';

let temp: TempStore;
const clock = new TestClock('2026-01-15T10:00:00.000Z');

class Waited extends Error {}
const jobOf = (data: Record<string, unknown>, waits: number[]): ResumableJob => ({
  data,
  updateData: async () => {},
  runAgainAt: async (at) => {
    waits.push(at);
    throw new Waited();
  },
});

beforeEach(async () => {
  temp = openTempStore();
  await prepareBilling(temp.store, clock);
});
afterEach(async () => {
  await temp.dispose();
});

describe('plan price-change job', () => {
  it('waits for the read model, tells each live subscriber once, closes the job on the plan stream, and a re-run does nothing', async () => {
    const store = temp.store;
    const deps = billingDeps(store, clock);
    const provider = await billingUser(store, clock, 1, 0n);
    const planId = await monthlyPlan(store, clock, provider.userId, 1_000n);
    const otherPlan = await monthlyPlan(store, clock, provider.userId, 1_000n, 'Other');
    const subscriptions: string[] = [];
    for (let i = 0; i < 3; i++) {
      const user = await billingUser(store, clock, 10 + i, 10_000n);
      subscriptions.push((await subscribe(deps, user.userId, { subscription_plan_id: i === 2 ? otherPlan : planId })).state.subscriptionId);
    }
    const quitter = await billingUser(store, clock, 20, 10_000n);
    const quit = (await subscribe(deps, quitter.userId, { subscription_plan_id: planId })).state.subscriptionId;
    await cancelSubscription(deps, quitter.userId, quit);
    const edit = await updatePlan({ store, clock, newId: () => 'x' }, provider.userId, planId, {
      name: 'Gold',
      description: 'Gold monthly plan',
      price: 1_500n,
      currency: 'mlx',
      duration: 'monthly',
    });
    if (edit.position === undefined) throw new Error('no edit');
    const data = { planId, planRevision: '1', position: edit.position.toString(), previousPriceMlx: '1000', priceMlx: '1500' };
    const readModel = new LogPlanSubscriptions(store, { followOnRead: false });
    const jobDeps = { store, clock, transferTerms: transferTermsBook, planSubscriptions: readModel };

    const waits: number[] = [];
    const before = Date.now();
    await expect(announcePlanPriceChange(jobOf(data, waits), jobDeps)).rejects.toBeInstanceOf(Waited);
    expect(waits[0]).toBeGreaterThanOrEqual(before + READ_MODEL_RETRY_MS);
    expect((await store.readStream(`plan-${planId}`)).map((e) => e.type)).toEqual(['PlanCreated', 'PlanUpdated']);

    await readModel.catchUp();
    expect(await announcePlanPriceChange(jobOf(data, waits), jobDeps)).toEqual({ outcome: 'announced', subscriptions: 2 });
    const told = async (id: string) => (await loadSubscription({ store }, id))?.state.announcedPlanRevisions;
    expect(await told(subscriptions[0] ?? '')).toEqual(['1']);
    expect(await told(subscriptions[1] ?? '')).toEqual(['1']);
    expect(await told(subscriptions[2] ?? '')).toEqual([]);
    expect(await told(quit)).toEqual([]);
    const planEvents = await store.readStream(`plan-${planId}`);
    expect(planEvents.at(-1)).toMatchObject({ type: 'PlanPriceChangeAnnounced', data: { planId, planRevision: '1', subscriptions: 2 } });

    const logEnd = (await store.readAll({ maxCount: 10_000 })).length;
    expect(await announcePlanPriceChange(jobOf(data, waits), jobDeps)).toEqual({ outcome: 'already-announced' });
    expect((await store.readAll({ maxCount: 10_000 })).length).toBe(logEnd);
  });

  it('a malformed payload is refused for good', async () => {
    const jobDeps = { store: temp.store, clock, transferTerms: transferTermsBook, planSubscriptions: new LogPlanSubscriptions(temp.store) };
    await expect(announcePlanPriceChange(jobOf({ planId: 'nope', planRevision: '1' }, []), jobDeps)).rejects.toThrow(/Invalid job payload/);
  });
});
