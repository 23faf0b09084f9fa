// The copy-and-replace migration of a log recorded before sealing (ADR 042), on real SQLite files.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertSealedLog, openEventStore } from '../eventstore/index.js';
import { openSqliteEventStore } from '../eventstore/sqlite.js';
import { sealLogInto } from './migrate.js';

const root = mkdtempSync(join(tmpdir(), 'quern-migrate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const personalDataKey = randomBytes(32).toString('base64');

describe('sealing an old log', () => {
  it('copies every event in order with its id, seals personal data, names identity keys by digest, and the log is then accepted', async () => {
    const oldLog = openSqliteEventStore({ file: join(root, 'old.sqlite') });
    const userId = randomUUID();
    const claim = { type: 'IdentityKeyClaimed', data: { kind: 'email', value: 'grace@example.com', userId, claimedAt: 't' } };
    await oldLog.append('identity-key-email-grace@example.com', [claim], 'no_stream');
    const registered = {
      type: 'UserRegistered',
      data: {
        userId,
        username: 'grace',
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@example.com',
        phone: '+15550001111',
        passwordHash: 'h',
        registeredAt: 't',
      },
    };
    await oldLog.append(`user-${userId}`, [registered], 'no_stream');
    await oldLog.append('wallet-w1', [{ type: 'WalletOpened', data: { walletId: 'w1' } }], 'no_stream');
    await oldLog.append(`user-${userId}`, [{ type: 'UserSignedIn', data: { userId, signedInAt: 't' } }], 0n);
    await oldLog.append(`user-${userId}`, [{ type: 'UserSignedOut', data: { userId, signedOutAt: 't' } }], 1n);
    const before = await oldLog.readAll({ maxCount: 100 });

    const dataDir = join(root, 'new');
    const target = openEventStore({ dataDir, personalDataKey });
    const report = await sealLogInto(oldLog, target);

    expect(report).toEqual({ events: 5, streams: 3 });
    const after = await target.readAll({ maxCount: 100 });
    expect(after.map((e) => [e.id, e.type, e.position])).toEqual(before.map((e) => [e.id, e.type, e.position]));
    expect((await target.readStream(`user-${userId}`))[0]?.data).toEqual(registered.data);
    expect((await target.readStream('identity-key-email-grace@example.com'))[0]?.data).toEqual(claim.data);
    const raw = openSqliteEventStore({ file: join(dataDir, 'events.sqlite') });
    const text = JSON.stringify((await raw.readAll({ maxCount: 100 })).map((e) => [e.streamId, e.data]));
    for (const secret of ['Hopper', 'grace@example.com', '5550001111']) expect(text).not.toContain(secret);
    await expect(assertSealedLog(target)).resolves.toBeUndefined();
    await expect(sealLogInto(oldLog, target)).rejects.toThrow(/not empty/);
    await Promise.all([oldLog.close(), target.close(), raw.close()]);
  });
});
