/**
 * The personal-data master key (ADR 042): 32 bytes from PERSONAL_DATA_KEY (base64 or hex), or
 * generated once and kept in DATA_DIR/personal-data-key. It wraps every account's key; it is
 * changed only by `npm run rotate:personal-data-key` (ADR 055), which re-wraps them all, never by
 * replacing it: a vault whose keys were wrapped under a key nobody holds any more opens nothing.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_BYTES = 32;

export const MASTER_KEY_FILE = 'personal-data-key';

export function parseMasterKey(text: string, name = 'PERSONAL_DATA_KEY'): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${name} must be 32 bytes, as 64 hex digits or base64`);
  return key;
}

/**
 * Where a process's master key comes from. `load()` is called again when the vault meets a key
 * it does not hold: a key file replaced by a rotation is then read afresh (ADR 055); a key from
 * the environment cannot change under a running process.
 */
export interface MasterKeySource {
  readonly kind: 'environment' | 'file';
  /** The key file (kind 'file'). */
  readonly file?: string;
  load(): Buffer;
}

export function masterKeySource(configured: string | undefined, dataDir: string): MasterKeySource {
  if (configured) {
    const key = parseMasterKey(configured);
    return { kind: 'environment', load: () => key };
  }
  const file = join(dataDir, MASTER_KEY_FILE);
  return { kind: 'file', file, load: () => loadMasterKey(undefined, dataDir) };
}

export const fixedMasterKey = (key: Buffer): MasterKeySource => ({ kind: 'environment', load: () => key });

export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return parseMasterKey(configured);
  const file = join(dataDir, MASTER_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process (the api, the workers, the projections) created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return parseMasterKey(readFileSync(file, 'utf8'));
}

/**
 * Replaces the key file in one step (write a sibling, fsync, rename over, fsync the folder): a
 * reader sees the old key or the new one, never a torn file, and a crash leaves one of the two.
 */
export function writeMasterKeyFile(dataDir: string, key: Buffer): void {
  const file = join(dataDir, MASTER_KEY_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'w' });
  const fd = openSync(temporary, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  const dir = openSync(dataDir, 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

export const newMasterKey = (): Buffer => randomBytes(KEY_BYTES);

/** A key for one purpose, derived from the master key, so no two purposes ever share a key. */
export const deriveKey = (master: Buffer, purpose: string): Buffer =>
  Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `quern ${purpose}`, KEY_BYTES));

/** A master key's public name (16 hex digits, derived one way): the vault labels each wrapped key with it. */
export const masterKeyId = (master: Buffer): string => deriveKey(master, 'master key id v1').subarray(0, 8).toString('hex');
