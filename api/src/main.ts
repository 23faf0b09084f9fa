/**
 * The composition root: reads the configuration, opens the event store and Redis, and starts
 * the parts asked for. `npm start` runs them all in one process (the embedded default);
 * docker-compose runs the api, projections and workers as separate processes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { createKeyedSerializer, systemClock, type EventStore } from '@quern/core';
import { errorText, isLanguage } from '@quern/core/i18n';
import { ensureSystemWallets, recordConfiguredExchangeRate, WalletStateCache, type WalletDeps } from '@quern/core/wallet';
import {
  allProjections,
  DEFAULT_CHECKPOINT_KEY,
  listPurchasesAwaitingCapture,
  listPurchasesAwaitingCredit,
  listPlansOfProvider,
  listSubscriptionIdsOfSubscriber,
  startProjections,
  type ProjectionRunner,
  subscriptionIdsOfPlanAsOf,
} from '@quern/projections';
import { createMailer } from '@quern/adapters/mail';
import { startDepositWatcher, startDispatcher, startWorkers } from '@quern/workers';
import type { Config } from './config.js';
import { createHealthCheck } from './health.js';
import { createApp } from './http/app.js';
import { isCommonPassword } from './identity/common-passwords.js';
import { createIdentityLimits } from './identity/limits.js';
import { createAccountCloser } from './identity/account-closing.js';
import { createIdentityService } from './identity/service.js';
import { createSessionStore } from './identity/sessions.js';
import { loadAppSecret } from './infra/app-secret.js';
import { assertSealedLog, openEventStore } from '@quern/adapters/eventstore';
import type { SealingEventStore } from '@quern/adapters/personal-data';
import { startHeartbeat } from './infra/heartbeat.js';
import { createPasswordHasher } from '@quern/adapters/passwords';
import { connectRedis, resolveRedis, type RedisEndpoint } from '@quern/adapters/redis';
import { type OpenedMillixNetwork, openMillixNetwork } from '@quern/adapters/millix';
import { nodeNotificationRoutes } from './wallet/node-notification.js';
import { waitForCheckpoint } from './infra/read-your-writes.js';
import { createPlanService } from './plans/service.js';
import { createCaptcha } from './contact/captcha.js';
import { createContactService } from './contact/service.js';
import { createSubscriptionService } from './subscriptions/service.js';
import { createWalletService } from './wallet/service.js';
import { type OpenedPayPal, openPayPal } from './purchases/paypal.js';
import { createPurchaseService } from './purchases/service.js';
import { createCheckoutService } from './checkout/service.js';
import { createPayoutService } from './payouts/service.js';
import { createRefundService } from './refunds/service.js';
import { createDirectService } from './direct/service.js';
import { createWebhookService } from './webhooks/service.js';
import { createPaymentsService } from './payments/service.js';

export { LOCAL_PAYPAL_PATH } from './purchases/paypal.js';

export interface Parts {
  api: boolean;
  projections: boolean;
  workers: boolean;
}

export interface RunningQuern {
  url: string | undefined;
  store: EventStore;
  /** The HTTP application when the api runs (tests walk its routes). */
  app?: Express;
  /** Where PayPal calls go (tests reach the local server's state through it). */
  paypal: OpenedPayPal;
  stop(): Promise<void>;
}

const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

type Stop = () => Promise<void>;

/** What every part shares: the log, Redis, the app secret, the ledger's dependencies and the network. */
interface Foundations {
  config: Config;
  dataDir: string;
  redisEndpoint: RedisEndpoint;
  redis: Redis;
  store: SealingEventStore;
  appSecret: string;
  walletDeps: WalletDeps;
  network: OpenedMillixNetwork;
  paypal: OpenedPayPal;
}

/**
 * Starts the parts asked for on one set of foundations, in the order they depend on each other:
 * the ledger's system accounts, the read models, the background work, then the HTTP api.
 */
export async function startQuern(config: Config, parts: Parts): Promise<RunningQuern> {
  const foundations = await openFoundations(config, parts);
  const stops: Stop[] = [() => foundations.network.close(), () => foundations.paypal.close()];
  await prepareLedger(foundations);
  const projections = parts.projections ? startProjectionPart(foundations, stops) : undefined;
  if (parts.workers) startWorkerPart(foundations, stops);
  const api = parts.api ? await startApiPart(foundations, projections) : undefined;
  const server = api?.server;
  const address = server?.address();
  return {
    url: address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : undefined,
    store: foundations.store,
    app: api?.app,
    paypal: foundations.paypal,
    stop: () => stopAll(foundations, server, stops),
  };
}

