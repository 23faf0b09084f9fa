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
import { createKeyedSerializer, systemClock, type EventStore } from '@quern/core';
import { ensureSystemWallets, recordConfiguredExchangeRate, WalletStateCache, type WalletDeps } from '@quern/core/wallet';
import { allProjections, DEFAULT_CHECKPOINT_KEY, startProjections, type ProjectionRunner } from '@quern/projections';
import { createMailer, startDepositWatcher, startDispatcher, startWorkers } from '@quern/workers';
import type { Config } from './config.js';
import { createHealthCheck } from './health.js';
import { createApp } from './http/app.js';
import { createIdentityLimits } from './identity/limits.js';
import { createIdentityService } from './identity/service.js';
import { createSessionStore } from './identity/sessions.js';
import { loadAppSecret } from './infra/app-secret.js';
import { openEventStore } from './infra/eventstore/index.js';
import { startHeartbeat } from './infra/heartbeat.js';
import { createPasswordHasher } from './infra/passwords.js';
import { connectRedis, resolveRedis } from './infra/redis.js';
import { openMillixNetwork } from './infra/millix/index.js';
import { nodeNotificationRoutes } from './wallet/node-notification.js';
import { waitForCheckpoint } from './infra/read-your-writes.js';
import { createWalletService } from './wallet/service.js';

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
  stop(): Promise<void>;
}

/** A read after a write waits at most this long for the read models; then it serves what is there. */
const READ_YOUR_WRITES_WAIT_MS = 2_000;

const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function startQuern(config: Config, parts: Parts): Promise<RunningQuern> {
  const dataDir = resolve(config.DATA_DIR);
  const redisEndpoint = await resolveRedis({ redisUrl: config.REDIS_URL, dataDir });
  const redis = connectRedis(redisEndpoint.url, 'main');
  const store = openEventStore({ eventStoreUrl: config.EVENTSTORE_URL, dataDir });
  const appSecret = loadAppSecret(config.APP_SECRET, dataDir);
  const stops: Array<() => Promise<void>> = [];

  const walletDeps: WalletDeps = {
    store,
    clock: systemClock,
    newId: randomUUID,
    newKeyIdentifier: () => new Uint8Array(randomBytes(20)),
    network: config.MILLIX_NETWORK,
    serialize: createKeyedSerializer(),
    stateCache: new WalletStateCache(),
  };
  // Idempotent on every start: the first one mints the supply and funds the reserve.
  await ensureSystemWallets(walletDeps, { supplyMlx: BigInt(config.SUPPLY_MLX), reserveFundingMlx: BigInt(config.RESERVE_FUNDING_MLX) });
  if (config.EXCHANGE_RATE_USD_PER_MLX) await recordConfiguredExchangeRate(walletDeps, config.EXCHANGE_RATE_USD_PER_MLX);

  // The millix network: the simulated one by default, a node's HTTP API when configured.
  const network = openMillixNetwork({
    millixNodeUrl: config.MILLIX_NODE_URL,
    millixNodeId: config.MILLIX_NODE_ID,
    millixNodeSignature: config.MILLIX_NODE_SIGNATURE,
    dataDir,
    confirmDelayMs: config.MILLIX_CONFIRM_DELAY_MS,
  });
  stops.push(() => network.close());

  let projections: ProjectionRunner | undefined;
  if (parts.projections) {
    const runner = startProjections({ store, redis, projections: allProjections });
    projections = runner;
    stops.push(
      startHeartbeat(redis, 'projections', () => runner.status()),
      () => runner.close(),
    );
  }
  if (parts.workers) {
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, dataDir, from: config.MAIL_FROM });
    const dispatcher = startDispatcher({ store, redis });
    const workers = startWorkers({
      store,
      connection: redisEndpoint.url,
      mailer,
      appSecret,
      publicUrl: config.publicUrl,
      network,
      settlementDelayMs: config.SETTLEMENT_DELAY_MS,
      walletSerializer: walletDeps.serialize,
      walletStateCache: walletDeps.stateCache,
    });
    const deposits = startDepositWatcher({ store, redis, network, intervalMs: 1_000 });
    stops.push(
      startHeartbeat(redis, 'deposits', () => deposits.status()),
      () => deposits.close(),
    );
    stops.push(
      startHeartbeat(redis, 'dispatcher', () => dispatcher.status()),
      startHeartbeat(redis, 'workers', () => workers.status()),
      () => dispatcher.close(),
      () => workers.close(),
    );
  }

  let server: Server | undefined;
  let app: Express | undefined;
  if (parts.api) {
    const sessions = createSessionStore(redis, config.SESSION_TTL_HOURS);
    const allowedOrigins = new Set([new URL(config.publicUrl).origin]);
    const runner = projections;
    const wallet = createWalletService({
      core: walletDeps,
      redis,
      waitForReadModels: async (position) => {
        // In one process the runner says when it got there; otherwise its checkpoint in Redis does.
        if (runner) await runner.waitForPosition(position, READ_YOUR_WRITES_WAIT_MS);
        else await waitForCheckpoint(redis, DEFAULT_CHECKPOINT_KEY, position, READ_YOUR_WRITES_WAIT_MS);
      },
    });
    const identity = createIdentityService({
      core: { store, hasher: createPasswordHasher(), clock: systemClock, newId: randomUUID },
      sessions,
      limits: createIdentityLimits(redis, {
        loginFailuresPerAccount: config.LOGIN_FAILURES_PER_ACCOUNT,
        loginFailuresPerIp: config.LOGIN_FAILURES_PER_IP,
        registrationsPerIpHour: config.REGISTRATIONS_PER_IP_HOUR,
      }),
      clock: systemClock,
      appSecret,
      secureCookies: config.publicUrl.startsWith('https://'),
      openWallet: (userId) => wallet.openFor(userId),
    });
    const httpApp = createApp({
      identity,
      wallet,
      sessions,
      health: createHealthCheck(store, redis),
      allowedOrigins,
      webDistDir: WEB_DIST_DIR,
      extraRoutes: network.incomingFromNotification
        ? [nodeNotificationRoutes(store, { incomingFromNotification: network.incomingFromNotification.bind(network) })]
        : [],
    });
    app = httpApp;
    server = await new Promise<Server>((done) => {
      const s = httpApp.listen(config.PORT, config.HOST, () => done(s));
    });
    // The loopback names of the port actually bound (PORT=0 picks one) are same-origin too.
    const bound = server.address();
    if (bound && typeof bound === 'object')
      for (const host of ['localhost', '127.0.0.1']) allowedOrigins.add(`http://${host}:${bound.port}`);
  }

  const address = server?.address();
  return {
    url: address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : undefined,
    store,
    app,
    async stop() {
      if (server) await new Promise((done) => server.close(done));
      // Background parts stop before the connections they use.
      for (const stop of stops.reverse()) await stop().catch((e) => console.error('[quern] stop failed', e));
      await store.close();
      redis.disconnect();
      await redisEndpoint.stop?.();
    },
  };
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
