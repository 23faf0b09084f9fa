// Proves price consent over real HTTP (ADR 044): after the owner raises a plan's price, each
// subscription shows the agreed and the pending price; only its subscriber accepts (anyone else
// gets 403), at exactly the pending price (a stale one is refused with the current one, malformed
// input gets 400) and nothing is appended for a refusal; only the owner ends an unaccepted one at
// the end of its period; the renewals then charge the accepted price to the one who accepted, the
// agreed price to the one who did not, and nothing to the one ended; `npm run audit` exits 0.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Clock } from '@quern/core';
import { loadSubscription, openRenewal, runRenewal } from '@quern/core/subscriptions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, fundFromReserve, walletDepsFor } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let owner: TestUser;
let accepting: TestUser;
let declining: TestUser;
let ended: TestUser;
let stranger: TestUser;
let planId: string;
const ids = new Map<TestUser, string>();

const plan = { name: 'Gold', description: 'Monthly gold tier', price: 1_000, currency: 'mlx', duration: 'monthly' };
const call = (user: TestUser, method: 'GET' | 'POST', path: string, body?: unknown) =>
  quern.call(method, path, { cookie: user.cookie, ...(body === undefined ? {} : { body }) });
/** The consent events of a subscription (the workers append announcements and e-mails beside them). */
const consents = async (subscriptionId: string) =>
  (await quern.store.readStream(`subscription-${subscriptionId}`)).filter(
    (e) => e.type === 'SubscriptionPriceAccepted' || e.type === 'SubscriptionCancelled',
  ).length;
const read = async (user: TestUser) => (await call(user, 'GET', `/api/subscriptions/${ids.get(user)}`)).body.content;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
  owner = await registerUser(quern, 'pc_owner');
  accepting = await registerUser(quern, 'pc_accepting');
  declining = await registerUser(quern, 'pc_declining');
  ended = await registerUser(quern, 'pc_ended');
  stranger = await registerUser(quern, 'pc_stranger');
  planId = (await call(owner, 'POST', '/api/subscription-plans/create', plan)).body.id;
  for (const user of [accepting, declining, ended]) {
    await fundFromReserve(quern.store, user.address, 100_000n);
    await eventually(async () =>
      (await call(user, 'GET', `/api/millix/balance/${user.address}`)).body.stable === '100000' ? true : undefined,
    );
    const subscribed = await call(user, 'POST', '/api/subscriptions/create', { subscription_plan_id: planId, expected_price: 1_000 });
    expect(subscribed.status).toBe(200);
    ids.set(user, subscribed.body.content.id);
  }
  const raised = await call(owner, 'POST', '/api/subscription-plans/update', { id: planId, ...plan, price: 3_000 });
  expect(raised.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await quern?.stop();
});

