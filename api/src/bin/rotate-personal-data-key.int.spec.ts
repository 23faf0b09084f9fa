// Proves `npm run rotate:personal-data-key` (ADR 055) on a running Quern: the command, run as its
// own process while accounts register and sign in, re-wraps every account key; the running Quern
// keeps registering and signing in during and after it; every account's profile (e-mail and
// phone, opened from the log) reads back in a Quern started afresh on the same DATA_DIR with the
// new key and an empty Redis (so every event is opened again); the old key opens nothing.
// Both key sources: the generated file in DATA_DIR, and PERSONAL_DATA_KEY with --finish.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_VAULT_FILE, openEventStore } from '@quern/adapters/eventstore';
import { masterKeyId, openKeyVault, parseMasterKey } from '@quern/adapters/personal-data';
import { startPrivateRedis } from '@quern/test-support/redis';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/cli.js';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';
import { type NewUser, userFactory } from '../../test/users.js';

const env = { REGISTRATIONS_PER_IP_HOUR: '10000' };
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

interface Account extends NewUser {
  id: string;
}

async function register(quern: TestQuern, user: NewUser): Promise<Account> {
  const response = await quern.call('POST', '/api/user/register', { body: user });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { ...user, id: login.body.id as string };
}

/** Signs in by e-mail (the identity-key digest and the account's events) and reads the profile. */
async function expectReadable(quern: TestQuern, account: Account): Promise<void> {
  const login = await quern.call('POST', '/api/user/login', { body: { email: account.email, password: account.password } });
  expect(login.status, `${account.email}: ${JSON.stringify(login.body)}`).toBe(200);
  const cookie = cookieOf(login.setCookie);
  // The profile is read from the account's events, opened with its key.
  const profile = await quern.call('POST', `/api/user/get/${account.id}`, { cookie });
  expect(profile.body).toMatchObject({ first_name: account.firstName, last_name: account.lastName, phone_number: account.phone });
  const email = await quern.call('POST', '/api/user/email/status', { cookie });
  expect(email.body).toMatchObject({ email: account.email });
}

/** Registrations and sign-ins against the running Quern until stopped. */
function startLoad(quern: TestQuern, newUser: () => NewUser, accounts: Account[]) {
  let running = true;
  const work = [0, 1].map(async (lane) => {
    while (running) {
      if (lane === 0) accounts.push(await register(quern, newUser()));
      else await expectReadable(quern, accounts[Math.floor(Math.random() * accounts.length)] as Account);
    }
  });
  return async () => {
    running = false;
    await Promise.all(work);
  };
}

async function rotateUnderLoad(quern: TestQuern, area: string, rotate: () => Promise<void>): Promise<Account[]> {
  const newUser = userFactory({ userPrefix: `rot${area}`, emailPrefix: `rot${area}`, area }).newUser;
  const accounts: Account[] = [];
  for (let i = 0; i < 6; i += 1) accounts.push(await register(quern, newUser()));
  const stop = startLoad(quern, newUser, accounts);
  await new Promise((r) => setTimeout(r, 300));
  await rotate();
  await new Promise((r) => setTimeout(r, 300));
  await stop();
  // The running Quern after the rotation: old and new accounts, and a new one.
  accounts.push(await register(quern, newUser()));
  for (const account of accounts) await expectReadable(quern, account);
  return accounts;
}

/** A second Quern on the same DATA_DIR with an empty Redis: its read models are rebuilt by opening every event. */
async function restartedOn(dataDir: string, extra: Record<string, string> = {}): Promise<TestQuern> {
  const redis = await startPrivateRedis();
  const quern = await startTestQuern({ ...env, DATA_DIR: dataDir, REDIS_URL: redis.url, ...extra });
  cleanups.push(
    () => redis.stop(),
    () => quern.stop(),
  );
  return quern;
}

describe('npm run rotate:personal-data-key under load', () => {
  it('with the key in DATA_DIR: every account readable during, after, and after a restart; the old key opens nothing', async () => {
    const quern = await startTestQuern(env);
    cleanups.push(() => quern.stop());
    const oldKey = parseMasterKey(readFileSync(join(quern.dataDir, 'personal-data-key'), 'utf8'));
    const accounts = await rotateUnderLoad(quern, '556', async () => {
      const run = await runCli('rotate-personal-data-key', [], { DATA_DIR: quern.dataDir });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/re-wrapped \d+ account keys from master key [0-9a-f]{16} to [0-9a-f]{16}/);
    });
    const newKey = parseMasterKey(readFileSync(join(quern.dataDir, 'personal-data-key'), 'utf8'));
    expect(masterKeyId(newKey)).not.toBe(masterKeyId(oldKey));

    const restarted = await restartedOn(quern.dataDir);
    for (const account of accounts) await expectReadable(restarted, account);
    expect(() => openKeyVault(join(quern.dataDir, KEY_VAULT_FILE), oldKey)).toThrow(/needs master key/);
  }, 300_000);

  it('with PERSONAL_DATA_KEY: the command takes NEW_PERSONAL_DATA_KEY, says what to change, and --finish retires the old key', async () => {
    const oldKey = randomBytes(32).toString('hex');
    const newKey = randomBytes(32).toString('hex');
    const quern = await startTestQuern({ ...env, PERSONAL_DATA_KEY: oldKey });
    cleanups.push(() => quern.stop());
    const refused = await runCli('rotate-personal-data-key', [], { DATA_DIR: quern.dataDir, PERSONAL_DATA_KEY: oldKey });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('No new master key was given');

    const accounts = await rotateUnderLoad(quern, '557', async () => {
      const run = await runCli('rotate-personal-data-key', [], {
        DATA_DIR: quern.dataDir,
        PERSONAL_DATA_KEY: oldKey,
        NEW_PERSONAL_DATA_KEY: newKey,
      });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('set PERSONAL_DATA_KEY to the value of NEW_PERSONAL_DATA_KEY');
      expect(run.stdout).toContain('--finish');
    });
    const restarted = await restartedOn(quern.dataDir, { PERSONAL_DATA_KEY: newKey });
    const finish = await runCli('rotate-personal-data-key', ['--finish'], { DATA_DIR: quern.dataDir, PERSONAL_DATA_KEY: newKey });
    expect(finish.code, finish.stdout + finish.stderr).toBe(0);
    expect(finish.stdout).toContain('the old key opens nothing');
    for (const account of accounts) await expectReadable(restarted, account);
    expect(() => openKeyVault(join(quern.dataDir, KEY_VAULT_FILE), Buffer.from(oldKey, 'hex'))).toThrow(/needs master key/);
    // What a process started with the old key meets: it refuses to start.
    expect(() => openEventStore({ dataDir: quern.dataDir, personalDataKey: oldKey })).toThrow(/needs master key/);
  }, 300_000);
});