async function openFoundations(config: Config, parts: Parts): Promise<Foundations> {
  const dataDir = resolve(config.DATA_DIR);
  const redisEndpoint = await resolveRedis({ redisUrl: config.REDIS_URL, dataDir });
  const redis = connectRedis(redisEndpoint.url, 'main');
  const store = openEventStore({ eventStoreUrl: config.EVENTSTORE_URL, dataDir, personalDataKey: config.PERSONAL_DATA_KEY });
  // Fails fast when the log is unusable, and lets the SQLite store's writer thread finish
  // starting before the first request waits on it (ADR 021).
  await store.ping();
  await assertSealedLog(store);
  const walletDeps: WalletDeps = {
    store,
    clock: systemClock,
    newId: randomUUID,
    newKeyIdentifier: () => new Uint8Array(randomBytes(20)),
    network: config.MILLIX_NETWORK,
    serialize: createKeyedSerializer(),
    stateCache: new WalletStateCache(),
    // A settlement delay exists so people can watch a send pending (demos, the browser tests);
    // internal sends then keep the reserve-then-settle path instead of settling at once (ADR 019).
    twoPhaseInternalSends: config.SETTLEMENT_DELAY_MS > 0,
  };
  // The millix network: the simulated one by default, a node's HTTP API when configured.
  const network = openMillixNetwork({
    millixNodeUrl: config.MILLIX_NODE_URL,
    millixNodeId: config.MILLIX_NODE_ID,
    millixNodeSignature: config.MILLIX_NODE_SIGNATURE,
    dataDir,
    confirmDelayMs: config.MILLIX_CONFIRM_DELAY_MS,
  });
  const paypal = openPayPal(config, dataDir, parts.api);
  return {
    config,
    dataDir,
    redisEndpoint,
    redis,
    store,
    appSecret: loadAppSecret(config.APP_SECRET, dataDir),
    walletDeps,
    network,
    paypal,
  };
}

/** Idempotent on every start: the first one mints the supply and funds the reserve. */
async function prepareLedger({ config, walletDeps }: Foundations): Promise<void> {
  await ensureSystemWallets(walletDeps, { supplyMlx: BigInt(config.SUPPLY_MLX), reserveFundingMlx: BigInt(config.RESERVE_FUNDING_MLX) });
  if (config.EXCHANGE_RATE_USD_PER_MLX) await recordConfiguredExchangeRate(walletDeps, config.EXCHANGE_RATE_USD_PER_MLX);
}

function startProjectionPart({ config, store, redis }: Foundations, stops: Stop[]): ProjectionRunner {
  const runner = startProjections({ store, redis, projections: allProjections });
  stops.push(
    startHeartbeat(redis, 'projections', () => runner.status(), config.HEARTBEAT_INTERVAL_MS),
    () => runner.close(),
  );
  return runner;
}

