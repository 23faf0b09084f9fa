// Proves resuming a cancelled subscription over real HTTP and tRPC (ADR 059): the subscriber takes
// their own cancellation back before the paid period ends and the subscription is active again,
// in its read and in the list; the provider (403), a stranger (404), a live subscription, a second
// resume, a provider's cancellation and a period that has run out (409) are refused and append
// nothing; malformed input gets 400; at the end of the period the renewal charges the agreed price
// although the plan's price rose meanwhile; the ledger audit finds nothing wrong.
import type { Clock } from '@quern/core';
import { loadSubscription, openRenewal, resumeSubscription, runRenewal } from '@quern/core/subscriptions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, fundFromReserve, walletDepsFor } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let stranger: TestUser;
let planId: string;
const ids = new Map<TestUser, string>();

const plan = { name: 'Silver', description: 'Monthly silver tier', price: 1_000, currency: 'mlx', duration: 'monthly' };
const call = (user: TestUser, method: 'GET' | 'POST', path: string, body?: unknown) =>
  quern.call(method, path, { cookie: user.cookie, ...(body === undefined ? {} : { body }) });
const resumes = async (id: string) =>
  (await quern.store.readStream(`subscription-${id}`)).filter((e) => e.type === 'SubscriptionResumed').length;
const read = async (user: TestUser) => (await call(user, 'GET', `/api/subscriptions/${ids.get(user)}`)).body.content;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
  owner = await registerUser(quern, 'rs_owner');
  alice = await registerUser(quern, 'rs_alice');
  bob = await registerUser(quern, 'rs_bob');
  stranger = await registerUser(quern, 'rs_stranger');
  planId = (await call(owner, 'POST', '/api/subscription-plans/create', plan)).body.id;
  for (const user of [alice, bob]) {
    await fundFromReserve(quern.store, user.address, 100_000n);
    await eventually(async () =>
      (await call(user, 'GET', `/api/millix/balance/${user.address}`)).body.stable === '100000' ? true : undefined,
    );
    const subscribed = await call(user, 'POST', '/api/subscriptions/create', { subscription_plan_id: planId, expected_price: 1_000 });
    expect(subscribed.status).toBe(200);
    ids.set(user, subscribed.body.content.id);
  }
}, 60_000);
afterAll(async () => {
  await quern?.stop();
});

describe('resuming a cancelled subscription', () => {
  it('refuses a subscription that is not cancelled, and malformed input with 400', async () => {
    const id = ids.get(alice) as string;
    const live = await call(alice, 'POST', '/api/subscriptions/resume', { id });
    expect(live.status).toBe(409);
    expect(live.body.message).toBe('This subscription is not cancelled, so there is nothing to resume.');
    for (const body of [{}, { id: '' }, { id: 5 }, { id, extra: 1 }]) {
      const answer = await call(alice, 'POST', '/api/subscriptions/resume', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call(alice, 'POST', '/api/subscriptions/resume', { id: 'sub_000000000000000000000000' })).status).toBe(404);
    expect(await resumes(id)).toBe(0);
  });

  it('the subscriber resumes their cancellation; the provider gets 403, a stranger 404, a second resume 409', async () => {
    const id = ids.get(alice) as string;
    const cancelled = await call(alice, 'POST', '/api/subscriptions/cancel', { id });
    expect(cancelled.body.content.status).toBe('cancelled');
    expect((await call(owner, 'POST', '/api/subscriptions/resume', { id })).status).toBe(403);
    expect((await call(owner, 'POST', '/api/subscriptions/resume', { id })).body.message).toBe(
      'Only the subscriber can resume this subscription.',
    );
    expect((await call(stranger, 'POST', '/api/subscriptions/resume', { id })).status).toBe(404);
    expect(await resumes(id)).toBe(0);

    const resumed = await call(alice, 'POST', '/api/subscriptions/resume', { id });
    expect(resumed.status).toBe(200);
    expect(resumed.body.message).toMatch(/^Subscription resumed\. It renews on .+ at 1,000 MLX a month\.$/);
    expect(resumed.body.content).toMatchObject({ status: 'active', ends_at: null, cancelled_by: null, agreed_price: '1000' });
    expect(resumed.body.content.next_charge_at).toBe(resumed.body.content.paid_through);
    expect(await resumes(id)).toBe(1);
    const again = await call(alice, 'POST', '/api/subscriptions/resume', { id });
    expect(again.status).toBe(409);
    expect(await resumes(id)).toBe(1);
    await eventually(async () => {
      const mine = (await call(alice, 'GET', '/api/subscriptions/all')).body.content;
      return mine[0]?.status === 'active' ? true : undefined;
    });
  });

  it('answers in Spanish over tRPC as over REST', async () => {
    const id = ids.get(alice) as string;
    await call(alice, 'POST', '/api/subscriptions/cancel', { id });
    const answer = await quern.call('POST', '/trpc/subscriptions.resume', {
      cookie: alice.cookie,
      headers: { 'accept-language': 'es' },
      body: { id },
    });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).toMatch(/Suscripción reanudada\. Se renueva el .+ por 1000 MLX al mes\./);
  });

  it("refuses to take back the provider's cancellation", async () => {
    const id = ids.get(bob) as string;
    expect((await call(owner, 'POST', '/api/subscriptions/cancel', { id })).status).toBe(200);
    const answer = await call(bob, 'POST', '/api/subscriptions/resume', { id });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe('This subscription was not cancelled by you, so it cannot be resumed.');
    expect(await resumes(id)).toBe(0);
  });

  it('refuses once the paid period has run out', async () => {
    const id = ids.get(alice) as string;
    await call(alice, 'POST', '/api/subscriptions/cancel', { id });
    const loaded = await loadSubscription({ store: quern.store }, id);
    const endsAt = loaded?.state.cancellation?.endsAt;
    if (!endsAt) throw new Error('not cancelled');
    const clock: Clock = { now: () => new Date(endsAt) };
    await expect(resumeSubscription({ ...walletDepsFor(quern.store), clock }, alice.id, id)).rejects.toMatchObject({
      messageKey: 'errors:subscriptionResumeTooLate',
    });
    // Two resumes so far (over REST, then over tRPC); the late one added none.
    expect(await resumes(id)).toBe(2);
    // Resumed before the end, it renews at the agreed price though the plan's price rose meanwhile.
    expect((await call(owner, 'POST', '/api/subscription-plans/update', { id: planId, ...plan, price: 4_000 })).status).toBe(200);
    expect((await call(alice, 'POST', '/api/subscriptions/resume', { id })).status).toBe(200);
  });

  it('at the end of the period the resumed subscription renews at the agreed price; the cancelled one ends; the audit is clean', async () => {
    for (const user of [alice, bob]) {
      const id = ids.get(user) as string;
      const loaded = await loadSubscription({ store: quern.store }, id);
      const open = loaded && openRenewal(loaded.state);
      if (!open) throw new Error(`no open renewal for ${id}`);
      const clock: Clock = { now: () => open.dueAt };
      await runRenewal({ ...walletDepsFor(quern.store), clock }, { subscriptionId: id, period: open.period, attempt: open.attempt });
    }
    const renewed = await read(alice);
    expect(renewed.status).toBe('active');
    expect(renewed.charges.map((c: { amount: string }) => c.amount)).toEqual(['1000', '1000']);
    expect(renewed.pending_price).toBe('4000');
    const ended = await read(bob);
    expect(ended.status).toBe('ended');
    expect(ended.charges.map((c: { amount: string }) => c.amount)).toEqual(['1000']);
    const audit = await auditLog(quern.store);
    expect(audit.violations).toEqual([]);
  }, 60_000);
});
