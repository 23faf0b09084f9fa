// The personal-data layer on the real SQLite log (ADR 042): what the log file holds, what Quern
// reads back, and what is left once an account is forgotten.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WrongExpectedRevisionError } from '@quern/core';
import { ERASED } from '@quern/core/personal-data';
import { afterAll, describe, expect, it } from 'vitest';
import { describeEventStoreContract } from '../../test/eventstore/contract.js';
import { assertSealedLog, KEY_VAULT_FILE, openEventStore, openRawEventStore } from '../eventstore/index.js';
import { openKeyVault } from './key-vault.js';
import { withPersonalDataSealing } from './sealing-store.js';
import { openSqliteEventStore } from '../eventstore/sqlite.js';

const root = mkdtempSync(join(tmpdir(), 'quern-sealing-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const newDataDir = () => join(root, `data-${++dirs}`);
const masterKey = randomBytes(32).toString('hex');

describeEventStoreContract('SQLite behind the personal-data layer', async () => {
  const dataDir = newDataDir();
  return withPersonalDataSealing(
    openSqliteEventStore({ file: join(dataDir, 'events.sqlite') }),
    openKeyVault(join(dataDir, KEY_VAULT_FILE), Buffer.from(masterKey, 'hex')),
  );
});

const registered = (userId: string) => ({
  type: 'UserRegistered',
  data: {
    userId,
    username: 'ada_l',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+15551234567',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    registeredAt: '2026-11-24T10:00:00.000Z',
  },
});

function openBoth() {
  const dataDir = newDataDir();
  const store = openEventStore({ dataDir, personalDataKey: masterKey });
  const raw = openRawEventStore({ dataDir });
  return { dataDir, store, raw, close: () => Promise.all([store.close(), raw.close()]) };
}

describe('personal data in the log', () => {
  it('is sealed in the log file and read back in the clear', async () => {
    const { dataDir, store, raw, close } = openBoth();
    const userId = randomUUID();
    await store.append(`user-${userId}`, [registered(userId)], 'no_stream');
    await store.append(
      'identity-key-email-ada@example.com',
      [{ type: 'IdentityKeyClaimed', data: { kind: 'email', value: 'ada@example.com', userId, claimedAt: 'now' } }],
      'no_stream',
    );

    const [mine] = await store.readStream(`user-${userId}`);
    expect(mine?.data).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+15551234567',
      username: 'ada_l',
    });
    const [claim] = await store.readStream('identity-key-email-ada@example.com');
    expect(claim).toMatchObject({ streamId: 'identity-key-email-ada@example.com', data: { value: 'ada@example.com', userId } });

    const recorded = await raw.readAll({ maxCount: 10 });
    const text = JSON.stringify(recorded.map((e) => [e.streamId, e.data]));
    for (const secret of ['Lovelace', 'ada@example.com', '5551234567']) expect(text).not.toContain(secret);
    expect(recorded.map((e) => e.streamId)).not.toContain('identity-key-email-ada@example.com');
    expect(recorded[1]?.streamId).toMatch(/^identity-key-email\.[A-Za-z0-9_-]{43}$/);
    // Not even the bytes of the SQLite file hold them (WAL included).
    await close();
    const bytes = ['events.sqlite', 'events.sqlite-wal'].map((f) => {
      try {
        return readFileSync(join(dataDir, f)).toString('latin1');
      } catch {
        return '';
      }
    });
    for (const secret of ['Lovelace', 'ada@example.com']) expect(bytes.join('')).not.toContain(secret);
  });

  it('names a lost race on an identity key by the stream the caller appended to, not by its digest', async () => {
    const { store, close } = openBoth();
    const claim = (userId: string) => [
      { type: 'IdentityKeyClaimed', data: { kind: 'phone', value: '+15550001111', userId, claimedAt: 'now' } },
    ];
    await store.append('identity-key-phone-+15550001111', claim(randomUUID()), 'no_stream');
    const single = await store.append('identity-key-phone-+15550001111', claim(randomUUID()), 'no_stream').catch((e: unknown) => e);
    expect(single).toBeInstanceOf(WrongExpectedRevisionError);
    expect(single).toMatchObject({ streamId: 'identity-key-phone-+15550001111', expected: 'no_stream', actual: 0n });
    const together = await store
      .appendToStreams([
        { streamId: `user-${randomUUID()}`, events: [registered(randomUUID())], expectedRevision: 'no_stream' },
        { streamId: 'identity-key-phone-+15550001111', events: claim(randomUUID()), expectedRevision: 'no_stream' },
      ])
      .catch((e: unknown) => e);
    expect(together).toMatchObject({ streamId: 'identity-key-phone-+15550001111' });
    await close();
  });

  it('reads as erased everywhere once the account is forgotten, and stays erased for later events', async () => {
    const { store, raw, close } = openBoth();
    const userId = randomUUID();
    await store.append(`user-${userId}`, [registered(userId)], 'no_stream');
    await store.personalData.forget(userId);

    const [erased] = await store.readStream(`user-${userId}`);
    expect(erased?.data).toMatchObject({ firstName: ERASED, lastName: ERASED, email: ERASED, phone: ERASED, username: 'ada_l' });
    const [fromAll] = (await store.readAll({ maxCount: 10 })).filter((e) => e.streamId === `user-${userId}`);
    expect(fromAll?.data.email).toBe(ERASED);
    expect(await store.personalData.isForgotten(userId)).toBe(true);

    // An event about the forgotten account that arrives late is stored without the value.
    await store.append(
      `user-${userId}`,
      [{ type: 'UserNameChanged', data: { userId, firstName: 'Late', lastName: 'Edit', changedAt: 'now' } }],
      0n,
    );
    const [, late] = await raw.readStream(`user-${userId}`);
    expect(late?.data).toMatchObject({ firstName: ERASED, lastName: ERASED });
    expect(store.personalData.openingKey(userId)).toBeUndefined();
    await close();
  });

  it('forgets the key when a reader meets UserAccountDeleted that a crash left unfinished', async () => {
    const { store, close } = openBoth();
    const userId = randomUUID();
    await store.append(`user-${userId}`, [registered(userId)], 'no_stream');
    await store.append(`user-${userId}`, [{ type: 'UserAccountDeleted', data: { userId, username: 'ada_l', deletedAt: 'now' } }], 0n);
    // The handler would forget now; suppose the process died first. The next read finishes it.
    await store.readAll({ maxCount: 10 });
    expect(await store.personalData.isForgotten(userId)).toBe(true);
    expect((await store.readStream(`user-${userId}`))[0]?.data.email).toBe(ERASED);
    await close();
  });

  it('refuses a sealed value moved to another field or account, and leaves values recorded before sealing as they are', async () => {
    const { store, raw, close } = openBoth();
    const ada = randomUUID();
    const bob = randomUUID();
    await store.append(`user-${ada}`, [registered(ada)], 'no_stream');
    const [sealed] = await raw.readStream(`user-${ada}`);
    const moved = { ...registered(bob), data: { ...registered(bob).data, firstName: sealed?.data.email as string } };
    await raw.append(`user-${bob}`, [moved], 'no_stream');
    await store.personalData.sealingKey(bob);
    await expect(store.readStream(`user-${bob}`)).rejects.toThrow();

    const legacy = randomUUID();
    await raw.append(`user-${legacy}`, [registered(legacy)], 'no_stream');
    expect((await store.readStream(`user-${legacy}`))[0]?.data.email).toBe('ada@example.com');
    await close();
  });

  it('the log is refused when it was recorded before sealing, and accepted when new or sealed', async () => {
    const fresh = openBoth();
    await expect(assertSealedLog(fresh.store)).resolves.toBeUndefined();
    await fresh.store.append('wallet-x', [{ type: 'Something', data: {} }], 'no_stream');
    await expect(assertSealedLog(fresh.store)).resolves.toBeUndefined();
    await fresh.close();

    const dataDir = newDataDir();
    const old = openRawEventStore({ dataDir });
    await old.append('wallet-x', [{ type: 'Something', data: {} }], 'no_stream');
    await old.close();
    const reopened = openEventStore({ dataDir, personalDataKey: masterKey });
    await expect(assertSealedLog(reopened)).rejects.toThrow(/migrate:personal-data/);
    await reopened.close();
  });

  it('destroys the key bytes in the vault file', async () => {
    const { dataDir, store, close } = openBoth();
    const userId = randomUUID();
    await store.append(`user-${userId}`, [registered(userId)], 'no_stream');
    const before = readFileSync(join(dataDir, KEY_VAULT_FILE));
    await store.personalData.forget(userId);
    await close();
    const after = readFileSync(join(dataDir, KEY_VAULT_FILE));
    // The wrapped key (nonce, key, tag: 60 bytes) found in the file before is nowhere after.
    const wrapped = findWrappedKey(before, userId);
    expect(wrapped).toBeDefined();
    expect(after.includes(wrapped as Buffer)).toBe(false);
  });
});

/** The 60 bytes stored after the owner id in the vault's row (the row holds owner, then wrapped). */
function findWrappedKey(file: Buffer, owner: string): Buffer | undefined {
  const at = file.indexOf(Buffer.from(owner));
  return at < 0 ? undefined : file.subarray(at + owner.length, at + owner.length + 60);
}
