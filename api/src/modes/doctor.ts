/**
 * `npm run doctor`'s checks (ADR 049): each thing Quern needs, tried the way Quern will use it,
 * without starting Quern and without writing anything (no generated key, no created folder, no
 * mail sent). Each check returns ok or the reason it failed; a check never throws.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { KEY_VAULT_FILE, openRawEventStore } from '@quern/adapters/eventstore';
import { verifySmtp } from '@quern/adapters/mail/verify';
import { createNodeClient } from '@quern/adapters/millix/node-client';
import { NODE_ENDPOINT } from '@quern/adapters/millix/node-protocol';
import { MASTER_KEY_FILE, parseMasterKey } from '@quern/adapters/personal-data';
import { checkVaultKey } from '@quern/adapters/personal-data/vault-check';
import { paypalBaseUrl } from '@quern/adapters/paypal';
import { REDIS_SERVER_PACKAGE } from '@quern/adapters/redis';
import { planDebianPackage } from '@quern/adapters/runtime';
import { isValidAddress } from '@quern/core/wallet';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { APP_SECRET_FILE } from '../infra/app-secret.js';
import { formatFault, modeFaults } from './live-settings.js';

export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

const CHECK_TIMEOUT_MS = 10_000;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);
}

/** Runs a check, turning any failure into a failed check with its reason. */
async function attempt(name: string, run: () => Promise<string>): Promise<DoctorCheck> {
  try {
    return { name, ok: true, detail: await run() };
  } catch (error) {
    return { name, ok: false, detail: describe(error) };
  }
}

export function configurationCheck(config: Config): DoctorCheck {
  const faults = modeFaults(config);
  if (faults.length === 0) return { name: 'configuration', ok: true, detail: `parses; the ${config.QUERN_MODE} mode's rules pass` };
  return {
    name: 'configuration',
    ok: false,
    detail: `${faults.length} setting(s) at fault in ${config.QUERN_MODE} mode:\n${faults.map((f) => formatFault(f, '      ')).join('\n')}`,
  };
}

/** The nearest folder that exists at or above `path`: where Quern would create DATA_DIR. */
function nearestExisting(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

export async function eventStoreCheck(config: Config): Promise<DoctorCheck> {
  const dataDir = resolve(config.DATA_DIR);
  if (config.EVENTSTORE_URL) {
    return attempt('event store', async () => {
      const store = openRawEventStore({ eventStoreUrl: config.EVENTSTORE_URL, dataDir });
      try {
        await withTimeout(store.ping(), 'KurrentDB');
      } finally {
        await store.close().catch(() => {});
      }
      return 'KurrentDB answers';
    });
  }
  return attempt('event store', async () => {
    const folder = nearestExisting(dataDir);
    if (!statSync(folder).isDirectory()) throw new Error(`${folder} is not a folder`);
    accessSync(folder, constants.W_OK | constants.R_OK);
    const log = join(dataDir, 'events.sqlite');
    if (existsSync(log)) accessSync(log, constants.W_OK | constants.R_OK);
    return folder === dataDir
      ? `SQLite in ${dataDir}: folder writable${existsSync(log) ? ', events.sqlite readable and writable' : ' (the log is created on first start)'}`
      : `SQLite in ${dataDir}: not created yet, ${folder} is writable`;
  });
}

export async function redisCheck(config: Config): Promise<DoctorCheck> {
  return attempt('Redis', async () => {
    const url = config.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
      connectTimeout: 3_000,
    });
    redis.on('error', () => {});
    try {
      await withTimeout(redis.connect(), 'Redis');
      await withTimeout(redis.ping(), 'Redis');
      return `answers at ${redact(url)}`;
    } catch (error) {
      if (config.REDIS_URL) throw error;
      // Unset REDIS_URL: `npm start` starts a private redis-server when none answers, installing it first when it may (adapters/src/redis).
      const plan = planDebianPackage(REDIS_SERVER_PACKAGE);
      if (plan.kind === 'present') return 'none on 127.0.0.1:6379; npm start will start a private redis-server';
      if (plan.kind === 'install')
        return `none on 127.0.0.1:6379; npm start will install redis-server with apt-get (${plan.commandLine}) and start a private one`;
      throw new Error(`none answers on 127.0.0.1:6379, and ${plan.message}`);
    } finally {
      redis.disconnect();
    }
  });
}

