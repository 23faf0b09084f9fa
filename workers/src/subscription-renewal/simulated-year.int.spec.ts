// The simulated year (issue 13): a year of monthly renewals for 1,000 subscriptions (env
// QUERN_YEAR_SUBSCRIPTIONS) in simulated time, billed by a real billing process (dispatcher and
// renewal workers, test-support/billing-child.ts) on the same SQLite log and a private Redis, with
// the clock in a file the test moves. In month 5 Redis is flushed (FLUSHALL) while renewals are
// open; in month 8 the billing process is killed (SIGKILL) mid-month and a new one started. At the
// end every subscription has exactly 12 charges (periods 1 to 12, none missed or doubled, read
// from the log), each provider holds 12 × price × its subscribers, and the ledger audit is clean.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createKeyedSerializer, type EventStore } from '@quern/core';
import { addMonthsOnBillingDay, subscribe, toSubscriptionEvent } from '@quern/core/subscriptions';
import { readWallet, WalletStateCache, type WalletDeps } from '@quern/core/wallet';
import { createLedgerAuditor } from '@quern/core/audit';
import { type RedisServer, startPrivateRedis } from '@quern/test-support/redis';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTempStore, type TempStore } from '../../test/store.js';
import { billingDeps, billingUser, monthlyPlan, prepareBilling, TestClock } from '../../test/subscriptions.js';
import { SUBSCRIPTION_RENEWAL_QUEUE } from './payload.js';

const SUBSCRIPTIONS = Number(process.env.QUERN_YEAR_SUBSCRIPTIONS ?? '1000');
const SUBSCRIBERS_PER_PLAN = 50;
const PLANS = Math.max(1, Math.ceil(SUBSCRIPTIONS / SUBSCRIBERS_PER_PLAN));
const START = new Date('2026-01-15T10:00:00.000Z');
const PREFIX = 'year';
const ROOT = resolve(import.meta.dirname, '../../..');
const priceOf = (plan: number) => BigInt(1_000 + plan);

let temp: TempStore;
let server: RedisServer;
let redis: Redis;
let queue: Queue;
let child: ChildProcess | undefined;
let childErrors = '';
const clockFile = () => join(temp.dir, 'clock');

function setSimulatedTime(at: Date): void {
  writeFileSync(clockFile(), String(at.getTime()));
}

