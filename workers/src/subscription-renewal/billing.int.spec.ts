// Proves subscription billing end to end against real SQLite, Redis and SMTP, with the workers'
// clock moved by the test: the dispatcher schedules each renewal from the log as a BullMQ delayed
// job that charges once per period when due; insufficient funds make it past due, retried 1, 3
// and 5 days after the due time, then cancelled 'unpaid'; a cancellation or a deleted plan ends
// the subscription at the end of its paid period with no further charge; a price increase is
// announced (e-mail with old price, new price, date and that it needs the subscriber's consent)
// and the next renewal still charges the agreed price; every e-mail goes out once; the four subscription webhooks reach the plan's provider.
import { cancelSubscription, loadSubscription, openRenewal, subscribe, type SubscriptionState } from '@quern/core/subscriptions';
import { deletePlan, loadPlan, updatePlan } from '@quern/core/plans';
import { closeWallet, readWallet, sendMlx, settleInternalTransfer, walletAddressOf } from '@quern/core/wallet';
import { createWebhookEndpoint, webhookPayloadSchema } from '@quern/core/webhooks';
import { createMailer, type Mailer } from '@quern/adapters/mail';
import { startTestSmtpServer, type TestSmtpServer } from '@quern/test-support/smtp';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendSubscriptionEmail } from '../subscription-email/job.js';
import {
  captureLog,
  connectRedis,
  deleteKeys,
  eventually,
  startPipeline,
  TEST_APP_SECRET,
  TEST_PUBLIC_URL,
  uniquePrefix,
  type Pipeline,
} from '../../test/pipeline.js';
import { LogPlanSubscriptions } from '../../test/plan-subscriptions.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import { billingDeps, billingUser, monthlyPlan, prepareBilling, promoteDelayed, TestClock } from '../../test/subscriptions.js';
import { renewSubscription } from './job.js';
import { SUBSCRIPTION_RENEWAL_QUEUE, subscriptionRenewalJobId } from './payload.js';

const redisUrl = process.env.REDIS_URL as string;
const PRICE = 250_000n;
const DAY_MS = 86_400_000;
const secret = `whsec_${'A'.repeat(43)}=`;
let temp: TempStore;
let smtp: TestSmtpServer;
let mailer: Mailer;
let redis: Redis;
let prefix: string;
let pipeline: Pipeline | undefined;
let clock: TestClock;
let webhookBodies: { url: string; body: string }[];
let log: ReturnType<typeof captureLog>;

const deps = () => billingDeps(temp.store, clock);

beforeEach(async () => {
  temp = openTempStore();
  smtp = await startTestSmtpServer();
  mailer = createMailer({ smtpUrl: smtp.url, dataDir: temp.dir, from: 'Quern <no-reply@quern.example>' });
  redis = connectRedis(redisUrl);
  prefix = uniquePrefix();
  clock = new TestClock('2026-01-15T10:00:00.000Z');
  webhookBodies = [];
  log = captureLog();
  await prepareBilling(temp.store, clock);
});
afterEach(async () => {
  await pipeline?.stop();
  pipeline = undefined;
  await mailer.close();
  await smtp.stop();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await temp.dispose();
});

function start(planSubscriptions = new LogPlanSubscriptions(temp.store)) {
  pipeline = startPipeline({
    store: temp.store,
    redis,
    redisUrl,
    mailer,
    prefix,
    logger: log.logger,
    clock,
    planSubscriptions,
    webhooks: {
      allowPrivateNetworks: true,
      send: async (input) => {
        webhookBodies.push({ url: input.url, body: input.body });
        return { delivered: true, statusCode: 204 };
      },
    },
  });
  return pipeline;
}

const state = async (subscriptionId: string): Promise<SubscriptionState> => {
  const loaded = await loadSubscription({ store: temp.store }, subscriptionId);
  if (!loaded) throw new Error(`no subscription ${subscriptionId}`);
  return loaded.state;
};
const balance = async (userId: string) => (await readWallet(deps(), userId)).state.postedBalanceMlx;