/** A URL without its password, for printing. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

export async function millixNodeCheck(config: Config): Promise<DoctorCheck> {
  if (!config.MILLIX_NODE_URL)
    return { name: 'millix node', ok: true, detail: 'none: the simulated network under DATA_DIR (sandbox stand-in)' };
  const { MILLIX_NODE_URL: baseUrl, MILLIX_NODE_ID: nodeId, MILLIX_NODE_SIGNATURE: nodeSignature } = config;
  return attempt('millix node', async () => {
    if (!nodeId || !nodeSignature) throw new Error('MILLIX_NODE_ID and MILLIX_NODE_SIGNATURE are needed with MILLIX_NODE_URL');
    const client = createNodeClient({ baseUrl, nodeId, nodeSignature, timeoutMs: CHECK_TIMEOUT_MS });
    const session = (await client.get(NODE_ENDPOINT.getSession, {})) as { api_status?: string; wallet?: { address?: string } };
    if (session.api_status !== 'success' || !session.wallet?.address) {
      throw new Error(`the node at ${redact(baseUrl)} answered without an active wallet (${JSON.stringify(session).slice(0, 200)})`);
    }
    // A node on the other network would credit and send the other network's MLX than the settings say.
    const address = session.wallet.address;
    if (!isValidAddress(address, config.MILLIX_NETWORK)) {
      const other = config.MILLIX_NETWORK === 'mainnet' ? 'testnet' : 'mainnet';
      throw new Error(
        isValidAddress(address, other)
          ? `the node at ${redact(baseUrl)} is on ${other} (wallet ${address}) but MILLIX_NETWORK=${config.MILLIX_NETWORK}: point MILLIX_NODE_URL at a ${config.MILLIX_NETWORK} node or set MILLIX_NETWORK=${other}`
          : `the node at ${redact(baseUrl)} answered with a wallet address that is not a millix address (${address.slice(0, 80)})`,
      );
    }
    return `answers at ${redact(baseUrl)} with node identity accepted; ${config.MILLIX_NETWORK} wallet ${address}`;
  });
}

export async function payPalCheck(config: Config, fetchImpl: typeof fetch = fetch): Promise<DoctorCheck> {
  if (config.PAYPAL_ENV === 'local') {
    return {
      name: 'PayPal',
      ok: true,
      detail: 'PAYPAL_ENV=local: uses the local stand-in Quern serves at /paypal-local (no PayPal account involved)',
    };
  }
  const baseUrl = paypalBaseUrl(config.PAYPAL_ENV, '', config.PAYPAL_API_URL);
  return attempt('PayPal', async () => {
    if (!config.PAYPAL_CLIENT_ID || !config.PAYPAL_CLIENT_SECRET) throw new Error('PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are not set');
    // The client-credentials token call every PayPal REST call starts with: it proves the pair.
    const response = await fetchImpl(`${baseUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${config.PAYPAL_CLIENT_ID}:${config.PAYPAL_CLIENT_SECRET}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    }).catch((error: unknown) => {
      throw new Error(`${baseUrl} did not answer: ${describe(error)}`);
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string; error_description?: string };
    if (response.status === 401) {
      throw new Error(
        `PayPal (${baseUrl}) refused PAYPAL_CLIENT_ID/PAYPAL_CLIENT_SECRET: 401 ${body.error ?? ''} ${body.error_description ?? ''}`.trim(),
      );
    }
    if (!response.ok || !body.access_token) throw new Error(`PayPal (${baseUrl}) answered ${response.status} without a token`);
    const webhook = config.PAYPAL_WEBHOOK_ID ? '' : ' (PAYPAL_WEBHOOK_ID not set: webhooks cannot be verified)';
    return `${config.PAYPAL_ENV} credentials accepted by ${baseUrl}${webhook}`;
  });
}

export async function smtpCheck(config: Config): Promise<DoctorCheck> {
  if (!config.SMTP_URL)
    return { name: 'SMTP', ok: true, detail: 'none: mail is written to DATA_DIR/outbox as .eml files (sandbox stand-in)' };
  const url = config.SMTP_URL;
  return attempt('SMTP', async () => {
    await withTimeout(verifySmtp(url, CHECK_TIMEOUT_MS), 'the SMTP server');
    return `${redact(url)} answers and accepts the connection`;
  });
}

function parseMasterKeyOrNote(text: string, source: string, problems: string[]): Buffer | undefined {
  try {
    return parseMasterKey(text);
  } catch (error) {
    problems.push(`${source}: ${describe(error)}`);
    return undefined;
  }
}

/** The app secret, the personal-data key and the key vault: given, or files Quern can read, and the key opens the vault. */
export function keyFilesCheck(config: Config): DoctorCheck {
  const dataDir = resolve(config.DATA_DIR);
  const notes: string[] = [];
  const problems: string[] = [];
  const readable = (file: string): string | undefined => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      problems.push(`${file} is not readable: ${describe(error)}`);
      return undefined;
    }
  };
  if (config.APP_SECRET) notes.push('app secret given (APP_SECRET)');
  else if (existsSync(join(dataDir, APP_SECRET_FILE))) {
    if (readable(join(dataDir, APP_SECRET_FILE))?.trim()) notes.push(`DATA_DIR/${APP_SECRET_FILE} readable`);
  } else notes.push(`app secret: generated into DATA_DIR/${APP_SECRET_FILE} on first start`);
  let masterKey: Buffer | undefined;
  const keyFile = join(dataDir, MASTER_KEY_FILE);
  if (config.PERSONAL_DATA_KEY) {
    masterKey = parseMasterKeyOrNote(config.PERSONAL_DATA_KEY, 'PERSONAL_DATA_KEY', problems);
    if (masterKey) notes.push('personal-data key given (PERSONAL_DATA_KEY)');
  } else if (existsSync(keyFile)) {
    const text = readable(keyFile);
    if (text !== undefined) masterKey = parseMasterKeyOrNote(text, `DATA_DIR/${MASTER_KEY_FILE}`, problems);
    if (masterKey) notes.push(`DATA_DIR/${MASTER_KEY_FILE} readable`);
  } else notes.push(`personal-data key: generated into DATA_DIR/${MASTER_KEY_FILE} on first start`);
  const vault = join(dataDir, KEY_VAULT_FILE);
  if (existsSync(vault)) {
    try {
      accessSync(vault, constants.R_OK | constants.W_OK);
      // The key must be the one the vault was written under, or every account's personal data is lost to Quern.
      const opened = masterKey ? checkVaultKey(vault, masterKey) : undefined;
      if (opened && !opened.opens)
        problems.push(
          `the personal-data key does not open ${KEY_VAULT_FILE} (${opened.accounts} account keys): it is not the key the vault was written under`,
        );
      else
        notes.push(
          `key vault ${KEY_VAULT_FILE} readable${opened ? `, opened by the personal-data key (${opened.accounts} account keys)` : ''}`,
        );
    } catch (error) {
      problems.push(`${vault} is not readable and writable: ${describe(error)}`);
    }
  } else notes.push('key vault: created on first start');
  return problems.length > 0
    ? { name: 'key files', ok: false, detail: problems.join('; ') }
    : { name: 'key files', ok: true, detail: notes.join('; ') };
}

/** Every check, the configuration's first; the others run side by side. */
export async function runDoctorChecks(config: Config): Promise<DoctorCheck[]> {
  const others = await Promise.all([
    eventStoreCheck(config),
    redisCheck(config),
    millixNodeCheck(config),
    payPalCheck(config),
    smtpCheck(config),
  ]);
  return [configurationCheck(config), ...others, keyFilesCheck(config)];
}

export function formatDoctorReport(mode: Config['QUERN_MODE'], checks: readonly DoctorCheck[]): string {
  const failed = checks.filter((c) => !c.ok);
  return [
    `Quern doctor: ${mode} mode${mode === 'sandbox' ? ' (test money only)' : ''}`,
    ...checks.map((c) => `  ${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}: ${c.detail}`),
    failed.length === 0 ? 'doctor: all checks pass' : `doctor: ${failed.length} check(s) failed: ${failed.map((c) => c.name).join(', ')}`,
  ].join('\n');
}
