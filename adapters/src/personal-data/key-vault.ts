/**
 * The per-account keys (ADR 042), in a small SQLite file beside the log (DATA_DIR, shared by the
 * api, workers and projections as the log is). It is the one place in Quern where data is really
 * deleted: forgetting an account deletes its key row with secure_delete on, so SQLite overwrites
 * the freed bytes, and records the account as forgotten so no later event can mint it a new key.
 * Keys are stored wrapped (AES-256-GCM) with a key derived from the master key, so a copy of
 * this file alone opens nothing.
 *
 * Each wrapped key names the master key it is wrapped under, and the vault names the current one
 * (new keys are wrapped under it), so the master key can be rotated while Quern runs (ADR 055):
 * a rotation records its new key sealed under the old one (a bridge), makes it current and
 * re-wraps every row; a process meeting a key it does not hold reads the bridges and its key file
 * again, and so follows the rotation without a restart.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { PersonalDataVault } from '@quern/core/personal-data';
import { deriveKey, fixedMasterKey, type MasterKeySource, masterKeyId } from './master-key.js';
import { DIGEST_SECRET, LEGACY_DIGEST_PURPOSE, openBridge, openSecret, unwrapAccountKey, wrapAccountKey, wrapKeyOf } from './vault-keys.js';

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
  CREATE TABLE IF NOT EXISTS master_key_bridges (
    key_id    TEXT PRIMARY KEY,
    sealed_by TEXT NOT NULL,
    sealed    BLOB NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS vault_secrets (
    name   TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    sealed BLOB NOT NULL
  ) WITHOUT ROWID;
`;

/** vault_meta: the id of the master key new account keys are wrapped under. */
export const CURRENT_KEY_META = 'current_master_key_id';

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
  /**
   * Unwraps every account key (a backup's and a rotation's check); throws naming the first that
   * fails. `currentKeyId`: the master key new account keys are wrapped under.
   */
  verifyAllKeys(): { accountKeys: number; forgotten: number; currentKeyId: string };
  close(): void;
}

