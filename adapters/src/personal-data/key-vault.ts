/**
 * The per-account keys (ADR 042), in a small SQLite file beside the log (DATA_DIR, shared by the
 * api, workers and projections as the log is). It is the one place in Quern where data is really
 * deleted: forgetting an account deletes its key row with secure_delete on, so SQLite overwrites
 * the freed bytes, and records the account as forgotten so no later event can mint it a new key.
 * Keys are stored wrapped (AES-256-GCM) with a key derived from the master key, so a copy of
 * this file alone opens nothing.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { PersonalDataVault } from '@quern/core/personal-data';
import { openBytes, sealBytes } from './cipher.js';
import { deriveKey } from './master-key.js';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS account_keys (
    owner      TEXT PRIMARY KEY,
    wrapped    BLOB NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS vault_meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS forgotten_accounts (
    owner        TEXT PRIMARY KEY,
    forgotten_at TEXT NOT NULL
  ) WITHOUT ROWID;
`;

const KEY_CACHE_MS = 5_000;
const KEY_CACHE_MAX = 10_000;

export interface KeyVault extends PersonalDataVault {
  /** A keyed digest (HMAC-SHA-256) of a unique identity key, for the stream that claims it. */
  keyDigest(kind: string, normalizedValue: string): string;
  /** The key to seal with, created on first use; undefined once the account is forgotten. */
  sealingKey(owner: string): Buffer | undefined;
  /** The key to open with; undefined when the account has none (forgotten, or never sealed). */
  openingKey(owner: string): Buffer | undefined;
  /**
   * Whether the log beside this vault is known to hold only sealed personal data: it was empty
   * when the vault first met it, or the migration sealed it (see assertSealedLog).
   */
  isLogVerified(): boolean;
  markLogVerified(): void;
  close(): void;
}

export function openKeyVault(file: string, masterKey: Buffer): KeyVault {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 5_000 });
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  db.exec(SCHEMA);
  const wrapKey = deriveKey(masterKey, 'personal-data account-key wrapping v1');
  const digestKey = deriveKey(masterKey, 'identity-key digest v1');

  const selectKey = db.prepare<[string], { wrapped: Buffer }>('SELECT wrapped FROM account_keys WHERE owner = ?');
  const insertKey = db.prepare('INSERT OR IGNORE INTO account_keys (owner, wrapped, created_at) VALUES (?, ?, ?)');
  const selectForgotten = db.prepare<[string], { owner: string }>('SELECT owner FROM forgotten_accounts WHERE owner = ?');
  const deleteKey = db.prepare('DELETE FROM account_keys WHERE owner = ?');
  const insertForgotten = db.prepare('INSERT OR IGNORE INTO forgotten_accounts (owner, forgotten_at) VALUES (?, ?)');

  const selectMeta = db.prepare<[string], { value: string }>('SELECT value FROM vault_meta WHERE name = ?');
  const insertMeta = db.prepare('INSERT OR IGNORE INTO vault_meta (name, value) VALUES (?, ?)');
  const unwrap = (owner: string, wrapped: Buffer) => openBytes(wrapKey, `account-key\u0000${owner}`, wrapped);
  // Unwrapped keys for a few seconds: a rebuild opens many events of one account in a row. Another
  // process that forgets an account is seen here within KEY_CACHE_MS; this one evicts at once.
  const cache = new Map<string, { key: Buffer; until: number }>();
  const cached = (owner: string): Buffer | undefined => {
    const hit = cache.get(owner);
    if (hit && hit.until > Date.now()) return hit.key;
    if (hit) cache.delete(owner);
    return undefined;
  };
  const remember = (owner: string, key: Buffer): Buffer => {
    if (cache.size >= KEY_CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(owner, { key, until: Date.now() + KEY_CACHE_MS });
    return key;
  };
  const openingKey = (owner: string): Buffer | undefined => {
    const hit = cached(owner);
    if (hit) return hit;
    const row = selectKey.get(owner);
    return row ? remember(owner, unwrap(owner, row.wrapped)) : undefined;
  };
  const create = db.transaction((owner: string): Buffer | undefined => {
    if (selectForgotten.get(owner)) return undefined;
    const existing = selectKey.get(owner);
    if (existing) return unwrap(owner, existing.wrapped);
    const key = randomBytes(32);
    insertKey.run(owner, sealBytes(wrapKey, `account-key\u0000${owner}`, key), new Date().toISOString());
    return key;
  });
  const forget = db.transaction((owner: string) => {
    deleteKey.run(owner);
    insertForgotten.run(owner, new Date().toISOString());
  });

  return {
    isLogVerified: () => selectMeta.get('log_verified_at') !== undefined,
    markLogVerified: () => {
      insertMeta.run('log_verified_at', new Date().toISOString());
    },
    // IMMEDIATE: two processes creating one account's key serialize; the second reads the first's.
    sealingKey: (owner) => {
      const existing = openingKey(owner);
      if (existing) return existing;
      const created = create.immediate(owner);
      return created ? remember(owner, created) : undefined;
    },
    openingKey,
    keyDigest: (kind, normalizedValue) => createHmac('sha256', digestKey).update(`${kind}\u0000${normalizedValue}`).digest('base64url'),
    forget: async (owner) => {
      cache.delete(owner);
      forget.immediate(owner);
    },
    isForgotten: async (owner) => selectForgotten.get(owner) !== undefined,
    close: () => db.close(),
  };
}