describe('a higher price needs the subscriber’s consent', () => {
  it('shows the agreed price and the pending one to the subscriber', async () => {
    expect(await read(accepting)).toMatchObject({ price: '1000', agreed_price: '1000', pending_price: '3000', status: 'active' });
    const mine = (await call(declining, 'GET', '/api/subscriptions/all')).body.content;
    expect(mine).toEqual([expect.objectContaining({ agreed_price: '1000', pending_price: '3000' })]);
  });

  it('refuses the owner, a stranger and another subscriber with 403, and appends nothing', async () => {
    const id = ids.get(accepting);

    for (const user of [owner, stranger, declining]) {
      const answer = await call(user, 'POST', '/api/subscriptions/accept-price', { id, price: 3_000 });
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe('Only the subscriber can accept a new price for this subscription.');
    }
    expect(await consents(id as string)).toBe(0);
  });

  it('refuses a stale price with the pending one, and malformed input with 400; nothing is appended', async () => {
    const id = ids.get(declining) as string;
    const stale = await call(declining, 'POST', '/api/subscriptions/accept-price', { id, price: 2_000 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('The new price is now 3,000 MLX. Please review it and accept again.');
    for (const body of [
      {},
      { id },
      { id, price: 'abc' },
      { id, price: 0 },
      { id, price: -5 },
      { id, price: 3_000, extra: 1 },
      { price: 3_000 },
    ]) {
      const answer = await call(declining, 'POST', '/api/subscriptions/accept-price', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await call(declining, 'POST', '/api/subscriptions/accept-price', { id: 'sub_000000000000000000000000', price: 3_000 })).status,
    ).toBe(404);
    expect(await consents(id)).toBe(0);
    expect(await read(declining)).toMatchObject({ agreed_price: '1000', pending_price: '3000' });
  });

  it('the subscriber accepts exactly the pending price; accepting again finds nothing pending', async () => {
    const id = ids.get(accepting);
    const accepted = await call(accepting, 'POST', '/api/subscriptions/accept-price', { id, price: '3000' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.message).toMatch(/^New price accepted\. From your charge on .+ the subscription costs 3,000 MLX a month\.$/);
    expect(accepted.body.content).toMatchObject({ agreed_price: '3000', pending_price: null, price: '1000' });
    const events = await quern.store.readStream(`subscription-${id}`);
    expect(events.at(-1)).toMatchObject({
      type: 'SubscriptionPriceAccepted',
      data: { byUserId: accepting.id, priceMlx: '3000', previousPriceMlx: '1000' },
    });
    const again = await call(accepting, 'POST', '/api/subscriptions/accept-price', { id, price: 3_000 });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This subscription has no new price to accept.');
  });

  it('only the owner ends an unaccepted subscription, at the end of its paid period', async () => {
    const id = ids.get(ended);
    for (const user of [ended, stranger]) {
      const answer = await call(user, 'POST', '/api/subscriptions/end-for-price', { id });
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe("Only the plan's owner can end this subscription for its new price.");
    }
    expect((await call(owner, 'POST', '/api/subscriptions/end-for-price', {})).status).toBe(400);
    const accepted = await call(owner, 'POST', '/api/subscriptions/end-for-price', { id: ids.get(accepting) });
    expect(accepted.status).toBe(409);
    const answer = await call(owner, 'POST', '/api/subscriptions/end-for-price', { id });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toMatch(/^The subscriber keeps the subscription until .+; then it ends without a charge\.$/);
    expect(answer.body.content).toMatchObject({ status: 'cancelled', cancelled_by: 'priceNotAccepted', pending_price: null });
    expect(answer.body.content.ends_at).toBe(answer.body.content.paid_through);
  });

  it('at the renewal each pays what they agreed to (or nothing, when ended), and `npm run audit` exits 0', async () => {
    for (const user of [accepting, declining, ended]) {
      const id = ids.get(user) as string;
      const loaded = await loadSubscription({ store: quern.store }, id);
      const open = loaded && openRenewal(loaded.state);
      if (!open) throw new Error(`no open renewal for ${id}`);
      const clock: Clock = { now: () => open.dueAt };
      await runRenewal({ ...walletDepsFor(quern.store), clock }, { subscriptionId: id, period: open.period, attempt: open.attempt });
    }
    expect((await read(accepting)).charges.map((c: { amount: string }) => c.amount)).toEqual(['1000', '3000']);
    expect((await read(declining)).charges.map((c: { amount: string }) => c.amount)).toEqual(['1000', '1000']);
    const gone = await read(ended);
    expect(gone.status).toBe('ended');
    expect(gone.charges.map((c: { amount: string }) => c.amount)).toEqual(['1000']);

    const audit = await auditLog(quern.store);
    expect(audit.violations).toEqual([]);
    expect(audit.subscriptions.pricesAccepted).toBe(1);
    const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: quern.dataDir };
    delete env.EVENTSTORE_URL;
    delete env.MILLIX_NODE_URL;
    const run = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', `${repoRoot}api/src/bin/audit.ts`],
        { cwd: repoRoot, env, timeout: 30_000 },
        (error, stdout) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout }),
      );
    });
    expect(run.stdout).toContain('charged 5 periods (7,000 MLX from subscribers to providers), 1 higher price(s) accepted');
    expect(run.stdout).toContain('audit: OK');
    expect(run.code).toBe(0);
  }, 60_000);
});
