// Proves the renewal sweep (ADR 057) against real SQLite and a real Redis with BullMQ: a
// renewal whose job failed for good (the worker threw on every attempt) is re-queued by the
// sweep and then charged exactly once; the sweep racing a manual retry, another sweep and a
// direct run of the same renewal still charges once; a renewal the subscriber could not pay
// follows the funds path (past due, the next attempt's job) and the sweep re-queues nothing;
// and a failed job whose renewal the log has decided meanwhile is removed, not run.
import { loadSubscription, openRenewal, runRenewal, subscribe, subscriptionStream } from '@quern/core/subscriptions';
import { readWallet } from '@quern/core/wallet';
import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectRedis, deleteKeys, eventually, uniquePrefix } from '../../test/pipeline.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import { billingDeps, billingUser, monthlyPlan, prepareBilling, TestClock } from '../../test/subscriptions.js';
import { LookBackoff } from '../purchase-sweep/look-backoff.js';
import { resumableBullJob } from '../job/resumable.js';
import { renewSubscription } from './job.js';
import { SUBSCRIPTION_RENEWAL_JOB_NAME, SUBSCRIPTION_RENEWAL_QUEUE, subscriptionRenewalJobId } from './payload.js';
import { sweepFailedRenewals } from './sweep.js';
import { transferTermsBook } from '@quern/core/transfer-references';

const redisUrl = process.env.REDIS_URL as string;
const PRICE = 250_000n;
let temp: TempStore;
let redis: Redis;
let prefix: string;
let clock: TestClock;
let queue: Queue;
const workers: Worker[] = [];
const logger = { info: () => {}, error: () => {} } as never;

beforeEach(async () => {
  temp = openTempStore();
  redis = connectRedis(redisUrl);
  prefix = uniquePrefix();
  clock = new TestClock('2026-01-15T10:00:00.000Z');
  queue = new Queue(SUBSCRIPTION_RENEWAL_QUEUE, { connection: redis, prefix });
  await prepareBilling(temp.store, clock);
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  await queue.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await temp.dispose();
});

const deps = () => ({ core: { store: temp.store, clock }, jobs: { failed: (n: number) => queue.getFailed(0, n - 1) }, logger });
const coreDeps = () => ({ store: temp.store, clock, transferTerms: transferTermsBook });

async function subscription(subscriberMlx: bigint, index: number) {
  const provider = await billingUser(temp.store, clock, index, 0n);
  const subscriber = await billingUser(temp.store, clock, index + 1, subscriberMlx);
  const planId = await monthlyPlan(temp.store, clock, provider.userId, PRICE);
  const { state } = await subscribe(billingDeps(temp.store, clock), subscriber.userId, { subscription_plan_id: planId });
  return { provider, subscriber, subscriptionId: state.subscriptionId };
}

const stateOf = async (subscriptionId: string) => {
  const loaded = await loadSubscription({ store: temp.store }, subscriptionId);
  if (!loaded) throw new Error('no subscription');
  return loaded.state;
};
const balance = async (userId: string) => (await readWallet(billingDeps(temp.store, clock), userId)).state.postedBalanceMlx;

/** The open renewal's job, added as the dispatcher adds it, run by a worker that throws until it gives up (Quern failing, not funds). */
async function failedRenewalJob(subscriptionId: string): Promise<string> {
  const open = openRenewal(await stateOf(subscriptionId));
  if (!open) throw new Error('no open renewal');
  const jobId = subscriptionRenewalJobId(subscriptionId, open.period, open.attempt);
  const broken = new Worker(
    SUBSCRIPTION_RENEWAL_QUEUE,
    async () => {
      throw new Error('event store unreachable');
    },
    { connection: redis.duplicate(), prefix },
  );
  await queue.add(
    SUBSCRIPTION_RENEWAL_JOB_NAME,
    { subscriptionId, period: open.period, attempt: open.attempt },
    { jobId, attempts: 2, backoff: { type: 'fixed', delay: 10 } },
  );
  await eventually(async () => (await queue.getJobState(jobId)) === 'failed', 15_000, `${jobId} failed`);
  await broken.close();
  return jobId;
}

/** The real renewal worker, as workers.ts runs it. */
function startRenewalWorker() {
  const worker = new Worker(
    SUBSCRIPTION_RENEWAL_QUEUE,
    (job: Job, token?: string) => renewSubscription(resumableBullJob(job, token), coreDeps()),
    {
      connection: redis.duplicate(),
      prefix,
    },
  );
  workers.push(worker);
  return worker;
}

