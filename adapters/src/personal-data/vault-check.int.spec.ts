// Proves the doctor's read-only check of the personal-data master key against the key vault
// (ADR 055): a key Quern accepts passes (the current key, and the old key while a rotation's
// bridge is kept or after a rotation stopped half-way), a key it refuses fails, and a vault made
// before rotation existed is checked by opening one of its keys.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openKeyVault } from './key-vault.js';
import { newMasterKey } from './master-key.js';
import { rotateMasterKey } from './rotate.js';
import { checkVaultKey } from './vault-check.js';
import { wrapAccountKey, wrapKeyOf } from './vault-keys.js';

const root = mkdtempSync(join(tmpdir(), 'quern-vault-check-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let files = 0;
const newVaultFile = () => join(root, `keys-${++files}.sqlite`);

function seed(file: string, key: Buffer, count: number): void {
  const vault = openKeyVault(file, key);
  for (let i = 0; i < count; i += 1) vault.sealingKey(randomUUID());
  vault.close();
}

describe('checking a master key against the key vault', () => {
  it('passes the current key, fails another one', () => {
    const file = newVaultFile();
    const key = newMasterKey();
    seed(file, key, 3);
    expect(checkVaultKey(file, key)).toEqual({ accounts: 3, opens: true });
    expect(checkVaultKey(file, newMasterKey())).toEqual({ accounts: 3, opens: false });
  });

  it('passes the old key while the rotation bridge is kept, and both keys after a rotation stopped half-way', () => {
    const bridged = newVaultFile();
    const oldKey = newMasterKey();
    const newKey = newMasterKey();
    seed(bridged, oldKey, 5);
    // PERSONAL_DATA_KEY case: every key re-wrapped, the bridge kept until --finish.
    expect(rotateMasterKey({ vaultFile: bridged, current: oldKey, next: newKey }).bridgeKept).toBe(true);
    expect(checkVaultKey(bridged, oldKey)).toEqual({ accounts: 5, opens: true });
    expect(checkVaultKey(bridged, newKey)).toEqual({ accounts: 5, opens: true });
    expect(checkVaultKey(bridged, newMasterKey()).opens).toBe(false);

    const halfway = newVaultFile();
    seed(halfway, oldKey, 300);
    expect(() =>
      rotateMasterKey({
        vaultFile: halfway,
        current: oldKey,
        next: newKey,
        batchSize: 100,
        onProgress: (done) => {
          if (done >= 100) throw new Error('crash');
        },
      }),
    ).toThrow('crash');
    expect(checkVaultKey(halfway, oldKey)).toEqual({ accounts: 300, opens: true });
    expect(checkVaultKey(halfway, newKey)).toEqual({ accounts: 300, opens: true });
    expect(checkVaultKey(halfway, newMasterKey()).opens).toBe(false);
  });

  it('opens one key of a vault made before rotation existed (no key labels)', () => {
    const file = newVaultFile();
    const key = newMasterKey();
    const db = new Database(file);
    db.exec('CREATE TABLE account_keys (owner TEXT PRIMARY KEY, wrapped BLOB NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID');
    const owner = randomUUID();
    db.prepare('INSERT INTO account_keys VALUES (?, ?, ?)').run(
      owner,
      wrapAccountKey(wrapKeyOf(key), owner, randomBytes(32)),
      '2024-01-01',
    );
    db.close();
    expect(checkVaultKey(file, key)).toEqual({ accounts: 1, opens: true });
    expect(checkVaultKey(file, newMasterKey())).toEqual({ accounts: 1, opens: false });
  });
});
