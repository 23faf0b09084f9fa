/**
 * Subscription renewals charged per second through the real renewal path (issue 13): the
 * dispatcher turns each charge in the log into the next period's renewal job, the renewal worker
 * parks it in BullMQ's delayed set until it is due, and when the clock reaches the due time every
 * job charges its period (an atomic subscriber → provider transfer with SubscriptionRenewed).
 *
 * Set-up: SUBSCRIPTIONS subscribers (env BENCH_SUBSCRIPTIONS, default 2,000) over plans of 50
 * subscribers each, on a fresh SQLite file and a private Redis, with production worker settings
 * (concurrency 5, the shared wallet serializer and state cache). Each run is one billing month:
 * from moving the clock to the due time (and promoting the delayed jobs) until every subscription
 * of that period is charged. RUNS months; median, min and max are printed.
 * Run: node --import tsx bench/subscriptions.ts
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeyedSerializer, type Clock, type EventStore } from '@quern/core';
import { identityPayeeDirectory, userStream } from '@quern/core/identity';
import { createPlan } from '@quern/core/plans';
import { addMonthsOnBillingDay, subscribe } from '@quern/core/subscriptions';
import {
  ensureSystemWallets,
  executeTransfer,
  openUserWallet,
  SYSTEM_WALLET_IDS,
  walletAddressOf,
  WalletStateCache,
  type WalletDeps,
} from '@quern/core/wallet';
import { createMailer } from '@quern/adapters/mail';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { startPrivateRedis } from '@quern/test-support/redis';
import { SUBSCRIPTION_RENEWAL_QUEUE, startDispatcher, startWorkers, subscriptionRenewalRules } from '@quern/workers';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { transferTermsBook } from '@quern/core/transfer-references';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? '2000');
const PER_PLAN = 50;
const RUNS = 5;
const PRICE = 1_000n;
const START = new Date('2026-01-15T10:00:00.000Z');
const PREFIX = 'bench';

let nowMs = START.getTime();
const clock: Clock = { now: () => new Date(nowMs) };

async function registerUser(store: EventStore, index: number): Promise<string> {
  const userId = randomUUID();
  await store.append(
    userStream(userId),
    [
      {
        type: 'UserRegistered',
        data: {
          userId,
          email: `bench${index}@example.com`,
          username: `bench_${index}`,
          firstName: 'Bench',
          lastName: `User${index}`,
          phone: `+1555${String(index).padStart(7, '0')}`,
          passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
          registeredAt: START.toISOString(),
        },
      },
    ],
    'no_stream',
  );
  return userId;
}

async function userWithMlx(deps: WalletDeps, index: number, mlx: bigint): Promise<string> {
  const userId = await registerUser(deps.store, index);
  await openUserWallet(deps, userId);
  if (mlx > 0n)
    await executeTransfer(deps, SYSTEM_WALLET_IDS.genesis, {
      type: 'ReserveTransfer',
      data: {
        transferId: `fund-${userId}`,
        toAddress: (await walletAddressOf(deps, userId)) ?? '',
        toWalletId: userId,
        amountMlx: mlx,
        feeMlx: 1000n,
      },
    });
  return userId;
}

async function setUp(deps: WalletDeps): Promise<void> {
  await ensureSystemWallets(deps, { supplyMlx: 10_000_000_000_000n, reserveFundingMlx: 0n });
  const plans: string[] = [];
  for (let plan = 0; plan < Math.ceil(SUBSCRIPTIONS / PER_PLAN); plan++) {
    const provider = await userWithMlx(deps, 1_000_000 + plan, 0n);
    const created = await createPlan({ store: deps.store, clock, newId: randomUUID }, provider, {
      name: `Plan ${plan}`,
      description: 'Bench plan',
      price: PRICE,
      currency: 'mlx',
      duration: 'monthly',
    });
    plans.push(created.plan.planId);
  }
  for (let first = 0; first < SUBSCRIPTIONS; first += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, SUBSCRIPTIONS - first) }, async (_, k) => {
        const index = first + k;
        const userId = await userWithMlx(deps, index, PRICE * BigInt(RUNS + 2));
        await subscribe(deps, userId, { subscription_plan_id: plans[index % plans.length] ?? '' });
      }),
    );
  }
}

async function chargedCount(store: EventStore, period: number, cursor: { after?: bigint; count: number }): Promise<number> {
  for (;;) {
    const page = await store.readAll({ after: cursor.after, maxCount: 5_000 });
    for (const event of page) {
      cursor.after = event.position;
      if (event.type === 'SubscriptionRenewed' && event.data.period === period) cursor.count += 1;
    }
    if (page.length < 5_000) return cursor.count;
  }
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 600_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quern-bench-subscriptions-'));
  const redisServer = await startPrivateRedis();
  const store = openSqliteEventStore({ file: join(dir, 'events.sqlite') });
  const redis = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  const queue = new Queue(SUBSCRIPTION_RENEWAL_QUEUE, { connection: redis, prefix: PREFIX });
  const serialize = createKeyedSerializer();
  const stateCache = new WalletStateCache();
  const deps: WalletDeps = {
    store,
    transferTerms: transferTermsBook,
    clock,
    newId: randomUUID,
    newKeyIdentifier: () => new Uint8Array(randomBytes(20)),
    network: 'mainnet',
    serialize,
    stateCache,
    payees: identityPayeeDirectory({ store }),
  };
  const quiet = { info: () => {}, error: (m: string) => console.error(m) };
  const dispatcher = startDispatcher({ store, redis, prefix: PREFIX, rules: subscriptionRenewalRules, logger: quiet });
  const workers = startWorkers({
    store,
    connection: redisServer.url,
    mailer: createMailer({ dataDir: dir, from: 'Quern <no-reply@quern.example>' }),
    appSecret: 'bench-secret-with-enough-characters',
    publicUrl: 'http://quern.bench',
    walletSerializer: serialize,
    walletStateCache: stateCache,
    queues: [SUBSCRIPTION_RENEWAL_QUEUE],
    prefix: PREFIX,
    clock,
    logger: quiet,
  });
  try {
    console.log('Subscription renewals benchmark');
    console.log(
      `node ${process.version}, ${SUBSCRIPTIONS} subscriptions, ${Math.ceil(SUBSCRIPTIONS / PER_PLAN)} plans, ${RUNS} billing months`,
    );
    const setUpStarted = Date.now();
    await setUp(deps);
    console.log(`set-up (subscribe, first charge): ${Date.now() - setUpStarted} ms`);
    const rates: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const period = run + 2;
      await waitFor(async () => (await queue.getDelayedCount()) === SUBSCRIPTIONS, `period ${period} renewals delayed`);
      const cursor = { count: 0 };
      await chargedCount(store, period, cursor);
      const started = process.hrtime.bigint();
      nowMs = addMonthsOnBillingDay(START, period - 1, START.getUTCDate()).getTime();
      await queue.promoteJobs({ count: 100_000 });
      await waitFor(async () => (await chargedCount(store, period, cursor)) === SUBSCRIPTIONS, `period ${period} charged`);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      rates.push(SUBSCRIPTIONS / seconds);
      console.log(`  period ${period}: ${SUBSCRIPTIONS} renewals in ${seconds.toFixed(2)} s (${Math.round(SUBSCRIPTIONS / seconds)}/s)`);
    }
    rates.sort((a, b) => a - b);
    const fmt = (n: number) => Math.round(n).toLocaleString('en');
    console.log(
      `renewals charged per second: median ${fmt(rates[Math.floor(rates.length / 2)] ?? 0)}/s (min ${fmt(rates[0] ?? 0)}, max ${fmt(rates.at(-1) ?? 0)})`,
    );
  } finally {
    await dispatcher.close();
    await workers.close();
    await queue.close();
    redis.disconnect();
    await store.close();
    await redisServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
