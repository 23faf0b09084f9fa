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
import { type Clock, createKeyedSerializer, systemClock, type EventStore } from '@quern/core';
import { ensureSystemWallets, recordConfiguredExchangeRate, WalletStateCache, type WalletDeps } from '@quern/core/wallet';
import { identityPayeeDirectory } from '@quern/core/identity';
import { transferTermsBook } from '@quern/core/transfer-references';
import {
  allProjections,
  DEFAULT_CHECKPOINT_KEY,
  listPurchasesAwaitingCapture,
  listPurchasesAwaitingCredit,
  startProjections,
  type ProjectionRunner,
  subscriptionIdsOfPlanAsOf,
} from '@quern/projections';
import { createMailer } from '@quern/adapters/mail';
import { isLoopbackHost, log } from '@quern/adapters/runtime';
import { startDepositWatcher, startDispatcher, startWorkers } from '@quern/workers';
import type { Config } from './config.js';
import { createHealthCheck } from './health.js';
import { allowedOriginsFor } from './http/allowed-origins.js';
import { createApp } from './http/app.js';
import { apiModules } from './modules.js';
import { createSessionStore } from './identity/sessions.js';
import { loadAppSecret } from './infra/app-secret.js';
import { assertSealedLog, openEventStore } from '@quern/adapters/eventstore';
import type { SealingEventStore } from '@quern/adapters/personal-data';
import { startHeartbeat } from './infra/heartbeat.js';
import { connectRedis, resolveRedis, type RedisEndpoint } from '@quern/adapters/redis';
import { type OpenedMillixNetwork, openMillixNetwork } from '@quern/adapters/millix';
import { nodeNotificationRoutes } from './wallet/node-notification.js';
import { waitForCheckpoint } from './infra/read-your-writes.js';
import { type OpenedPayPal, buyerOnlyGuard, openPayPal } from './purchases/paypal.js';
import { ALL_QUEUES, DEFAULT_QUEUE_PREFIX, webhookSourceOf } from '@quern/workers';
import { createQuernMetrics, type QuernMetrics } from './metrics/registry.js';
import { withAppendMetrics } from './metrics/event-store.js';
import { registerProjectionLag, registerQueueJobs, registerWalletGauges, registerWebhookDeliveries } from './metrics/collectors.js';
import { startMetricsServer } from './metrics/expose.js';

export { LOCAL_PAYPAL_PATH } from './purchases/paypal.js';

export interface Parts {
  api: boolean;
  projections: boolean;
  workers: boolean;
  /** The ledger's clock (sends, purchases and their holds); the system's unless a test moves time. */
  ledgerClock?: Clock;
}

export interface RunningQuern {
  url: string | undefined;
  /** QUERN_MODE, for the start-up line (ADR 049). */
  mode: Config['QUERN_MODE'];
  store: EventStore;
  /** The HTTP application when the api runs (tests walk its routes). */
  app?: Express;
  /** Where PayPal calls go (tests reach the local server's state through it). */
  paypal: OpenedPayPal;
  /** The METRICS_PORT server's /metrics address, when METRICS_PORT is set (ADR 053). */
  metricsUrl?: string;
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
  /** This process's metrics registry; each part registers what it owns (ADR 053). */
  metrics: QuernMetrics;
}

/**
 * Starts the parts asked for on one set of foundations, in the order they depend on each other:
 * the ledger's system accounts, the read models, the background work, then the HTTP api.
 */
export async function startQuern(config: Config, parts: Parts): Promise<RunningQuern> {
  log.level = config.LOG_LEVEL;
  const foundations = await openFoundations(config, parts);
  const stops: Stop[] = [() => foundations.network.close(), () => foundations.paypal.close()];
  await prepareLedger(foundations);
  const projections = parts.projections ? startProjectionPart(foundations, stops) : undefined;
  if (parts.workers) startWorkerPart(foundations, stops);
  const api = parts.api ? await startApiPart(foundations, projections) : undefined;
  const server = api?.server;
  const address = server?.address();
  const metricsServer = await startMetricsPart(foundations, stops);
  return {
    url: address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : undefined,
    mode: config.QUERN_MODE,
    store: foundations.store,
    app: api?.app,
    paypal: foundations.paypal,
    ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
    stop: () => stopAll(foundations, server, stops, api?.endStreams),
  };
}

