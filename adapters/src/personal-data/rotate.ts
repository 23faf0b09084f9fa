/**
 * Rotation of the personal-data master key while Quern runs (ADR 055). Three steps, each one
 * committed on its own so a crash anywhere leaves a vault every process can still read and a
 * command that resumes where it stopped:
 *   1. begin: the new key sealed under the old one (a bridge), the identity-key digest key sealed
 *      under the new one, and the new key made current (new account keys are wrapped under it);
 *   2. re-wrap: every account key still under the old key, in small transactions;
 *   3. finish: the bridge deleted once no key is left under the old master, after which the old
 *      key opens nothing in the vault. With the key in a file the new file is written first (one
 *      rename); with PERSONAL_DATA_KEY the bridge stays until the operator has restarted every
 *      process with the new key and runs the finish.
 */
import Database from 'better-sqlite3';
import { CURRENT_KEY_META, openKeyVault } from './key-vault.js';
import { deriveKey, masterKeyId, newMasterKey } from './master-key.js';
import {
  DIGEST_SECRET,
  LEGACY_DIGEST_PURPOSE,
  openBridge,
  openSecret,
  sealBridge,
  sealSecret,
  unwrapAccountKey,
  wrapAccountKey,
  wrapKeyOf,
} from './vault-keys.js';

/** Account keys re-wrapped per transaction: short enough that sign-ups wait milliseconds. */
const REWRAP_BATCH = 200;

export interface RotationReport {
  fromKeyId: string;
  toKeyId: string;
  /** Account keys re-wrapped by this run. */
  rewrapped: number;
  /** This run continued a rotation an earlier run had begun. */
  resumed: boolean;
  /** The old key still opens the new one through the bridge (until finishRotation). */
  bridgeKept: boolean;
}

export interface RotationOptions {
  vaultFile: string;
  /** The master key processes hold now. */
  current: Buffer;
  /** The key to rotate to; may be omitted to resume a rotation already begun, or with generateNext. */
  next?: Buffer;
  /** Without `next`, a new random key is made when no rotation is under way (the key-file case). */
  generateNext?: boolean;
  /**
   * Makes the new key the one processes load (writes the key file); undefined when the key comes
   * from the environment, which only the operator can change: the bridge is then kept.
   */
  installNewKey?: (key: Buffer) => void;
  batchSize?: number;
  onProgress?: (rewrapped: number) => void;
}

interface Bridge {
  key_id: string;
  sealed_by: string;
  sealed: Buffer;
}

function openVaultFile(file: string): Database.Database {
  const db = new Database(file, { fileMustExist: true, timeout: 10_000 });
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  return db;
}

export function rotateMasterKey(options: RotationOptions): RotationReport {
  // Opening the vault creates its newer tables and checks that `current` is one of its keys.
  openKeyVault(options.vaultFile, options.current).close();
  const db = openVaultFile(options.vaultFile);
  try {
    const currentId = masterKeyId(options.current);
    const { source, target, resumed } = db
      .transaction(() => begin(db, options.current, options.next, options.generateNext === true))
      .immediate();
    const sourceId = masterKeyId(source);
    const targetId = masterKeyId(target);
    const wrapKeys = new Map([
      [sourceId, wrapKeyOf(source)],
      [targetId, wrapKeyOf(target)],
    ]);
    // Walks the table once in owner order (its primary key), from after the last owner re-wrapped:
    // a plain "not yet under the target" would read past every row already done in each batch,
    // quadratic work under the vault's write lock. Keys created behind the cursor since `begin`
    // are under the target already; dropBridge checks that none is left. Each run starts from ''.
    const select = db.prepare<[string, string, number], { owner: string; wrapped: Buffer; key_id: string | null }>(
      'SELECT owner, wrapped, key_id FROM account_keys WHERE owner > ? AND key_id IS NOT ? ORDER BY owner LIMIT ?',
    );
    const update = db.prepare('UPDATE account_keys SET wrapped = ?, key_id = ? WHERE owner = ?');
    const rewrapBatch = db.transaction((after: string, limit: number) => {
      const rows = select.all(after, targetId, limit);
      for (const row of rows) {
        const from = wrapKeys.get(row.key_id ?? sourceId);
        if (!from)
          throw new Error(`The key of account ${row.owner} is wrapped under master key ${row.key_id}, neither the old nor the new key.`);
        const key = unwrapAccountKey(from, row.owner, row.wrapped);
        update.run(wrapAccountKey(wrapKeys.get(targetId) as Buffer, row.owner, key), targetId, row.owner);
      }
      return { count: rows.length, last: rows.at(-1)?.owner };
    });
    let rewrapped = 0;
    let after = '';
    for (;;) {
      const { count, last } = rewrapBatch.immediate(after, options.batchSize ?? REWRAP_BATCH);
      if (last === undefined) break;
      after = last;
      rewrapped += count;
      options.onProgress?.(rewrapped);
    }
    const fromKeyId = sourceId;
    if (!options.installNewKey) return { fromKeyId, toKeyId: targetId, rewrapped, resumed, bridgeKept: currentId !== targetId };
    if (currentId !== targetId) options.installNewKey(target);
    dropBridge(db, targetId);
    return { fromKeyId, toKeyId: targetId, rewrapped, resumed, bridgeKept: false };
  } finally {
    db.close();
  }
}