/** Waits until the open renewal's job sits in the delayed set, moves the clock to `at` (its due time by default) and runs it. */
async function runOpenRenewal(subscriptionId: string, at?: Date): Promise<void> {
  const open = openRenewal(await state(subscriptionId));
  if (!open) throw new Error('no open renewal');
  const queue = new Queue(SUBSCRIPTION_RENEWAL_QUEUE, { connection: redis, prefix });
  const jobId = subscriptionRenewalJobId(subscriptionId, open.period, open.attempt);
  try {
    await eventually(async () => (await queue.getJobState(jobId)) === 'delayed', 15_000, `${jobId} delayed`);
  } finally {
    await queue.close();
  }
  clock.set(at ?? open.dueAt);
  await promoteDelayed(redis, prefix, SUBSCRIPTION_RENEWAL_QUEUE);
  await eventually(async () => !sameOpen(open, await state(subscriptionId)), 15_000, `${jobId} decided`);
}
/** Whether the subscription's open renewal is still the given pair (undecided). */
const sameOpen = (open: { period: number; attempt: number }, s: SubscriptionState) => {
  const now = openRenewal(s);
  return now?.period === open.period && now.attempt === open.attempt;
};

/** The subscription mails to an address (the registrations' welcome mails and the funding's money-received notices left out). */
const mailsTo = (email: string) =>
  smtp.received.filter(
    (m) => m.envelopeTo.includes(email) && !WELCOME.includes(m.parsed.subject ?? '') && !m.parsed.messageId.startsWith('<notice-'),
  );
const WELCOME = ['[Sandbox] Welcome to Quern', '[Sandbox] Le damos la bienvenida a Quern'];
/** The workers run in the default mode, a sandbox: every subject carries its tag (ADR 050), checked here once for all. */
const SANDBOX_TAG = '[Sandbox] ';
const subjectsTo = (email: string) =>
  mailsTo(email).map((m) => {
    const subject = m.parsed.subject ?? '';
    expect(subject.startsWith(SANDBOX_TAG), subject).toBe(true);
    return subject.slice(SANDBOX_TAG.length);
  });
const webhookTypes = () => webhookBodies.map((w) => JSON.parse(w.body).type as string);

async function setUp(subscriberMlx: bigint, language?: 'en' | 'es') {
  const provider = await billingUser(temp.store, clock, 1, 0n);
  const subscriber = await billingUser(temp.store, clock, 2, subscriberMlx, language);
  await createWebhookEndpoint(
    { store: temp.store, clock, newId: () => '00000000-0000-4000-8000-00000000000a' },
    { merchantUserId: provider.userId, url: 'https://shop.example/hook', events: [], secret },
  );
  const planId = await monthlyPlan(temp.store, clock, provider.userId, PRICE);
  const { state: started } = await subscribe(deps(), subscriber.userId, { subscription_plan_id: planId });
  return { provider, subscriber, planId, subscriptionId: started.subscriptionId };
}