/** Opens (creating when missing) the vault; throws when the master key given cannot open it. */
export function openKeyVault(file: string, master: Buffer | MasterKeySource): KeyVault {
  const source = Buffer.isBuffer(master) ? fixedMasterKey(master) : master;
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 5_000 });
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  // IMMEDIATE: the api, workers and projections may open the vault at the same moment.
  db.transaction(() => {
    db.exec(SCHEMA);
    const columns = db.prepare<[], { name: string }>('PRAGMA table_info(account_keys)').all();
    if (!columns.some((column) => column.name === 'key_id')) db.exec('ALTER TABLE account_keys ADD COLUMN key_id TEXT');
  }).immediate();

  const selectKey = db.prepare<[string], { wrapped: Buffer; key_id: string | null }>(
    'SELECT wrapped, key_id FROM account_keys WHERE owner = ?',
  );
  const insertKey = db.prepare('INSERT OR IGNORE INTO account_keys (owner, wrapped, created_at, key_id) VALUES (?, ?, ?, ?)');
  const selectForgotten = db.prepare<[string], { owner: string }>('SELECT owner FROM forgotten_accounts WHERE owner = ?');
  const deleteKey = db.prepare('DELETE FROM account_keys WHERE owner = ?');
  const insertForgotten = db.prepare('INSERT OR IGNORE INTO forgotten_accounts (owner, forgotten_at) VALUES (?, ?)');
  const selectMeta = db.prepare<[string], { value: string }>('SELECT value FROM vault_meta WHERE name = ?');
  const insertMeta = db.prepare('INSERT OR IGNORE INTO vault_meta (name, value) VALUES (?, ?)');
  const selectBridges = db.prepare<[], { key_id: string; sealed_by: string; sealed: Buffer }>(
    'SELECT key_id, sealed_by, sealed FROM master_key_bridges',
  );
  const selectSecret = db.prepare<[string], { key_id: string; sealed: Buffer }>('SELECT key_id, sealed FROM vault_secrets WHERE name = ?');

  // The master keys this process holds, by id, with their wrapping keys.
  const masters = new Map<string, Buffer>();
  const wrapKeys = new Map<string, Buffer>();
  const hold = (key: Buffer): string => {
    const id = masterKeyId(key);
    if (!masters.has(id)) {
      masters.set(id, key);
      wrapKeys.set(id, wrapKeyOf(key));
    }
    return id;
  };
  const primary = source.load();
  const primaryId = hold(primary);
  /** Reads the key source again (a rotated key file) and follows every bridge from a key held. */
  const learn = () => {
    if (source.kind === 'file') hold(source.load());
    for (let changed = true; changed; ) {
      changed = false;
      for (const bridge of selectBridges.all()) {
        const from = masters.get(bridge.sealed_by);
        if (from && !masters.has(bridge.key_id)) {
          hold(openBridge(from, bridge.key_id, bridge.sealed));
          changed = true;
        }
      }
    }
  };
  const missing = (id: string) =>
    new Error(
      `The personal-data key vault (${file}) needs master key ${id}, and this process holds ${[...masters.keys()].join(', ')}: ` +
        'PERSONAL_DATA_KEY (or DATA_DIR/personal-data-key) must be the key the vault was last rotated to (ADR 055).',
    );
  const wrapKeyFor = (id: string): Buffer => {
    if (!wrapKeys.has(id)) learn();
    const wrapKey = wrapKeys.get(id);
    if (!wrapKey) throw missing(id);
    return wrapKey;
  };
  const masterFor = (id: string): Buffer => {
    wrapKeyFor(id);
    return masters.get(id) as Buffer;
  };

  // A vault made before rotation existed has unlabelled rows, all under the one key it ever had:
  // the key given must open them (a wrong key is refused here, not labelled), then they are
  // labelled with it and it becomes the vault's current key.
  db.transaction(() => {
    if (selectMeta.get(CURRENT_KEY_META)) return;
    const legacy = db
      .prepare<[], { owner: string; wrapped: Buffer }>('SELECT owner, wrapped FROM account_keys WHERE key_id IS NULL LIMIT 1')
      .get();
    if (legacy) {
      try {
        unwrapAccountKey(wrapKeyFor(primaryId), legacy.owner, legacy.wrapped);
      } catch {
        throw new Error(`The personal-data master key given (${primaryId}) does not open the key vault ${file}.`);
      }
      db.prepare('UPDATE account_keys SET key_id = ? WHERE key_id IS NULL').run(primaryId);
    }
    insertMeta.run(CURRENT_KEY_META, primaryId);
  }).immediate();
  const currentKeyId = (): string => (selectMeta.get(CURRENT_KEY_META) as { value: string }).value;
  // Fails at start-up, not at the first registration, when the key given is not the vault's.
  learn();
  wrapKeyFor(currentKeyId());

  // The identity-key digests name streams in the log, so their key never changes: derived from the
  // first master key, and kept sealed in the vault from the first rotation on.
  const digestSecret = selectSecret.get(DIGEST_SECRET);
  const digestKey = digestSecret
    ? openSecret(masterFor(digestSecret.key_id), DIGEST_SECRET, digestSecret.sealed)
    : deriveKey(primary, LEGACY_DIGEST_PURPOSE);

  const unwrap = (owner: string, row: { wrapped: Buffer; key_id: string | null }) =>
    unwrapAccountKey(wrapKeyFor(row.key_id ?? primaryId), owner, row.wrapped);
  // Unwrapped keys for a few seconds: a rebuild opens many events of one account in a row. Another
  // process that forgets an account is seen here within KEY_CACHE_MS; this one evicts at once.
  // A rotation changes how a key is wrapped, never the key, so the cache stays valid across it.
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
    return row ? remember(owner, unwrap(owner, row)) : undefined;
  };
  const create = db.transaction((owner: string): Buffer | undefined => {
    if (selectForgotten.get(owner)) return undefined;
    const existing = selectKey.get(owner);
    if (existing) return unwrap(owner, existing);
    const key = randomBytes(32);
    // Read inside the transaction: a rotation that has begun is seen, so no new key is wrapped under the old master.
    const keyId = currentKeyId();
    insertKey.run(owner, wrapAccountKey(wrapKeyFor(keyId), owner, key), new Date().toISOString(), keyId);
    return key;
  });
  const forget = db.transaction((owner: string) => {
    deleteKey.run(owner);
    insertForgotten.run(owner, new Date().toISOString());
  });
  const verifyAllKeys = () => {
    const rows = db
      .prepare<[], { owner: string; wrapped: Buffer; key_id: string | null }>('SELECT owner, wrapped, key_id FROM account_keys')
      .iterate();
    let accountKeys = 0;
    for (const row of rows) {
      try {
        unwrap(row.owner, row);
      } catch (error) {
        throw new Error(
          `The key of account ${row.owner} in ${file} does not open: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      accountKeys += 1;
    }
    const forgotten = Number(db.prepare('SELECT count(*) FROM forgotten_accounts').pluck().get());
    return { accountKeys, forgotten, currentKeyId: currentKeyId() };
  };

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
    verifyAllKeys,
    close: () => db.close(),
  };
}
