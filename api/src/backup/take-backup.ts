/**
 * `npm run backup -- DIR` (ADR 054): a consistent copy, taken while Quern runs, of everything in
 * DATA_DIR that cannot be rebuilt. In order:
 *   1. the event log (SQLite backup API), unless the log is in KurrentDB (its own backup);
 *   2. the personal-data master key file and the key vault, under one read lock on the vault;
 *   3. the app secret;
 *   4. the stand-ins' state (simulated network, local PayPal, mail outbox) and a node's send journal.
 * The log comes first because every account key is created before the first event sealed with
 * it is appended: a vault copied after the log holds every key the copied log needs (and perhaps
 * a few newer ones, which are harmless). The vault first could miss the keys of accounts
 * registered in between, and their names, e-mails and phones would be lost for good.
 * The read models in Redis are not copied: the restore rebuilds them from the log.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { KEY_VAULT_FILE } from '@quern/adapters/eventstore';
import { masterKeySource, openKeyVault } from '@quern/adapters/personal-data';
import type { Config } from '../config.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  CHECKSUMS_FILE,
  checksumsText,
  DATA_FILES,
  MANIFEST_FILE,
  type Manifest,
  type ManifestFile,
  quernVersion,
  sha256Of,
} from './manifest.js';
import { backupSqlite, openForCopy } from './sqlite-copy.js';

export class BackupRefused extends Error {}

export interface BackupReport {
  dir: string;
  manifest: Manifest;
}

export async function takeBackup(config: Config, targetDir: string, log: (line: string) => void = () => undefined): Promise<BackupReport> {
  const dataDir = resolve(config.DATA_DIR);
  const dir = resolve(targetDir);
  checkTarget(dir, dataDir);
  const vaultFile = join(dataDir, KEY_VAULT_FILE);
  if (!existsSync(vaultFile))
    throw new BackupRefused(`${dataDir} holds no personal-data key vault (${KEY_VAULT_FILE}): is DATA_DIR the one Quern runs with?`);
  const createdAt = new Date().toISOString();
  const copied: string[] = [];
  const copyPlain = (name: string) => {
    copyFileSync(join(dataDir, name), join(dir, name));
    copied.push(name);
  };

  let lastEventPosition: string | null = null;
  if (!config.EVENTSTORE_URL) {
    const logFile = join(dataDir, DATA_FILES.eventLog);
    if (!existsSync(logFile)) throw new BackupRefused(`${logFile} does not exist: is DATA_DIR the one Quern runs with?`);
    await copySqlite(logFile, join(dir, DATA_FILES.eventLog));
    copied.push(DATA_FILES.eventLog);
    lastEventPosition = lastPosition(join(dir, DATA_FILES.eventLog));
    log(`event log copied, up to position ${lastEventPosition ?? '(empty log)'}`);
  } else log('event log: in KurrentDB, backed up with KurrentDB’s own backup (taken BEFORE this one; see the README)');

  const keyInBackup = !config.PERSONAL_DATA_KEY;
  // A SHARED lock on the vault while the key file and the vault are copied: no step of a key
  // rotation (ADR 055) commits in between, so the key copied opens the vault copied.
  const vault = openForCopy(vaultFile);
  try {
    vault.exec('BEGIN');
    vault.prepare('SELECT count(*) FROM account_keys').pluck().get();
    if (keyInBackup) {
      if (!existsSync(join(dataDir, DATA_FILES.masterKey)))
        throw new BackupRefused(
          `PERSONAL_DATA_KEY is not set and ${join(dataDir, DATA_FILES.masterKey)} does not exist: set the key Quern runs with.`,
        );
      copyPlain(DATA_FILES.masterKey);
    }
    await backupSqlite(vault, join(dir, KEY_VAULT_FILE));
    vault.exec('COMMIT');
  } finally {
    vault.close();
  }
  copied.push(KEY_VAULT_FILE);
  const { masterKeyIdOf, accountKeys } = verifyVaultCopy(dir, config.PERSONAL_DATA_KEY);
  log(`key vault copied: ${accountKeys} account keys, all opened with master key ${masterKeyIdOf}`);

  const secretInBackup = !config.APP_SECRET;
  if (secretInBackup) {
    if (!existsSync(join(dataDir, DATA_FILES.appSecret)))
      throw new BackupRefused(
        `APP_SECRET is not set and ${join(dataDir, DATA_FILES.appSecret)} does not exist: set the secret Quern runs with.`,
      );
    copyPlain(DATA_FILES.appSecret);
  }

  for (const name of [DATA_FILES.simulatedNetwork, DATA_FILES.localPayPal, DATA_FILES.millixNodeJournal]) {
    if (!existsSync(join(dataDir, name))) continue;
    await copySqlite(join(dataDir, name), join(dir, name));
    copied.push(name);
  }
  for (const name of filesUnder(join(dataDir, DATA_FILES.outbox))) {
    const path = relative(dataDir, name).split(sep).join('/');
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyPlain(path);
  }

  const files: ManifestFile[] = [];
  for (const path of copied) {
    const file = join(dir, path);
    files.push({ path, bytes: statSync(file).size, sha256: await sha256Of(file) });
  }
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    quernVersion: quernVersion(),
    mode: config.QUERN_MODE,
    createdAt,
    finishedAt: new Date().toISOString(),
    eventStore: config.EVENTSTORE_URL ? 'kurrentdb' : 'sqlite',
    lastEventPosition,
    personalDataKey: keyInBackup ? 'in-backup' : 'environment',
    masterKeyId: masterKeyIdOf,
    accountKeys,
    appSecret: secretInBackup ? 'in-backup' : 'environment',
    files,
  };
  writeFileSync(join(dir, CHECKSUMS_FILE), checksumsText(files), { mode: 0o600 });
  // Last: its presence is what says the backup is complete.
  writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return { dir, manifest };
}

function checkTarget(dir: string, dataDir: string): void {
  // Compared as the real paths: a link to DATA_DIR (either side) is still DATA_DIR.
  const realDir = realPathOf(dir);
  const realDataDir = realPathOf(dataDir);
  if (realDir === realDataDir || realDir.startsWith(realDataDir + sep))
    throw new BackupRefused(`The backup folder ${dir} is inside DATA_DIR (${dataDir}): choose a folder outside it.`);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new BackupRefused(`${dir} is not a folder.`);
    if (readdirSync(dir).length > 0) throw new BackupRefused(`${dir} is not empty: back up into a new or empty folder.`);
  }
  // Owner-only: the folder holds the master key and the app secret. mkdir's mode applies only to
  // a folder it creates, so an existing empty one is changed too.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** The real path of `path`, which may not exist yet: its nearest existing ancestor's, resolved, and the rest. */
function realPathOf(path: string): string {
  const missing: string[] = [];
  let existing = path;
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    missing.unshift(basename(existing));
    existing = parent;
  }
  return join(realpathSync(existing), ...missing);
}

async function copySqlite(source: string, destination: string): Promise<void> {
  const db = openForCopy(source);
  try {
    await backupSqlite(db, destination);
  } finally {
    db.close();
  }
}

function lastPosition(file: string): string | null {
  const db = openForCopy(file);
  try {
    db.defaultSafeIntegers(true);
    const position = db.prepare('SELECT max(position) FROM events').pluck().get() as bigint | null;
    return position === null ? null : position.toString();
  } finally {
    db.close();
  }
}

/** Opens every account key of the copy with the key the copy will be restored with. */
function verifyVaultCopy(dir: string, configuredKey: string | undefined): { masterKeyIdOf: string; accountKeys: number } {
  const vault = openKeyVault(join(dir, KEY_VAULT_FILE), masterKeySource(configuredKey, dir));
  try {
    const { accountKeys, currentKeyId } = vault.verifyAllKeys();
    return { masterKeyIdOf: currentKeyId, accountKeys };
  } finally {
    vault.close();
  }
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
