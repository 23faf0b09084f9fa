// Proves subscribing over real HTTP (issue 13): the quote shows price and next charge; subscribing
// charges the first period at once (the provider receives exactly the price, fee 0) and both
// histories name the subscription; 10 parallel requests charge once; one's own plan, a deleted
// plan, a changed price and too little MLX are refused and move nothing; the subscriber lists and
// reads it (a stranger gets 404), the provider sees the subscriber; cancel is effective at the
// end of the paid period, a second cancel is 409, a stranger's cancel 403; the audit is clean.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, fundFromReserve } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let provider: TestUser;
let subscriber: TestUser;
let poor: TestUser;
let stranger: TestUser;
let planId: string;

const PRICE = 250_000;
const plan = { name: 'Gold', description: 'Monthly gold tier', price: PRICE, currency: 'mlx', duration: 'monthly' };
const call = (user: TestUser | undefined, method: 'GET' | 'POST', path: string, body?: unknown) =>
  quern.call(method, path, { ...(user ? { cookie: user.cookie } : {}), ...(body === undefined ? {} : { body }) });
const balanceOf = async (user: TestUser) =>
  (await call(user, 'GET', `/api/millix/balance/${user.address}`)).body as { stable: string; unstable: string };

async function chargeTransfers(): Promise<string[]> {
  const ids: string[] = [];
  let after: bigint | undefined;
  for (;;) {
    const page = await quern.store.readAll({ after, maxCount: 5000 });
    for (const e of page)
      if (e.type === 'TransferReserved' && String(e.data.transferId).startsWith('subscription-')) ids.push(String(e.data.transferId));
    if (page.length < 5000) return ids;
    after = page[page.length - 1]?.position;
  }
}

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
  provider = await registerUser(quern, 'sub_provider');
  subscriber = await registerUser(quern, 'sub_subscriber');
  poor = await registerUser(quern, 'sub_poor');
  stranger = await registerUser(quern, 'sub_stranger');
  await fundFromReserve(quern.store, subscriber.address, 1_000_000n);
  await fundFromReserve(quern.store, poor.address, 1_000n);
  await eventually(async () => ((await balanceOf(subscriber)).stable === '1000000' ? true : undefined));
  planId = (await call(provider, 'POST', '/api/subscription-plans/create', plan)).body.id;
});
afterAll(async () => {
  await quern?.stop();
});

