/**
 * The composition root: reads the configuration, opens the event store and Redis, and starts
 * the parts asked for. `npm start` runs them all in one process (the embedded default);
 * docker-compose runs the api, projections and workers as separate processes.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { systemClock, type EventStore } from '@quern/core';
import { allProjections, startProjections } from '@quern/projections';
import { createMailer, startDispatcher, startWorkers } from '@quern/workers';
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

export interface Parts {
  api: boolean;
  projections: boolean;
  workers: boolean;
}

export interface RunningQuern {
  url: string | undefined;
  store: EventStore;
  stop(): Promise<void>;
}

const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function startQuern(config: Config, parts: Parts): Promise<RunningQuern> {
  const dataDir = resolve(config.DATA_DIR);
  const redisEndpoint = await resolveRedis({ redisUrl: config.REDIS_URL, dataDir });
  const redis = connectRedis(redisEndpoint.url, 'main');
  const store = openEventStore({ eventStoreUrl: config.EVENTSTORE_URL, dataDir });
  const appSecret = loadAppSecret(config.APP_SECRET, dataDir);
  const stops: Array<() => Promise<void>> = [];

  if (parts.projections) {
    const projections = startProjections({ store, redis, projections: allProjections });
    stops.push(
      startHeartbeat(redis, 'projections', () => projections.status()),
      () => projections.close(),
    );
  }
  if (parts.workers) {
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, dataDir, from: config.MAIL_FROM });
    const dispatcher = startDispatcher({ store, redis });
    const workers = startWorkers({ store, connection: redisEndpoint.url, mailer, appSecret, publicUrl: config.publicUrl });
    stops.push(
      startHeartbeat(redis, 'dispatcher', () => dispatcher.status()),
      startHeartbeat(redis, 'workers', () => workers.status()),
      () => dispatcher.close(),
      () => workers.close(),
    );
  }

  let server: Server | undefined;
  if (parts.api) {
    const sessions = createSessionStore(redis, config.SESSION_TTL_HOURS);
    const allowedOrigins = new Set([new URL(config.publicUrl).origin]);
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
    });
    const app = createApp({
      identity,
      sessions,
      health: createHealthCheck(store, redis),
      allowedOrigins,
      webDistDir: WEB_DIST_DIR,
    });
    server = await new Promise<Server>((done) => {
      const s = app.listen(config.PORT, config.HOST, () => done(s));
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