describe('subscription billing', () => {
  it('charges once per period when due, sends each receipt once and reports subscription.created and .renewed to the provider', async () => {
    const { provider, subscriber, subscriptionId } = await setUp(10n * PRICE);
    start();
    for (let month = 2; month <= 4; month++) await runOpenRenewal(subscriptionId);

    const s = await state(subscriptionId);
    expect(s.charges.map((c) => c.period)).toEqual([1, 2, 3, 4]);
    expect(s.charges.map((c) => c.chargedAt)).toEqual([
      '2026-01-15T10:00:00.000Z',
      '2026-02-15T10:00:00.000Z',
      '2026-03-15T10:00:00.000Z',
      '2026-04-15T10:00:00.000Z',
    ]);
    expect(await balance(provider.userId)).toBe(4n * PRICE);
    expect(await balance(subscriber.userId)).toBe(6n * PRICE);
    // Running a decided pair again (a stalled re-run, a re-derived job) charges nothing.
    const again = await renewSubscription(
      {
        data: { subscriptionId, period: 3, attempt: 1 },
        updateData: async () => {},
        runAgainAt: async () => Promise.reject(new Error('waits')),
      },
      deps(),
    );
    expect(again).toEqual({ outcome: 'stale' });
    expect(await balance(provider.userId)).toBe(4n * PRICE);

    await eventually(() => mailsTo(subscriber.email).length === 4 && mailsTo(provider.email).length === 1, 15_000, 'the e-mails');
    expect(subjectsTo(subscriber.email)).toEqual(Array(4).fill('Your Quern subscription receipt: Gold'));
    expect(subjectsTo(provider.email)).toEqual(['New subscriber to Gold']);
    const receipt3 = mailsTo(subscriber.email).find((m) => m.parsed.text?.includes('Month 3'));
    expect(receipt3?.parsed.text).toContain('250,000 MLX');
    expect(receipt3?.parsed.text).toContain(`subscription-${subscriptionId}-3`);
    await eventually(async () => (await state(subscriptionId)).emailsSent.length === 5, 10_000, 'SubscriptionEmailSent');
    expect((await state(subscriptionId)).emailsSent.sort()).toEqual([
      'newSubscriberProvider-1',
      'receipt-1',
      'receipt-2',
      'receipt-3',
      'receipt-4',
    ]);
    // A re-run of a sent e-mail's job sends nothing.
    const rerun = await sendSubscriptionEmail(
      { subscriptionId, kind: 'receipt', key: '2' },
      { store: temp.store, mailer, publicUrl: TEST_PUBLIC_URL, appSecret: TEST_APP_SECRET, clock, logger: log.logger },
    );
    expect(rerun.outcome).toBe('already-sent');
    expect(mailsTo(subscriber.email)).toHaveLength(4);

    await eventually(() => webhookBodies.length === 4, 15_000, 'the webhooks');
    expect(webhookTypes().sort()).toEqual(['subscription.created', 'subscription.renewed', 'subscription.renewed', 'subscription.renewed']);
    for (const w of webhookBodies) expect(webhookPayloadSchema.safeParse(JSON.parse(w.body)).success).toBe(true);
    const renewed3 = webhookBodies.map((w) => JSON.parse(w.body)).find((b) => b.data.charges.length === 3);
    expect(renewed3).toMatchObject({ type: 'subscription.renewed', timestamp: '2026-03-15T10:00:00.000Z' });
    expect(renewed3.data).toMatchObject({
      id: subscriptionId,
      status: 'active',
      provider_id: provider.userId,
      paid_through: '2026-04-15T10:00:00.000Z',
    });
    expect(log.error).toEqual([]);
  });

  it('without enough MLX it is past due, retried 1, 3 and 5 days after the due time, then cancelled unpaid; each failure is mailed and reported', async () => {
    const { provider, subscriber, subscriptionId } = await setUp(PRICE + 1n, 'es');
    start();
    const due = new Date('2026-02-15T10:00:00.000Z').getTime();
    for (let attempt = 1; attempt <= 4; attempt++) await runOpenRenewal(subscriptionId);

    const s = await state(subscriptionId);
    expect(s.charges.map((c) => c.period)).toEqual([1]);
    expect(s.failures.map((f) => [f.period, f.attempt, f.failedAt, f.nextAttemptAt])).toEqual([
      [2, 1, new Date(due).toISOString(), new Date(due + DAY_MS).toISOString()],
      [2, 2, new Date(due + DAY_MS).toISOString(), new Date(due + 3 * DAY_MS).toISOString()],
      [2, 3, new Date(due + 3 * DAY_MS).toISOString(), new Date(due + 5 * DAY_MS).toISOString()],
    ]);
    expect(s.cancellation).toMatchObject({ by: 'unpaid', cancelledAt: new Date(due + 5 * DAY_MS).toISOString() });
    expect(s.ended).toMatchObject({ reason: 'unpaid' });
    expect(await balance(subscriber.userId)).toBe(1n);
    expect(await balance(provider.userId)).toBe(PRICE);

    await eventually(() => mailsTo(subscriber.email).length === 5 && mailsTo(provider.email).length === 2, 15_000, 'the e-mails');
    expect(subjectsTo(subscriber.email).sort()).toEqual(
      [
        'Su recibo de suscripción de Quern: Gold',
        ...Array(3).fill('No pudimos cobrar su suscripción a Gold'),
        'Su suscripción a Gold está cancelada',
      ].sort(),
    );
    expect(subjectsTo(provider.email).sort()).toEqual(['A subscription to Gold is cancelled', 'New subscriber to Gold']);
    const cancelledMail = mailsTo(subscriber.email).find((m) => m.parsed.subject === '[Sandbox] Su suscripción a Gold está cancelada');
    expect(cancelledMail?.parsed.text).toContain('su pago falló en todos los intentos');
    await eventually(() => webhookBodies.length === 5, 15_000, 'the webhooks');
    expect(webhookTypes().sort()).toEqual([
      'subscription.cancelled',
      'subscription.created',
      'subscription.past_due',
      'subscription.past_due',
      'subscription.past_due',
    ]);
    const bodies = webhookBodies.map((w) => JSON.parse(w.body));
    const firstPastDue = bodies.find((b) => b.type === 'subscription.past_due' && b.timestamp === new Date(due).toISOString());
    expect(firstPastDue?.data).toMatchObject({ status: 'past_due', next_charge_at: new Date(due + DAY_MS).toISOString() });
    // The cancellation and the end are one append, so the subscription right after the cancellation has ended already.
    expect(bodies.find((b) => b.type === 'subscription.cancelled')?.data).toMatchObject({ status: 'cancelled', cancelled_by: 'unpaid' });
  });

  it('a cancelled subscription ends at the end of its paid period with no further charge', async () => {
    const { provider, subscriber, subscriptionId } = await setUp(10n * PRICE);
    start();
    clock.set('2026-01-25T10:00:00.000Z');
    await cancelSubscription(deps(), subscriber.userId, subscriptionId);
    expect((await state(subscriptionId)).ended).toBeUndefined();
    await runOpenRenewal(subscriptionId);
    const s = await state(subscriptionId);
    expect(s.ended).toEqual({ reason: 'subscriber', endedAt: '2026-02-15T10:00:00.000Z' });
    expect(s.charges).toHaveLength(1);
    expect(openRenewal(s)).toBeUndefined();
    expect(await balance(provider.userId)).toBe(PRICE);
    await eventually(() => mailsTo(provider.email).length === 2, 15_000, 'the provider e-mails');
    expect(
      mailsTo(provider.email).find((m) => m.parsed.subject === '[Sandbox] A subscription to Gold is cancelled')?.parsed.text,
    ).toContain('cancelled their subscription to your plan Gold');
    await eventually(() => webhookTypes().includes('subscription.cancelled'), 15_000, 'subscription.cancelled');
    expect(JSON.parse(webhookBodies.find((w) => w.body.includes('subscription.cancelled'))?.body ?? '{}').data).toMatchObject({
      status: 'cancelled',
      ends_at: '2026-02-15T10:00:00.000Z',
    });
  });

  it('a deleted plan ends its subscriptions at the end of their paid period', async () => {
    const { provider, subscriptionId, planId } = await setUp(10n * PRICE);
    start();
    clock.set('2026-02-01T10:00:00.000Z');
    await deletePlan({ store: temp.store, clock, newId: () => 'x' }, provider.userId, planId);
    await runOpenRenewal(subscriptionId);
    const s = await state(subscriptionId);
    expect(s.cancellation).toMatchObject({ by: 'planDeleted', endsAt: '2026-02-15T10:00:00.000Z' });
    expect(s.ended).toEqual({ reason: 'planDeleted', endedAt: '2026-02-15T10:00:00.000Z' });
    expect(s.charges).toHaveLength(1);
    expect(await balance(provider.userId)).toBe(PRICE);
  });

  it('a plan whose provider deleted the account (wallet closed) charges no one again: the renewal ends the subscription', async () => {
    const { provider, subscriber, subscriptionId } = await setUp(10n * PRICE);
    start();
    clock.set('2026-02-01T10:00:00.000Z');
    // The provider empties the wallet, as deletion requires, and it is closed; the plan is left
    // in place, as when the deletion's read of the provider's plans had not seen it yet.
    const to = (await walletAddressOf(deps(), subscriber.userId)) as string;
    const sent = await sendMlx(deps(), provider.userId, { to: { kind: 'address', address: to }, amount: PRICE - 1000n, fee: 1000n });
    await settleInternalTransfer(deps(), provider.userId, sent.transferId);
    await closeWallet(deps(), provider.userId);
    const subscriberBefore = await balance(subscriber.userId);

    await runOpenRenewal(subscriptionId);

    const s = await state(subscriptionId);
    expect(s.ended).toMatchObject({ reason: 'planDeleted' });
    expect(s.charges).toHaveLength(1);
    expect(await balance(subscriber.userId)).toBe(subscriberBefore);
    expect(await balance(provider.userId)).toBe(0n);
  });

  it('a price increase is announced to each subscriber once (old price, new price, from when, accept) and the next renewal charges the agreed price', async () => {
    const { provider, subscriber, subscriptionId, planId } = await setUp(10n * PRICE);
    const readModel = new LogPlanSubscriptions(temp.store, { followOnRead: false });
    start(readModel);
    clock.set('2026-02-01T10:00:00.000Z');
    const planDeps = { store: temp.store, clock, newId: () => 'x' };
    await updatePlan(planDeps, provider.userId, planId, {
      name: 'Gold',
      description: 'Gold monthly plan',
      price: 300_000n,
      currency: 'mlx',
      duration: 'monthly',
    });
    // The read model lags: the job waits for it instead of announcing to nobody.
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await state(subscriptionId)).announcedPlanRevisions).toEqual([]);
    await readModel.catchUp();
    await eventually(async () => (await state(subscriptionId)).announcedPlanRevisions.length === 1, 15_000, 'announced');
    await eventually(
      async () => {
        const records = await temp.store.readStream(`plan-${planId}`);
        return records.some((r) => r.type === 'PlanPriceChangeAnnounced');
      },
      15_000,
      'PlanPriceChangeAnnounced',
    );
    const plan = await temp.store.readStream(`plan-${planId}`);
    expect(plan.at(-1)?.data).toMatchObject({ planId, planRevision: '1', subscriptions: 1 });
    expect((await loadPlan({ store: temp.store }, planId))?.plan.terms.priceMlx).toBe('300000');

    await eventually(() => subjectsTo(subscriber.email).includes('The price of Gold is changing'), 15_000, 'the price-change e-mail');
    const mail = mailsTo(subscriber.email).find((m) => m.parsed.subject === '[Sandbox] The price of Gold is changing');
    expect(mail?.parsed.text).toContain('from 250,000 MLX to 300,000 MLX a month');
    expect(mail?.parsed.text).toContain('15 February 2026');
    expect(mail?.parsed.text).toContain('You pay the new price only if you accept it');

    await runOpenRenewal(subscriptionId);
    const s = await state(subscriptionId);
    expect(s.charges.map((c) => c.priceMlx)).toEqual(['250000', '250000']);
    expect(await balance(provider.userId)).toBe(2n * PRICE);
    expect(subjectsTo(subscriber.email).filter((x) => x === 'The price of Gold is changing')).toHaveLength(1);
  });
});