describe('subscribing', () => {
  let subscriptionId: string;

  it('quotes the price and the next charge a month on', async () => {
    const quote = await call(subscriber, 'POST', '/api/subscriptions/quote', { subscription_plan_id: planId });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ plan_id: planId, price: PRICE, currency: 'mlx', duration: 'monthly' });
    const now = new Date(quote.body.charge_now);
    const next = new Date(quote.body.next_charge_at);
    expect(next.getUTCMonth()).toBe((now.getUTCMonth() + 1) % 12);
  });

  it('refuses one’s own plan, too little MLX, a changed price, and moves nothing', async () => {
    const own = await call(provider, 'POST', '/api/subscriptions/create', { subscription_plan_id: planId });
    expect(own.status).toBe(409);
    expect(own.body.message).toBe('You cannot subscribe to your own plan.');
    const short = await call(poor, 'POST', '/api/subscriptions/create', { subscription_plan_id: planId });
    expect(short.status).toBe(409);
    expect(short.body.message).toBe('Not enough MLX: this subscription costs 250,000 MLX and 1,000 MLX is available.');
    const changed = await call(subscriber, 'POST', '/api/subscriptions/create', { subscription_plan_id: planId, expected_price: 1 });
    expect(changed.status).toBe(409);
    expect(changed.body.message).toBe("The plan's price changed to 250,000 MLX. Please review it and subscribe again.");
    expect((await call(subscriber, 'POST', '/api/subscriptions/create', {})).status).toBe(400);
    expect((await call(subscriber, 'POST', '/api/subscriptions/create', { subscription_plan_id: 'nope' })).status).toBe(404);
    expect(await chargeTransfers()).toEqual([]);
  });

  it('charges once for 10 parallel requests; the provider receives exactly the price', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(subscriber, 'POST', '/api/subscriptions/create', { subscription_plan_id: planId, expected_price: PRICE }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('You are already subscribed to this plan.');
    }
    const content = ok[0]?.body.content;
    subscriptionId = content.id;
    expect(content).toMatchObject({
      object: 'subscription',
      plan_id: planId,
      status: 'active',
      price: String(PRICE),
      subscriber_id: subscriber.id,
    });
    expect(content.charges).toHaveLength(1);
    expect(ok[0]?.body.message).toMatch(/^Subscribed\. 250,000 MLX was charged; the next charge is on /);
    expect(await chargeTransfers()).toEqual([`subscription-${subscriptionId}-1`]);
    await eventually(async () => ((await balanceOf(provider)).stable === String(PRICE) ? true : undefined));
    expect((await balanceOf(subscriber)).stable).toBe(String(1_000_000 - PRICE));
    const history = (await call(provider, 'GET', '/api/quern/transactions?page=0')).body.transactions as Array<{
      purpose?: unknown;
      amount: string;
    }>;
    expect(history[0]).toMatchObject({
      amount: String(PRICE),
      purpose: { kind: 'subscription_charge', subscription_id: subscriptionId, period: 1 },
    });
  });

  it('lists and reads it for the subscriber, shows the subscriber to the provider, hides it from strangers', async () => {
    const mine = await call(subscriber, 'GET', '/api/subscriptions/all');
    expect(mine.body.content.map((s: { id: string }) => s.id)).toEqual([subscriptionId]);
    expect((await call(subscriber, 'GET', `/api/subscriptions/${subscriptionId}`)).body.content.id).toBe(subscriptionId);
    expect((await call(provider, 'POST', '/api/subscriptions', { id: subscriptionId })).status).toBe(200);
    expect((await call(stranger, 'GET', `/api/subscriptions/${subscriptionId}`)).status).toBe(404);
    const subscribers = await call(provider, 'POST', '/api/subscription-plans/subscribers', { id: planId });
    expect(subscribers.body).toEqual({
      content: [{ id: subscriber.id, name: 'Test User', username: subscriber.name, subscription_id: subscriptionId, status: 'active' }],
      next_cursor: null,
    });
  });

  it('cancels at the end of the paid period; twice is 409; a stranger gets 403', async () => {
    expect((await call(stranger, 'POST', '/api/subscriptions/cancel', { id: subscriptionId })).status).toBe(403);
    const cancelled = await call(subscriber, 'POST', '/api/subscriptions/cancel', { id: subscriptionId });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.content.status).toBe('cancelled');
    expect(cancelled.body.content.ends_at).toBe(cancelled.body.content.paid_through);
    expect(cancelled.body.content.next_charge_at).toBeNull();
    expect(cancelled.body.message).toMatch(/^Subscription cancelled\. It stays active until /);
    const again = await call(provider, 'POST', '/api/subscriptions/cancel', { id: subscriptionId });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This subscription is already cancelled.');
    // Still paid through: subscribing again waits for the end.
    expect((await call(subscriber, 'POST', '/api/subscriptions/create', { subscription_plan_id: planId })).status).toBe(409);
  });

  it('refuses a deleted plan', async () => {
    const second = (await call(provider, 'POST', '/api/subscription-plans/create', { ...plan, name: 'Silver' })).body.id;
    await call(provider, 'POST', '/api/subscription-plans/delete', { id: second });
    const answer = await call(subscriber, 'POST', '/api/subscriptions/create', { subscription_plan_id: second });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe('This plan was deleted and takes no new subscribers.');
  });

  it('e-mails the receipt and the new subscriber through the workers, and announces a price change from the read model', async () => {
    const mails = () => readdirSync(join(quern.dataDir, 'outbox'));
    await eventually(() => (mails().some((f) => f.startsWith('subscription-receipt')) ? true : undefined), 20_000);
    const third = (await call(provider, 'POST', '/api/subscription-plans/create', { ...plan, name: 'Bronze', price: 10_000 })).body.id;
    const subscribed = await call(subscriber, 'POST', '/api/subscriptions/create', { subscription_plan_id: third });
    expect(subscribed.status).toBe(200);
    const edited = await call(provider, 'POST', '/api/subscription-plans/update', { id: third, ...plan, name: 'Bronze', price: 12_000 });
    expect(edited.status).toBe(200);
    const announced = await eventually(async () => {
      const page = await quern.store.readAll({ maxCount: 5000 });
      return page.find((e) => e.type === 'PlanPriceChangeAnnounced' && e.data.planId === third);
    }, 20_000);
    expect(announced.data.subscriptions).toBe(1);
    await eventually(() => (mails().some((f) => f.includes('price')) ? true : undefined), 20_000);
  });

  it('leaves a clean ledger audit', async () => {
    const audit = await auditLog(quern.store);
    expect(audit.violations).toEqual([]);
  });
});