/** The dispatcher (log -> jobs), the BullMQ workers (purchases and their sweep included) and the deposit watcher. */
function startWorkerPart(f: Foundations, stops: Stop[]): void {
  const { config, store, redis, network } = f;
  const dispatcher = startDispatcher({ store, redis });
  // Closed after the workers: its SMTP pool keeps a connection open until then.
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, dataDir: f.dataDir, from: config.MAIL_FROM });
  const workers = startWorkers({
    store,
    connection: f.redisEndpoint.url,
    mailer,
    appSecret: f.appSecret,
    publicUrl: config.publicUrl,
    supportEmail: config.SUPPORT_EMAIL,
    companyName: config.COMPANY_NAME,
    network,
    settlementDelayMs: config.SETTLEMENT_DELAY_MS,
    settlementWaitMs: config.SETTLEMENT_WAIT_MS,
    depositWaitMs: config.DEPOSIT_WAIT_MS,
    networkPollIntervalMs: config.NETWORK_POLL_INTERVAL_MS,
    walletSerializer: f.walletDeps.serialize,
    walletStateCache: f.walletDeps.stateCache,
    // The plans' subscriptions for price-change notices, from the read model (this process or another).
    planSubscriptions: {
      subscriptionIdsOfPlan: (planId, atLeastPosition) => subscriptionIdsOfPlanAsOf(redis, planId, atLeastPosition),
    },
    webhooks: {
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      ...(config.WEBHOOK_RETRY_SCHEDULE_MS ? { retryScheduleMs: config.WEBHOOK_RETRY_SCHEDULE_MS } : {}),
    },
    purchases: {
      paypal: f.paypal.client,
      creditGraceMs: config.PURCHASE_CREDIT_GRACE_MS,
      sweepIntervalMs: config.PURCHASE_SWEEP_INTERVAL_MS,
      // The purchases read model, kept by the projections part (this process or another).
      openPurchases: {
        awaitingCapture: (range) => listPurchasesAwaitingCapture(redis, range),
        awaitingCredit: (range) => listPurchasesAwaitingCredit(redis, range),
      },
    },
  });
  const deposits = startDepositWatcher({ store, redis, network, intervalMs: config.DEPOSIT_POLL_INTERVAL_MS });
  const beat = config.HEARTBEAT_INTERVAL_MS;
  stops.push(
    startHeartbeat(redis, 'deposits', () => deposits.status(), beat),
    () => deposits.close(),
    startHeartbeat(redis, 'dispatcher', () => dispatcher.status(), beat),
    startHeartbeat(redis, 'workers', () => workers.status(), beat),
    () => mailer.close(),
    () => dispatcher.close(),
    () => workers.close(),
  );
}

/** The services behind the HTTP api, and the server itself once it listens. */

