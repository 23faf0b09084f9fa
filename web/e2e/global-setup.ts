/**
 * Playwright global setup: makes sure Debian's chromium is installed, starts a private Redis
 * when REDIS_URL is unset, builds the web app (unless QUERN_E2E_WEB_BUILT=1 says the caller just
 * did), and starts Quern on a free port with a fresh DATA_DIR, waiting for GET /healthz = 200.
 * The returned function stops everything again.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from '@quern/test-support/chromium';
import { freePort, startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { E2E_SERVER_LOG, resetSecretsRecord } from './secrets-record.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const healthTimeoutMs = 90_000;
const stopTimeoutMs = 10_000;
/**
 * Shared with the faucet that wallet.e2e.ts runs against this server's DATA_DIR. Sends stay
 * pending 8 s: long enough for a loaded CI machine to show them pending on two dashboards.
 */
const walletE2eEnv = { MILLIX_CONFIRM_DELAY_MS: '2000', SETTLEMENT_DELAY_MS: '8000', EXCHANGE_RATE_USD_PER_MLX: '0.000012' };
/** The metrics spec (metrics.e2e.ts) scrapes the server's /metrics with it (ADR 053). */
const metricsToken = randomBytes(32).toString('hex');

/** The browser bundle, the prerenderer and the prerendered pages (ADR 023). */
function buildWebApp(): void {
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-web.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the web build (scripts/build-web.mjs) failed');
}

async function waitForHealth(baseUrl: string, quern: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + healthTimeoutMs;
  while (Date.now() < deadline) {
    if (quern.exitCode !== null) throw new Error(`Quern exited with code ${quern.exitCode}; see ${logFile}`);
    const status = await fetch(`${baseUrl}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Quern did not report healthy within ${healthTimeoutMs} ms; see ${logFile}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
  await exited;
  clearTimeout(timer);
}

function startQuern(port: number, dataDir: string, redisUrl: string, logFile: string): ChildProcess {
  const log = openSync(logFile, 'w');
  return spawn(process.execPath, ['--import', 'tsx', 'api/src/bin/quern.ts'], {
    cwd: repoRoot,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl,
      // Every test registers its own users from one address; the production limits would
      // refuse the suite, not protect anything.
      REGISTRATIONS_PER_IP_HOUR: '10000',
      // Every browser test's reset request comes from 127.0.0.1, retries included.
      RESET_REQUESTS_PER_IP: '10000',
      LOGIN_FAILURES_PER_IP: '10000',
      // Every checkout popup of the suite looks its merchant up from this one address.
      CHECKOUT_LOOKUPS_PER_IP_HOUR: '10000',
      // Webhook specs (webhooks.e2e.ts) receive on a loopback server of their own.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // Every line the server can write, so the secrets scan reads them all.
      LOG_LEVEL: 'debug',
      // Wallet specs (wallet.e2e.ts): deposits and sends stay pending long enough to be seen on
      // both dashboards before they complete, and USD equivalents have a rate to show.
      ...walletE2eEnv,
      METRICS_TOKEN: metricsToken,
    },
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  ensureChromium();
  let redis: RedisServer | undefined;
  if (!process.env.REDIS_URL) {
    redis = await startPrivateRedis();
    console.log(`[e2e setup] private redis-server at ${redis.url}`);
  }
  const redisUrl = process.env.REDIS_URL ?? redis?.url ?? '';
  // `npm test` builds the app in its own step just before (scripts/test.mjs); building it again
  // here would only repeat that work.
  if (process.env.QUERN_E2E_WEB_BUILT === '1') console.log('[e2e setup] web app already built (QUERN_E2E_WEB_BUILT=1)');
  else buildWebApp();

  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'quern-e2e-'));
  mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
  // The server's stdout and stderr, scanned for the secrets the specs record (global-teardown.ts).
  const logFile = E2E_SERVER_LOG;
  resetSecretsRecord();
  const baseUrl = `http://127.0.0.1:${port}`;
  const quern = startQuern(port, dataDir, redisUrl, logFile);
  const stop = async () => {
    await stopProcess(quern);
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, quern, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  process.env.QUERN_E2E_BASE_URL = baseUrl;
  process.env.QUERN_E2E_DATA_DIR = dataDir;
  // Step-up specs (reauthentication.e2e.ts) age a session's last password proof there.
  process.env.QUERN_E2E_REDIS_URL = redisUrl;
  process.env.QUERN_E2E_MILLIX_CONFIRM_DELAY_MS = walletE2eEnv.MILLIX_CONFIRM_DELAY_MS;
  process.env.QUERN_E2E_METRICS_TOKEN = metricsToken;
  console.log(`[e2e setup] Quern at ${baseUrl} (log: ${logFile})`);
  return stop;
}
