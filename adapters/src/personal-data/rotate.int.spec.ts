// Proves the master-key rotation of the key vault (ADR 055) on real SQLite files: a vault opened
// before the rotation (another process) keeps opening every key and creating new ones during and
// after it, from the key file or from the bridge; the identity-key digests do not change; a
// rotation stopped half-way resumes, and refuses another new key meanwhile; afterwards the old
// key opens nothing.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openKeyVault } from './key-vault.js';
import { loadMasterKey, masterKeyId, masterKeySource, newMasterKey, writeMasterKeyFile } from './master-key.js';
import { finishRotation, rotateMasterKey } from './rotate.js';

const root = mkdtempSync(join(tmpdir(), 'quern-rotate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const newDataDir = () => join(root, `data-${++dirs}`);

function seed(dataDir: string, source: Parameters<typeof openKeyVault>[1], count: number) {
  const vault = openKeyVault(join(dataDir, 'keys.sqlite'), source);
  const keys = new Map<string, string>();
  for (let i = 0; i < count; i += 1) {
    const owner = randomUUID();
    keys.set(owner, (vault.sealingKey(owner) as Buffer).toString('hex'));
  }
  return { vault, keys, digest: vault.keyDigest('email', 'ada@example.com') };
}

describe('rotating the personal-data master key', () => {
  it('with the key in DATA_DIR: a running vault follows the new file, digests stay, the old key opens nothing', () => {
    const dataDir = newDataDir();
    const oldKey = loadMasterKey(undefined, dataDir);
    const { vault: seeding, keys, digest } = seed(dataDir, masterKeySource(undefined, dataDir), 450);
    seeding.close();
    // Opened before the rotation, holding only the old key, and nothing cached.
    const running = openKeyVault(join(dataDir, 'keys.sqlite'), masterKeySource(undefined, dataDir));

    const report = rotateMasterKey({
      vaultFile: join(dataDir, 'keys.sqlite'),
      current: oldKey,
      generateNext: true,
      installNewKey: (key) => writeMasterKeyFile(dataDir, key),
      batchSize: 100,
    });
    expect(report).toMatchObject({ fromKeyId: masterKeyId(oldKey), rewrapped: 450, resumed: false, bridgeKept: false });
    const newKey = loadMasterKey(undefined, dataDir);
    expect(masterKeyId(newKey)).toBe(report.toKeyId);
    expect(readFileSync(join(dataDir, 'personal-data-key'), 'utf8').trim()).toBe(newKey.toString('base64'));

    for (const [owner, key] of keys) expect(running.openingKey(owner)?.toString('hex')).toBe(key);
    const late = randomUUID();
    const lateKey = running.sealingKey(late) as Buffer;
    expect(running.keyDigest('email', 'ada@example.com')).toBe(digest);
    running.close();

    const restarted = openKeyVault(join(dataDir, 'keys.sqlite'), masterKeySource(undefined, dataDir));
    expect(restarted.verifyAllKeys().accountKeys).toBe(451);
    expect(restarted.openingKey(late)?.equals(lateKey)).toBe(true);
    expect(restarted.keyDigest('email', 'ada@example.com')).toBe(digest);
    restarted.close();
    expect(() => openKeyVault(join(dataDir, 'keys.sqlite'), oldKey)).toThrow(/needs master key/);
  });

  it('with PERSONAL_DATA_KEY: the bridge carries running processes until --finish, then the old key opens nothing', () => {
    const dataDir = newDataDir();
    const oldKey = newMasterKey();
    const newKey = newMasterKey();
    const { vault: running, keys, digest } = seed(dataDir, oldKey, 120);
    const report = rotateMasterKey({ vaultFile: join(dataDir, 'keys.sqlite'), current: oldKey, next: newKey });
    expect(report).toMatchObject({ rewrapped: 120, bridgeKept: true, toKeyId: masterKeyId(newKey) });

    // A process holding the old key still reads, and wraps new keys under the new key.
    const reopened = openKeyVault(join(dataDir, 'keys.sqlite'), oldKey);
    for (const [owner, key] of keys) expect(reopened.openingKey(owner)?.toString('hex')).toBe(key);
    const created = randomUUID();
    const createdKey = reopened.sealingKey(created) as Buffer;
    reopened.close();
    running.close();

    expect(() => finishRotation(join(dataDir, 'keys.sqlite'), oldKey)).toThrow(/not the vault's current master key/);
    expect(finishRotation(join(dataDir, 'keys.sqlite'), newKey)).toEqual({ keyId: masterKeyId(newKey), droppedBridge: true });
    const restarted = openKeyVault(join(dataDir, 'keys.sqlite'), newKey);
    expect(restarted.verifyAllKeys().accountKeys).toBe(121);
    expect(restarted.openingKey(created)?.equals(createdKey)).toBe(true);
    expect(restarted.keyDigest('email', 'ada@example.com')).toBe(digest);
    restarted.close();
    expect(() => openKeyVault(join(dataDir, 'keys.sqlite'), oldKey)).toThrow(/needs master key/);
  });

  it('resumes a rotation stopped half-way, refusing a different new key meanwhile, and leaves every key readable at each step', () => {
    const dataDir = newDataDir();
    const oldKey = newMasterKey();
    const newKey = newMasterKey();
    const { vault, keys } = seed(dataDir, oldKey, 300);
    vault.close();
    const file = join(dataDir, 'keys.sqlite');
    expect(() =>
      rotateMasterKey({
        vaultFile: file,
        current: oldKey,
        next: newKey,
        batchSize: 100,
        onProgress: (done) => {
          if (done >= 100) throw new Error('crash');
        },
      }),
    ).toThrow('crash');
    // Half-rotated on disk: both the old key (through the bridge) and the new one open everything.
    for (const key of [oldKey, newKey]) {
      const reader = openKeyVault(file, key);
      for (const [owner, expected] of keys) expect(reader.openingKey(owner)?.toString('hex')).toBe(expected);
      reader.close();
    }
    expect(() => rotateMasterKey({ vaultFile: file, current: oldKey, next: newMasterKey() })).toThrow(
      /A rotation to master key .* is under way/,
    );
    expect(() => rotateMasterKey({ vaultFile: file, current: newMasterKey(), next: newKey })).toThrow(/needs master key/);
    const resumed = rotateMasterKey({ vaultFile: file, current: oldKey, next: newKey });
    expect(resumed).toMatchObject({ resumed: true, rewrapped: 200 });
    expect(finishRotation(file, newKey).droppedBridge).toBe(true);
    expect(() => rotateMasterKey({ vaultFile: file, current: newKey, next: newKey })).toThrow(/the new master key is the current one/i);
  });

  it('refuses to open a vault with a key it was never wrapped under', () => {
    const dataDir = newDataDir();
    seed(dataDir, newMasterKey(), 3).vault.close();
    expect(() => openKeyVault(join(dataDir, 'keys.sqlite'), newMasterKey())).toThrow(/needs master key/);
  });
});