async function openFoundations(config: Config, parts: Parts): Promise<Foundations> {
  const dataDir = resolve(config.DATA_DIR);
  const redisEndpoint = await resolveRedis({ redisUrl: config.REDIS_URL, dataDir });
  const redis = connectRedis(redisEndpoint.url, 'main');
  const metrics = createQuernMetrics();
  const store = withAppendMetrics(
    openEventStore({ eventStoreUrl: config.EVENTSTORE_URL, dataDir, personalDataKey: config.PERSONAL_DATA_KEY }),
    metrics.appends,
  );
  // Fails fast when the log is unusable, and lets the SQLite store's writer thread finish
  // starting before the first request waits on it (ADR 021).
  await store.ping();
  await assertSealedLog(store);
  const walletDeps: WalletDeps = {
    store,
    transferTerms: transferTermsBook,
    clock: parts.ledgerClock ?? systemClock,
    newId: randomUUID,
    newKeyIdentifier: () => new Uint8Array(randomBytes(20)),
    network: config.MILLIX_NETWORK,
    payees: identityPayeeDirectory({ store }),
    serialize: createKeyedSerializer(),
    stateCache: new WalletStateCache(),
    // A settlement delay exists so people can watch a send pending (demos, the browser tests);
    // internal sends then keep the reserve-then-settle path instead of settling at once (ADR 019).
    twoPhaseInternalSends: config.SETTLEMENT_DELAY_MS > 0,
    purchaseHoldMs: config.PURCHASE_HOLD_HOURS * 3_600_000,
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
    metrics,
  };
}

/** Idempotent on every start: the first one mints the supply and funds the reserve. */
async function prepareLedger({ config, walletDeps }: Foundations): Promise<void> {
  await ensureSystemWallets(walletDeps, { supplyMlx: BigInt(config.SUPPLY_MLX), reserveFundingMlx: BigInt(config.RESERVE_FUNDING_MLX) });
  if (config.EXCHANGE_RATE_USD_PER_MLX) await recordConfiguredExchangeRate(walletDeps, config.EXCHANGE_RATE_USD_PER_MLX);
}

function startProjectionPart({ config, store, redis, metrics }: Foundations, stops: Stop[]): ProjectionRunner {
  const runner = startProjections({ store, redis, projections: allProjections });
  // The read models' metrics belong to the process that keeps them.
  registerProjectionLag(metrics.registry, { store, position: () => runner.position(), projectionNames: allProjections.map((p) => p.name) });
  registerWalletGauges(metrics.registry, redis);
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
    mode: config.QUERN_MODE,
    network,
    settlementDelayMs: config.SETTLEMENT_DELAY_MS,
    settlementWaitMs: config.SETTLEMENT_WAIT_MS,
    depositWaitMs: config.DEPOSIT_WAIT_MS,
    networkPollIntervalMs: config.NETWORK_POLL_INTERVAL_MS,
    walletSerializer: f.walletDeps.serialize,
    walletStateCache: f.walletDeps.stateCache,
    renewalSweepIntervalMs: config.RENEWAL_SWEEP_INTERVAL_MS,
    // The plans' subscriptions for price-change notices, from the read model (this process or another).
    planSubscriptions: {
      subscriptionIdsOfPlan: (planId, atLeastPosition) => subscriptionIdsOfPlanAsOf(redis, planId, atLeastPosition),
    },
    webhooks: {
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      ...(config.WEBHOOK_RETRY_SCHEDULE_MS ? { retryScheduleMs: config.WEBHOOK_RETRY_SCHEDULE_MS } : {}),
      onDeliveryOutcome: registerWebhookDeliveries(f.metrics.registry),
    },
    purchases: {
      paypal: f.paypal.client,
      creditGraceMs: config.PURCHASE_CREDIT_GRACE_MS,
      sweepIntervalMs: config.PURCHASE_SWEEP_INTERVAL_MS,
      holdMs: f.walletDeps.purchaseHoldMs,
      // The purchases read model, kept by the projections part (this process or another).
      openPurchases: {
        awaitingCapture: (range) => listPurchasesAwaitingCapture(redis, range),
        awaitingCredit: (range) => listPurchasesAwaitingCredit(redis, range),
      },
    },
  });
  const deposits = startDepositWatcher({
    store,
    transferTerms: f.walletDeps.transferTerms,
    redis,
    network,
    intervalMs: config.DEPOSIT_POLL_INTERVAL_MS,
  });
  const beat = config.HEARTBEAT_INTERVAL_MS;
  const closeQueueMetrics = registerQueueJobs(f.metrics.registry, { redis, queues: ALL_QUEUES, prefix: DEFAULT_QUEUE_PREFIX });
  stops.push(
    closeQueueMetrics,
    startHeartbeat(redis, 'deposits', () => deposits.status(), beat),
    () => deposits.close(),
    startHeartbeat(redis, 'dispatcher', () => dispatcher.status(), beat),
    startHeartbeat(redis, 'workers', () => workers.status(), beat),
    () => mailer.close(),
    () => dispatcher.close(),
    () => workers.close(),
  );
}

