/**
 * A billing process for the simulated-year test (issue 13): the dispatcher with the renewal rules
 * and the renewal workers only, on a SQLite log and a Redis shared with the test, in a process of
 * its own so the test can kill it (SIGKILL) and start another one. Its clock reads the simulated
 * time from a file the test writes, so the test moves time across processes.
 *
 * Environment: BILLING_DB (the SQLite file), REDIS_URL, BILLING_PREFIX (BullMQ prefix),
 * BILLING_CLOCK_FILE (milliseconds since the epoch, as text), BILLING_CONCURRENCY (default 10).
 * Prints "ready" once started; stops cleanly on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Clock, createKeyedSerializer } from '@quern/core';
import { WalletStateCache } from '@quern/core/wallet';
import { createMailer } from '@quern/adapters/mail';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { SUBSCRIPTION_RENEWAL_QUEUE, startDispatcher, startWorkers, subscriptionRenewalRules } from '@quern/workers';
import { Redis } from 'ioredis';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

/** The simulated time: the file's milliseconds, read on every call (the test rewrites it). */
export function fileClock(file: string): Clock {
  return {
    now() {
      const ms = Number(readFileSync(file, 'utf8').trim());
      if (!Number.isFinite(ms)) throw new Error(`${file} holds no time`);
      return new Date(ms);
    },
  };
}

const db = required('BILLING_DB');
const redisUrl = required('REDIS_URL');
const prefix = required('BILLING_PREFIX');
const clock = fileClock(required('BILLING_CLOCK_FILE'));
const concurrency = Number(process.env.BILLING_CONCURRENCY ?? '10');
const quiet = { info: () => {}, error: (m: string) => console.error(m) };

const store = openSqliteEventStore({ file: db });
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
const dispatcher = startDispatcher({
  store,
  redis,
  prefix,
  rules: subscriptionRenewalRules,
  checkpointCheckIntervalMs: 200,
  redisLossGraceMs: 200,
  logger: quiet,
});
const workers = startWorkers({
  store,
  connection: redisUrl,
  // Only the renewal queue runs here: no e-mail is ever sent from this process.
  mailer: createMailer({ dataDir: dirname(db), from: 'Quern <no-reply@quern.example>' }),
  appSecret: 'billing-child-secret-with-enough-characters',
  publicUrl: 'http://quern.test',
  walletSerializer: createKeyedSerializer(),
  walletStateCache: new WalletStateCache(),
  queues: [SUBSCRIPTION_RENEWAL_QUEUE],
  concurrency,
  prefix,
  clock,
  logger: quiet,
});
console.log('ready');

process.on('SIGTERM', async () => {
  await dispatcher.close();
  await workers.close();
  redis.disconnect();
  await store.close();
  process.exit(0);
});
