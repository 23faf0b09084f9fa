/**
 * Whether a master key opens the key vault it is meant for, read-only (for `npm run doctor`): a
 * PERSONAL_DATA_KEY that differs from the one the vault was written under would leave every
 * account's name, e-mail and phone unreadable, and Quern would only find out on the first read.
 * The vault is never written.
 *
 * A vault that names its current master key (ADR 055) accepts the key Quern would accept: that
 * key, or during a rotation (its bridge kept, or a run stopped half-way) the key the bridge is
 * sealed by, which opens the current one. Only a vault made before rotation existed names no key:
 * then one wrapped account key is unwrapped, as the vault itself does when it first labels them.
 */
import Database from 'better-sqlite3';
import { CURRENT_KEY_META } from './key-vault.js';
import { masterKeyId } from './master-key.js';
import { unwrapAccountKey, wrapKeyOf } from './vault-keys.js';

export function checkVaultKey(file: string, masterKey: Buffer): { accounts: number; opens: boolean } {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    const hasTable = (name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
    if (!hasTable('account_keys')) return { accounts: 0, opens: true };
    const accounts = Number(db.prepare('SELECT count(*) FROM account_keys').pluck().get());
    const current = hasTable('vault_meta')
      ? (db.prepare('SELECT value FROM vault_meta WHERE name = ?').pluck().get(CURRENT_KEY_META) as string | undefined)
      : undefined;
    const id = masterKeyId(masterKey);
    if (current !== undefined) {
      const bridged =
        hasTable('master_key_bridges') && db.prepare('SELECT 1 FROM master_key_bridges WHERE sealed_by = ?').get(id) !== undefined;
      return { accounts, opens: current === id || bridged };
    }
    const row = db.prepare<[], { owner: string; wrapped: Buffer }>('SELECT owner, wrapped FROM account_keys LIMIT 1').get();
    if (!row) return { accounts, opens: true };
    try {
      unwrapAccountKey(wrapKeyOf(masterKey), row.owner, row.wrapped);
      return { accounts, opens: true };
    } catch {
      return { accounts, opens: false };
    }
  } finally {
    db.close();
  }
}