async function startChild(): Promise<ChildProcess> {
  const process_ = spawn(process.execPath, ['--import', 'tsx', 'test-support/billing-child.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      BILLING_DB: join(temp.dir, 'events.sqlite'),
      REDIS_URL: server.url,
      BILLING_PREFIX: PREFIX,
      BILLING_CLOCK_FILE: clockFile(),
      BILLING_CONCURRENCY: '10',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  process_.stderr?.on('data', (chunk: Buffer) => {
    childErrors = (childErrors + chunk.toString()).slice(-20_000);
  });
  await new Promise<void>((ready, failed) => {
    process_.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && ready());
    process_.once('exit', (code) => failed(new Error(`billing process exited (${code}) before it was ready: ${childErrors}`)));
  });
  return process_;
}

async function stopChild(signal: NodeJS.Signals): Promise<void> {
  const running = child;
  child = undefined;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((r) => running.once('exit', r));
  running.kill(signal);
  await exited;
}

/** The charges in the log, read incrementally: subscription → periods charged (a period twice is kept twice). */
class ChargeCount {
  readonly periods = new Map<string, number[]>();
  #cursor: bigint | undefined;
  constructor(private readonly store: EventStore) {}
  async read(): Promise<void> {
    for (;;) {
      const page = await this.store.readAll({ after: this.#cursor, maxCount: 5_000 });
      for (const recorded of page) {
        this.#cursor = recorded.position;
        if (recorded.type !== 'SubscriptionStarted' && recorded.type !== 'SubscriptionRenewed') continue;
        const event = toSubscriptionEvent(recorded);
        if (event?.type !== 'SubscriptionStarted' && event?.type !== 'SubscriptionRenewed') throw new Error('malformed charge');
        const list = this.periods.get(event.data.subscriptionId) ?? [];
        list.push(event.data.period);
        this.periods.set(event.data.subscriptionId, list);
      }
      if (page.length < 5_000) return;
    }
  }
  /** Subscriptions charged for the period, after reading what the log gained. */
  async charged(period: number): Promise<number> {
    await this.read();
    let count = 0;
    for (const list of this.periods.values()) if (list.includes(period)) count += 1;
    return count;
  }
}

/** Waits until `done` holds, promoting the delayed renewals again whenever nothing moved for a while. */
async function until(done: () => Promise<boolean>, what: string, options: { timeoutMs?: number; promote?: boolean } = {}): Promise<void> {
  const { timeoutMs = 120_000, promote = true } = options;
  const deadline = Date.now() + timeoutMs;
  let lastPromote = Date.now();
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Timed out: ${what}; billing process errors: ${childErrors.slice(-2_000)}`);
    if (promote && Date.now() - lastPromote > 3_000) {
      await queue.promoteJobs({ count: 100_000 });
      lastPromote = Date.now();
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  temp = openTempStore();
  server = await startPrivateRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: null });
  queue = new Queue(SUBSCRIPTION_RENEWAL_QUEUE, { connection: redis, prefix: PREFIX });
});
afterAll(async () => {
  await stopChild('SIGTERM');
  await queue.close();
  redis.disconnect();
  await server.stop();
  await temp.dispose();
});

describe('the simulated year', () => {
  it(`${SUBSCRIPTIONS} monthly subscriptions renew 12 times each through a Redis flush and a killed billing process, and the ledger audit is clean`, {
    timeout: 900_000,
  }, async () => {
    const started = Date.now();
    const clock = new TestClock(START);
    setSimulatedTime(START);
    const deps: WalletDeps = { ...billingDeps(temp.store, clock), serialize: createKeyedSerializer(), stateCache: new WalletStateCache() };
    await prepareBilling(temp.store, clock);
    const providers: { userId: string; planId: string; price: bigint; subscribers: number }[] = [];
    for (let plan = 0; plan < PLANS; plan++) {
      const provider = await billingUser(temp.store, clock, 100_000 + plan, 0n);
      providers.push({
        userId: provider.userId,
        planId: await monthlyPlan(temp.store, clock, provider.userId, priceOf(plan), `Plan ${plan}`),
        price: priceOf(plan),
        subscribers: 0,
      });
    }
    const BATCH = 25;
    for (let first = 0; first < SUBSCRIPTIONS; first += BATCH) {
      await Promise.all(
        Array.from({ length: Math.min(BATCH, SUBSCRIPTIONS - first) }, async (_, k) => {
          const index = first + k;
          const target = providers[index % PLANS];
          if (!target) throw new Error('no plan');
          const user = await billingUser(temp.store, clock, index, 12n * target.price, undefined, deps);
          await subscribe(deps, user.userId, { subscription_plan_id: target.planId });
          target.subscribers += 1;
        }),
      );
    }
    const setUpMs = Date.now() - started;
    const charges = new ChargeCount(temp.store);
    await charges.read();
    expect(await charges.charged(1)).toBe(SUBSCRIPTIONS);

    child = await startChild();
    const monthsMs: number[] = [];
    for (let period = 2; period <= 12; period++) {
      const monthStarted = Date.now();
      // Every open renewal is parked in the delayed set until its due time.
      await until(async () => (await queue.getDelayedCount()) === SUBSCRIPTIONS, `period ${period}: ${SUBSCRIPTIONS} renewals delayed`, {
        promote: false,
      });
      setSimulatedTime(addMonthsOnBillingDay(START, period - 1, START.getUTCDate()));
      await queue.promoteJobs({ count: 100_000 });
      if (period === 5) {
        await until(async () => (await charges.charged(5)) >= SUBSCRIPTIONS / 4, 'a quarter of period 5 charged');
        // Redis loses everything while renewals are open; the dispatcher re-derives them from the log.
        expect(await charges.charged(5)).toBeLessThan(SUBSCRIPTIONS);
        expect(await redis.flushall()).toBe('OK');
      }
      if (period === 8) {
        await until(async () => (await charges.charged(8)) >= SUBSCRIPTIONS / 4, 'a quarter of period 8 charged');
        expect(await charges.charged(8)).toBeLessThan(SUBSCRIPTIONS);
        const killed = child;
        await stopChild('SIGKILL');
        expect(killed?.signalCode).toBe('SIGKILL');
        child = await startChild();
      }
      await until(async () => (await charges.charged(period)) === SUBSCRIPTIONS, `period ${period} charged`, {
        timeoutMs: 300_000,
      });
      monthsMs.push(Date.now() - monthStarted);
    }
    await stopChild('SIGTERM');
    await charges.read();

    // Exactly 12 charges each, periods 1 to 12: none missed, none doubled.
    expect(charges.periods.size).toBe(SUBSCRIPTIONS);
    const wrong = [...charges.periods].filter(([, periods]) => periods.join(',') !== '1,2,3,4,5,6,7,8,9,10,11,12');
    expect(wrong).toEqual([]);
    for (const provider of providers) {
      expect((await readWallet(deps, provider.userId)).state.postedBalanceMlx).toBe(12n * provider.price * BigInt(provider.subscribers));
    }
    const auditor = createLedgerAuditor();
    let after: bigint | undefined;
    for (;;) {
      const page = await temp.store.readAll({ after, maxCount: 5_000 });
      for (const e of page) auditor.add({ streamId: e.streamId, type: e.type, data: e.data, position: e.position });
      if (page.length < 5_000) break;
      after = page.at(-1)?.position;
    }
    const audit = auditor.summary();
    expect(audit.violations).toEqual([]);
    expect(audit.ok).toBe(true);
    console.log(
      `[simulated year] ${SUBSCRIPTIONS} subscriptions, ${PLANS} plans: set-up ${setUpMs} ms, months 2-12 ${monthsMs.join('/')} ms, total ${Date.now() - started} ms`,
    );
  });
});