/** The services behind the HTTP api (modules.ts, built in its order), and the server itself once it listens. */
async function startApiPart(
  f: Foundations,
  projections: ProjectionRunner | undefined,
): Promise<{ app: Express; server: Server; endStreams: () => void }> {
  const { config, store, redis, network } = f;
  const sessions = createSessionStore(redis, { ttlHours: config.SESSION_TTL_HOURS, maxAgeDays: config.SESSION_MAX_AGE_DAYS });
  f.paypal.guardPayers(buyerOnlyGuard(sessions, f.walletDeps));
  const allowedOrigins = allowedOriginsFor(config.publicUrl);
  const waitMs = config.READ_YOUR_WRITES_WAIT_MS;
  const services = apiModules.compose({
    config,
    store,
    redis,
    ledger: f.walletDeps,
    commands: { store, clock: systemClock, newId: randomUUID },
    appSecret: f.appSecret,
    sessions,
    paypal: f.paypal,
    webhookSourceOf,
    // In one process the runner says when it got there; otherwise its checkpoint in Redis does.
    waitForReadModels: async (position) => {
      if (projections) await projections.waitForPosition(position, waitMs);
      else await waitForCheckpoint(redis, DEFAULT_CHECKPOINT_KEY, position, waitMs);
    },
  });
  const app = createApp({
    services,
    sessions,
    health: createHealthCheck(store, redis, config.QUERN_MODE),
    healthToken: config.HEALTH_TOKEN,
    allowedOrigins,
    trustProxy: config.TRUST_PROXY,
    https: config.publicUrl.startsWith('https://'),
    publicUrl: config.publicUrl,
    metrics: { registry: f.metrics.registry, token: config.METRICS_TOKEN },
    webDistDir: WEB_DIST_DIR,
    companyName: config.COMPANY_NAME,
    mode: config.QUERN_MODE,
    extraRoutes: [
      ...(network.incomingFromNotification
        ? [nodeNotificationRoutes(f.walletDeps, { incomingFromNotification: network.incomingFromNotification.bind(network) })]
        : []),
      ...f.paypal.localRoutes,
    ],
  });
  const server = await new Promise<Server>((done) => {
    const s = app.listen(config.PORT, config.HOST, () => done(s));
  });
  // With a loopback PUBLIC_URL, the loopback names of the port actually bound (PORT=0 picks one)
  // are same-origin too; on a real address they are another site.
  const bound = server.address();
  if (bound && typeof bound === 'object') {
    for (const origin of allowedOriginsFor(config.publicUrl, bound.port)) allowedOrigins.add(origin);
    f.paypal.listening(bound.port);
  }
  return { app, server, endStreams: () => services.eventsFeed.endAll() };
}

/** METRICS_PORT: this process's own metrics server (ADR 053); stopped first, before what it reads. */
async function startMetricsPart({ config, metrics }: Foundations, stops: Stop[]): Promise<{ url: string } | undefined> {
  if (config.METRICS_PORT === undefined) return undefined;
  const server = await startMetricsServer(metrics.registry, {
    port: config.METRICS_PORT,
    host: config.METRICS_HOST,
    token: config.METRICS_TOKEN,
  });
  stops.push(() => server.close());
  log.info({ part: 'metrics', url: server.url }, 'metrics server listening');
  if (!config.METRICS_TOKEN && !isLoopbackHost(config.METRICS_HOST))
    log.warn(
      { part: 'metrics', host: config.METRICS_HOST },
      'the metrics server has no METRICS_TOKEN: anyone who reaches that address reads it',
    );
  return server;
}

async function stopAll(f: Foundations, server: Server | undefined, stops: Stop[], endStreams?: () => void): Promise<void> {
  // Open event streams would keep the server from closing: they end first, and their clients resume elsewhere.
  endStreams?.();
  if (server) await new Promise((done) => server.close(done));
  // Background parts stop before the connections they use.
  for (const stop of stops.reverse()) await stop().catch((error) => log.error({ part: 'quern', err: error }, 'stop failed'));
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
    const message = error instanceof Error ? error.message : String(error);
    log.fatal({ part: 'quern', err: error }, `${name} could not start`);
    // Also as plain text on stderr: a refused start-up is read by an operator at a terminal, and a
    // list of settings at fault is unreadable inside a JSON string.
    process.stderr.write(`[quern] ${name} could not start: ${message}\n`);
    process.exit(1);
  }
  log.info(
    { part: 'quern', mode: running.mode, url: running.url ?? null },
    `${name} running in ${running.mode} mode${running.url ? ` at ${running.url}` : ''}`,
  );
  const shutdown = async () => {
    await running.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
