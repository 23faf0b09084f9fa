/**
 * The personal-data master key (ADR 042): 32 bytes from PERSONAL_DATA_KEY (base64 or hex), or
 * generated once and kept in DATA_DIR/personal-data-key. It wraps every account's key and keys the
 * digests that name identity-key streams, so it is never rotated the way APP_SECRET may be: losing
 * it loses every name, e-mail and phone in the log and every sign-in by e-mail.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_BYTES = 32;

export function parseMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES) throw new Error('PERSONAL_DATA_KEY must be 32 bytes, as 64 hex digits or base64');
  return key;
}

export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return parseMasterKey(configured);
  const file = join(dataDir, 'personal-data-key');
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

/** A key for one purpose, derived from the master key, so no two purposes ever share a key. */
export const deriveKey = (master: Buffer, purpose: string): Buffer =>
  Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `quern ${purpose}`, KEY_BYTES));