async function startApiPart(f: Foundations, projections: ProjectionRunner | undefined): Promise<{ app: Express; server: Server }> {
  const { config, store, redis, network } = f;
  const sessions = createSessionStore(redis, { ttlHours: config.SESSION_TTL_HOURS, maxAgeDays: config.SESSION_MAX_AGE_DAYS });
  const allowedOrigins = new Set([new URL(config.publicUrl).origin]);
  const waitMs = config.READ_YOUR_WRITES_WAIT_MS;
  const wallet = createWalletService({
    core: f.walletDeps,
    redis,
    // In one process the runner says when it got there; otherwise its checkpoint in Redis does.
    waitForReadModels: async (position) => {
      if (projections) await projections.waitForPosition(position, waitMs);
      else await waitForCheckpoint(redis, DEFAULT_CHECKPOINT_KEY, position, waitMs);
    },
  });
  const purchases = createPurchaseService({
    core: f.walletDeps,
    paypal: f.paypal.client,
    browser: f.paypal.browser,
    captureWaitMs: config.CAPTURE_WAIT_MS,
    noteWrite: (userId, position) => wallet.noteWrite(userId, position),
  });
  const checkout = createCheckoutService({
    core: f.walletDeps,
    appSecret: f.appSecret,
    noteWrite: (userId, position) => wallet.noteWrite(userId, position),
  });
  const refunds = createRefundService({ core: f.walletDeps, noteWrite: (userId, position) => wallet.noteWrite(userId, position) });
  const payouts = createPayoutService({ core: f.walletDeps, noteWrite: (userId, position) => wallet.noteWrite(userId, position) });
  const plainDeps = { store, clock: systemClock, newId: randomUUID };
  const closeAccount = createAccountCloser({
    wallet: f.walletDeps,
    plans: plainDeps,
    subscriptions: f.walletDeps,
    merchantKeys: plainDeps,
    webhooks: plainDeps,
    planIdsOf: async (userId) => {
      await wallet.awaitOwnWrites(userId);
      return (await listPlansOfProvider(redis, userId)).map((plan) => plan.id);
    },
    subscriptionIdsOf: async (userId) => {
      await wallet.awaitOwnWrites(userId);
      return listSubscriptionIdsOfSubscriber(redis, userId);
    },
  });
  const identity = createIdentityService({
    core: {
      store,
      hasher: createPasswordHasher(),
      clock: systemClock,
      newId: randomUUID,
      isCommonPassword,
      personalData: store.personalData,
    },
    sessions,
    limits: createIdentityLimits(redis, {
      loginFreeFailures: config.LOGIN_FREE_FAILURES,
      loginFailuresPerAccount: config.LOGIN_FAILURES_PER_ACCOUNT,
      loginFailuresPerIp: config.LOGIN_FAILURES_PER_IP,
      registrationsPerIpHour: config.REGISTRATIONS_PER_IP_HOUR,
    }),
    clock: systemClock,
    appSecret: f.appSecret,
    secureCookies: config.publicUrl.startsWith('https://'),
    openWallet: (userId) => wallet.openFor(userId),
    closeAccount,
    deletedMessage: (language) => errorText('errors:accountDeletedNotice', isLanguage(language) ? language : undefined),
  });
  const direct = createDirectService({
    core: { store, clock: systemClock, newId: randomUUID },
    redis,
    requestsPerMinute: config.API_KEY_REQUESTS_PER_MINUTE,
  });
  const webhooks = createWebhookService({
    core: { store, clock: systemClock, newId: randomUUID },
    redis,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
  });
  const app = createApp({
    identity,
    webhooks,
    wallet,
    purchases,
    checkout,
    refunds,
    payouts,
    direct,
    payments: createPaymentsService({ redis, awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId) }),
    plans: createPlanService({
      core: { store, clock: systemClock, newId: randomUUID },
      redis,
      noteWrite: (userId, position) => wallet.noteWrite(userId, position),
      awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId),
    }),
    subscriptions: createSubscriptionService({
      core: f.walletDeps,
      redis,
      noteWrite: (userId, position) => wallet.noteWrite(userId, position),
      awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId),
    }),
    contact: createContactService({
      core: { store, clock: systemClock, newId: randomUUID },
      redis,
      captcha: createCaptcha({
        appSecret: f.appSecret,
        redis,
        ...(config.RECAPTCHA_SITE_KEY && config.RECAPTCHA_SECRET
          ? { recaptcha: { siteKey: config.RECAPTCHA_SITE_KEY, secret: config.RECAPTCHA_SECRET, verifyUrl: config.RECAPTCHA_VERIFY_URL } }
          : {}),
      }),
      messagesPerUserHour: config.CONTACT_MESSAGES_PER_USER_HOUR,
      messagesPerIpHour: config.CONTACT_MESSAGES_PER_IP_HOUR,
    }),
    sessions,
    health: createHealthCheck(store, redis),
    allowedOrigins,
    trustProxy: config.TRUST_PROXY,
    https: config.publicUrl.startsWith('https://'),
    publicUrl: config.publicUrl,
    webDistDir: WEB_DIST_DIR,
    companyName: config.COMPANY_NAME,
    extraRoutes: [
      ...(network.incomingFromNotification
        ? [nodeNotificationRoutes(store, { incomingFromNotification: network.incomingFromNotification.bind(network) })]
        : []),
      ...f.paypal.localRoutes,
    ],
  });
  const server = await new Promise<Server>((done) => {
    const s = app.listen(config.PORT, config.HOST, () => done(s));
  });
  // The loopback names of the port actually bound (PORT=0 picks one) are same-origin too.
  const bound = server.address();
  if (bound && typeof bound === 'object') {
    for (const host of ['localhost', '127.0.0.1']) allowedOrigins.add(`http://${host}:${bound.port}`);
    f.paypal.listening(bound.port);
  }
  return { app, server };
}

async function stopAll(f: Foundations, server: Server | undefined, stops: Stop[]): Promise<void> {
  if (server) await new Promise((done) => server.close(done));
  // Background parts stop before the connections they use.
  for (const stop of stops.reverse()) await stop().catch((e) => console.error('[quern] stop failed', e));
  await f.store.close();
  f.redis.disconnect();
  await f.redisEndpoint.stop?.();
}

/** Runs until SIGINT/SIGTERM, then stops cleanly; exits with a message on a start-up failure. */
export async function runUntilSignalled(start: () => Promise<RunningQuern>, name: string): Promise<void> {
  let running: RunningQuern;
  try {
    running = await start();
  } catch (error) {
    console.error(`[quern] ${name} could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  console.log(`[quern] ${name} running${running.url ? ` at ${running.url}` : ''}`);
  const shutdown = async () => {
    await running.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