describe('renewal sweep', () => {
  it('re-queues a renewal whose job failed for good, and it is charged once', async () => {
    const { provider, subscriber, subscriptionId } = await subscription(10n * PRICE, 1);
    clock.set('2026-02-15T10:00:00.000Z');
    const jobId = await failedRenewalJob(subscriptionId);
    expect((await stateOf(subscriptionId)).charges).toHaveLength(1);

    startRenewalWorker();
    expect(await sweepFailedRenewals(deps())).toEqual({ requeued: 1, removed: 0 });
    await eventually(async () => (await queue.getJobState(jobId)) === 'completed', 15_000, `${jobId} completed`);
    const s = await stateOf(subscriptionId);
    expect(s.charges.map((c) => c.period)).toEqual([1, 2]);
    expect([await balance(provider.userId), await balance(subscriber.userId)]).toEqual([2n * PRICE, 8n * PRICE]);
    // Nothing failed is left: the next sweep does nothing.
    expect(await sweepFailedRenewals(deps())).toEqual({ requeued: 0, removed: 0 });
  });

  it('the sweep racing a manual retry, another sweep and a direct run charges once', async () => {
    const { provider, subscriber, subscriptionId } = await subscription(10n * PRICE, 3);
    clock.set('2026-02-15T10:00:00.000Z');
    const jobId = await failedRenewalJob(subscriptionId);
    startRenewalWorker();
    startRenewalWorker();
    const job = (await queue.getJob(jobId)) as Job;
    const results = await Promise.allSettled([
      sweepFailedRenewals(deps()),
      sweepFailedRenewals(deps()),
      job.retry('failed'),
      runRenewal(coreDeps(), { subscriptionId, period: 2, attempt: 1 }),
      runRenewal(coreDeps(), { subscriptionId, period: 2, attempt: 1 }),
    ]);
    // Whoever lost a race learnt so (an error or 'stale'); the sweeps never throw for it.
    expect(results[0]?.status).toBe('fulfilled');
    expect(results[1]?.status).toBe('fulfilled');
    // The job ends completed (it ran, perhaps finding its pair decided), or removed (a sweep saw the direct run's charge first).
    await eventually(async () => ['completed', 'unknown'].includes(await queue.getJobState(jobId)), 15_000, `${jobId} settled`);
    expect(await queue.getFailedCount()).toBe(0);
    const s = await stateOf(subscriptionId);
    expect(s.charges.map((c) => c.period)).toEqual([1, 2]);
    expect([await balance(provider.userId), await balance(subscriber.userId)]).toEqual([2n * PRICE, 8n * PRICE]);
    const events = await temp.store.readStream(`subscription-${subscriptionId}`);
    expect(events.filter((e) => e.type === 'SubscriptionRenewed')).toHaveLength(1);
  });

  it('a renewal the subscriber cannot pay follows the funds path, and the sweep re-queues nothing', async () => {
    const { provider, subscriptionId } = await subscription(PRICE, 5);
    clock.set('2026-02-15T10:00:00.000Z');
    const open = openRenewal(await stateOf(subscriptionId));
    const jobId = subscriptionRenewalJobId(subscriptionId, 2, 1);
    startRenewalWorker();
    await queue.add(SUBSCRIPTION_RENEWAL_JOB_NAME, { subscriptionId, period: open?.period, attempt: open?.attempt }, { jobId });
    await eventually(async () => (await queue.getJobState(jobId)) === 'completed', 15_000, `${jobId} completed`);
    const s = await stateOf(subscriptionId);
    expect([s.failedAttempts, s.charges.length]).toEqual([1, 1]);
    expect(openRenewal(s)).toMatchObject({ period: 2, attempt: 2 });
    expect(await sweepFailedRenewals(deps())).toEqual({ requeued: 0, removed: 0 });
    expect(await balance(provider.userId)).toBe(PRICE);
  });

  it('a failed job whose renewal the log has decided meanwhile is removed, not run', async () => {
    const { provider, subscriptionId } = await subscription(10n * PRICE, 7);
    clock.set('2026-02-15T10:00:00.000Z');
    const jobId = await failedRenewalJob(subscriptionId);
    expect((await runRenewal(coreDeps(), { subscriptionId, period: 2, attempt: 1 })).outcome).toBe('renewed');
    expect(await sweepFailedRenewals(deps())).toEqual({ requeued: 0, removed: 1 });
    expect(await queue.getJob(jobId)).toBeUndefined();
    expect(await balance(provider.userId)).toBe(2n * PRICE);
  });

  it('a job whose subscription cannot be read is left failed, the jobs after it are still re-queued, and it is read again only when its pause is over', async () => {
    const unreadable = await subscription(10n * PRICE, 9);
    const readable = await subscription(10n * PRICE, 11);
    clock.set('2026-02-15T10:00:00.000Z');
    const unreadableJob = await failedRenewalJob(unreadable.subscriptionId);
    const readableJob = await failedRenewalJob(readable.subscriptionId);
    // An event this version cannot read (written by a newer Quern, say): loading the subscription throws.
    const stream = subscriptionStream(unreadable.subscriptionId);
    await temp.store.append(stream, [{ type: 'SubscriptionFromTheFuture', data: {} }], 'any');
    let reads = 0;
    const store = Object.create(temp.store) as typeof temp.store;
    store.readStream = (streamId, ...rest) => {
      if (streamId === stream) reads += 1;
      return temp.store.readStream(streamId, ...rest);
    };
    // The unreadable job first, as the queue may well list it.
    const failed = async (n: number) =>
      (await queue.getFailed(0, n - 1)).sort((a, b) => Number(b.id === unreadableJob) - Number(a.id === unreadableJob));
    const sweepDeps = { ...deps(), core: { store, clock }, jobs: { failed } };
    const backoff = new LookBackoff(60_000);

    expect(await sweepFailedRenewals(sweepDeps, { backoff })).toEqual({ requeued: 1, removed: 0 });
    expect(await queue.getJobState(readableJob)).toBe('waiting');
    expect(await queue.getJobState(unreadableJob)).toBe('failed');
    expect(reads).toBe(1);
    // Within its pause the next sweep does not read it again.
    expect(await sweepFailedRenewals(sweepDeps, { backoff })).toEqual({ requeued: 0, removed: 0 });
    expect(reads).toBe(1);
    clock.set('2026-02-15T10:01:00.000Z');
    await sweepFailedRenewals(sweepDeps, { backoff });
    expect(reads).toBe(2);
  });
});