/**
 * Ends a rotation whose new key came through the environment: run with PERSONAL_DATA_KEY set to
 * the new key once every process was restarted with it. Afterwards the old key opens nothing.
 */
export function finishRotation(vaultFile: string, current: Buffer): { keyId: string; droppedBridge: boolean } {
  const db = openVaultFile(vaultFile);
  try {
    const keyId = masterKeyId(current);
    const vaultKey = (db.prepare('SELECT value FROM vault_meta WHERE name = ?').pluck().get(CURRENT_KEY_META) as string | undefined) ?? '';
    if (vaultKey !== keyId)
      throw new Error(
        `The key given (${keyId}) is not the vault's current master key (${vaultKey}): finish with the new key in PERSONAL_DATA_KEY.`,
      );
    if (bridgeCount(db) === 0) return { keyId, droppedBridge: false };
    dropBridge(db, keyId);
    return { keyId, droppedBridge: true };
  } finally {
    db.close();
  }
}

function begin(
  db: Database.Database,
  current: Buffer,
  given: Buffer | undefined,
  generate: boolean,
): { source: Buffer; target: Buffer; resumed: boolean } {
  const currentId = masterKeyId(current);
  const vaultKey = db.prepare('SELECT value FROM vault_meta WHERE name = ?').pluck().get(CURRENT_KEY_META) as string;
  const bridges = db.prepare<[], Bridge>('SELECT key_id, sealed_by, sealed FROM master_key_bridges').all();
  if (bridges.length > 0) {
    // Under way: the vault's current key is the target; one bridge opens it from the source, the other the source from it.
    const forward = bridges.find((bridge) => bridge.key_id === vaultKey);
    const reverse = bridges.find((bridge) => bridge.sealed_by === vaultKey);
    if (!forward || !reverse || bridges.length !== 2)
      throw new Error("The vault's rotation bridges do not match its current key; it was changed by hand. Restore it from a backup.");
    if (forward.sealed_by === currentId) {
      if (given && masterKeyId(given) !== vaultKey)
        throw new Error(
          `A rotation to master key ${vaultKey} is under way: resume it with that key as NEW_PERSONAL_DATA_KEY (or without one when the key is in DATA_DIR), not ${masterKeyId(given)}.`,
        );
      return { source: current, target: openBridge(current, vaultKey, forward.sealed), resumed: true };
    }
    if (vaultKey === currentId) return { source: openBridge(current, reverse.key_id, reverse.sealed), target: current, resumed: true };
    throw new Error(
      `A rotation from master key ${forward.sealed_by} to ${vaultKey} is under way and the key given is ${currentId}: run the command with one of those keys.`,
    );
  }
  if (vaultKey !== currentId) throw new Error(`The key given (${currentId}) is not the vault's current master key (${vaultKey}).`);
  const next = given ?? (generate ? newMasterKey() : undefined);
  if (!next) throw new Error('No new master key was given.');
  const nextId = masterKeyId(next);
  if (nextId === currentId) throw new Error('The new master key is the current one: give a different key.');
  const secret = db
    .prepare<[string], { key_id: string; sealed: Buffer }>('SELECT key_id, sealed FROM vault_secrets WHERE name = ?')
    .get(DIGEST_SECRET);
  const digestKey = secret ? openSecret(current, DIGEST_SECRET, secret.sealed) : deriveKey(current, LEGACY_DIGEST_PURPOSE);
  const insertBridge = db.prepare('INSERT INTO master_key_bridges (key_id, sealed_by, sealed) VALUES (?, ?, ?)');
  insertBridge.run(nextId, currentId, sealBridge(current, nextId, next));
  // Both ways while the rotation runs: a process restarted with the new key before the re-wrap
  // ended still opens the keys not yet re-wrapped. Both go at the finish.
  insertBridge.run(currentId, nextId, sealBridge(next, currentId, current));
  db.prepare('INSERT OR REPLACE INTO vault_secrets (name, key_id, sealed) VALUES (?, ?, ?)').run(
    DIGEST_SECRET,
    nextId,
    sealSecret(next, DIGEST_SECRET, digestKey),
  );
  db.prepare('UPDATE vault_meta SET value = ? WHERE name = ?').run(nextId, CURRENT_KEY_META);
  return { source: current, target: next, resumed: false };
}

const bridgeCount = (db: Database.Database): number => Number(db.prepare('SELECT count(*) FROM master_key_bridges').pluck().get());

/** Deletes the bridge only when no account key is left under another master, in one transaction. */
function dropBridge(db: Database.Database, targetId: string): void {
  db.transaction(() => {
    const left = Number(db.prepare('SELECT count(*) FROM account_keys WHERE key_id IS NOT ?').pluck().get(targetId));
    if (left > 0)
      throw new Error(`${left} account key(s) are still wrapped under the old master key: run the rotation again to finish them.`);
    db.prepare('DELETE FROM master_key_bridges').run();
  }).immediate();
}
