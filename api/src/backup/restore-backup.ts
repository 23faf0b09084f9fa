/**
 * `npm run restore -- DIR` (ADR 054): checks the backup against its manifest (every file there,
 * of its size and SHA-256), copies it into an empty DATA_DIR, checks that the master key Quern
 * will run with opens every account key, and rebuilds the read models from the restored log into
 * the configured Redis (the rebuild deletes Quern's read models there first). Nothing is written
 * before the checks pass; a failure after the copy removes what the restore wrote.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { KEY_VAULT_FILE, openEventStore } from '@quern/adapters/eventstore';
import { masterKeyId, parseMasterKey } from '@quern/adapters/personal-data';
import { resolveRedis } from '@quern/adapters/redis';
import { allProjections, rebuildProjections, type RebuildReport } from '@quern/projections';
import type { Config } from '../config.js';
import { BACKUP_FORMAT, DATA_FILES, MANIFEST_FILE, type Manifest, manifestSchema, sha256Of } from './manifest.js';

export class RestoreRefused extends Error {}

export interface RestoreReport {
  manifest: Manifest;
  dataDir: string;
  accountKeys: number;
  rebuild: RebuildReport | undefined;
}

const SECRET_FILES = new Set<string>([DATA_FILES.masterKey, DATA_FILES.appSecret]);

export async function restoreBackup(
  config: Config,
  backupDir: string,
  log: (line: string) => void = () => undefined,
): Promise<RestoreReport> {
  const dir = resolve(backupDir);
  const dataDir = resolve(config.DATA_DIR);
  const manifest = readManifest(dir);
  // The settings and the target first: a wrong one is refused before every file is hashed.
  checkConfiguration(config, manifest);
  checkEmpty(dataDir);
  await verifyFiles(dir, manifest);
  log(`backup verified: ${manifest.files.length} files, taken ${manifest.createdAt} by Quern ${manifest.quernVersion} (${manifest.mode})`);

  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    for (const file of manifest.files) {
      const target = join(dataDir, file.path);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(dir, file.path), target);
      if (SECRET_FILES.has(file.path)) chmodSync(target, 0o600);
    }
    // Opening the store checks the key against the vault (a wrong key is refused here) and the
    // sealed-log mark; then every account key is opened once.
    const store = openEventStore({ eventStoreUrl: config.EVENTSTORE_URL, dataDir, personalDataKey: config.PERSONAL_DATA_KEY });
    let accountKeys: number;
    let rebuild: RebuildReport | undefined;
    try {
      await store.ping();
      ({ accountKeys } = store.personalData.verifyAllKeys());
      log(`key vault opens: ${accountKeys} account keys`);
      rebuild = await rebuildReadModels(config, dataDir, store, log);
      const last = rebuild.position?.toString() ?? null;
      if (manifest.eventStore === 'sqlite' && last !== manifest.lastEventPosition)
        throw new RestoreRefused(
          `The restored log ends at position ${last ?? 'none'}, the manifest says ${manifest.lastEventPosition ?? 'none'}.`,
        );
    } finally {
      await store.close().catch(() => undefined);
    }
    return { manifest, dataDir, accountKeys, rebuild };
  } catch (error) {
    // DATA_DIR was empty: leave it so, and the restore can simply be run again.
    for (const entry of readdirSync(dataDir)) rmSync(join(dataDir, entry), { recursive: true, force: true });
    throw error;
  }
}

function readManifest(dir: string): Manifest {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file))
    throw new RestoreRefused(`${file} is missing: ${dir} is not a finished Quern backup (the manifest is written last).`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new RestoreRefused(`${file} is not valid JSON: the backup is damaged.`);
  }
  if ((parsed as { format?: unknown })?.format !== BACKUP_FORMAT) throw new RestoreRefused(`${file} is not a Quern backup manifest.`);
  const manifest = manifestSchema.safeParse(parsed);
  if (!manifest.success)
    throw new RestoreRefused(
      `${file} is damaged or of an unknown version: ${manifest.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return manifest.data;
}

async function verifyFiles(dir: string, manifest: Manifest): Promise<void> {
  for (const file of manifest.files) {
    const path = join(dir, file.path);
    if (!existsSync(path)) throw new RestoreRefused(`The backup is incomplete: ${file.path} is missing.`);
    const bytes = statSync(path).size;
    if (bytes !== file.bytes)
      throw new RestoreRefused(`The backup is damaged: ${file.path} has ${bytes} bytes, the manifest says ${file.bytes}.`);
    if ((await sha256Of(path)) !== file.sha256)
      throw new RestoreRefused(`The backup is damaged: ${file.path} does not match its SHA-256 in the manifest.`);
  }
  const required = [KEY_VAULT_FILE, ...(manifest.eventStore === 'sqlite' ? [DATA_FILES.eventLog] : [])];
  if (manifest.personalDataKey === 'in-backup') required.push(DATA_FILES.masterKey);
  if (manifest.appSecret === 'in-backup') required.push(DATA_FILES.appSecret);
  for (const name of required)
    if (!manifest.files.some((file) => file.path === name))
      throw new RestoreRefused(`The backup is incomplete: the manifest lists no ${name}.`);
}

function checkConfiguration(config: Config, manifest: Manifest): void {
  // Test money must never become real money, nor real money test money (ADR 049).
  if (manifest.mode !== config.QUERN_MODE)
    throw new RestoreRefused(
      `The backup was taken in ${manifest.mode} mode and this Quern runs in ${config.QUERN_MODE} mode: a ledger never changes mode. Set QUERN_MODE=${manifest.mode} to restore it, or restore a backup taken in ${config.QUERN_MODE} mode.`,
    );
  if (manifest.eventStore === 'sqlite' && config.EVENTSTORE_URL)
    throw new RestoreRefused('The backup holds an embedded (SQLite) log but EVENTSTORE_URL is set: unset it to restore this backup.');
  if (manifest.eventStore === 'kurrentdb' && !config.EVENTSTORE_URL)
    throw new RestoreRefused(
      'The backup was taken from a Quern whose log is in KurrentDB: restore the KurrentDB backup taken before it first, and set EVENTSTORE_URL to it.',
    );
  if (manifest.personalDataKey === 'environment' && !config.PERSONAL_DATA_KEY)
    throw new RestoreRefused(
      `The backed-up Quern took its master key from PERSONAL_DATA_KEY: set it (the key with id ${manifest.masterKeyId}).`,
    );
  if (config.PERSONAL_DATA_KEY) {
    const id = masterKeyId(parseMasterKey(config.PERSONAL_DATA_KEY));
    if (id !== manifest.masterKeyId)
      throw new RestoreRefused(
        `PERSONAL_DATA_KEY is the key with id ${id}; the backed-up vault is wrapped under ${manifest.masterKeyId}: set that key.`,
      );
  }
  if (manifest.appSecret === 'environment' && !config.APP_SECRET)
    throw new RestoreRefused('The backed-up Quern took its app secret from APP_SECRET: set the same value.');
}

function checkEmpty(dataDir: string): void {
  if (!existsSync(dataDir)) return;
  if (!statSync(dataDir).isDirectory()) throw new RestoreRefused(`DATA_DIR (${dataDir}) is not a folder.`);
  const entries = readdirSync(dataDir);
  if (entries.length > 0)
    throw new RestoreRefused(`DATA_DIR (${dataDir}) is not empty (${entries.slice(0, 5).join(', ')}): restore into a new or empty folder.`);
}

async function rebuildReadModels(
  config: Config,
  dataDir: string,
  store: Parameters<typeof rebuildProjections>[0]['store'],
  log: (line: string) => void,
): Promise<RebuildReport> {
  const endpoint = await resolveRedis({ redisUrl: config.REDIS_URL, dataDir });
  // A bounded reconnect: an operator command should fail with a message, not hang on a dead Redis.
  const redis = new Redis(endpoint.url, { maxRetriesPerRequest: 3, retryStrategy: (times) => (times > 5 ? null : times * 200) });
  redis.on('error', () => undefined);
  try {
    const report = await rebuildProjections({ store, redis, projections: allProjections });
    log(
      `read models rebuilt: deleted ${report.deletedKeys} keys, replayed ${report.events} events up to position ${report.position ?? 'none'}`,
    );
    return report;
  } finally {
    redis.disconnect();
    await endpoint.stop?.();
  }
}
