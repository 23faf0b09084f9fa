// Proves that recovery codes resist someone who reads the log, over real HTTP, SQLite and Redis:
// each new code carries at least 80 random bits, the log keeps them only as argon2id hashes sealed
// with the account's key, and codes recorded in the earlier shape (SHA-256, in the clear) keep
// working once each until two-factor is turned on again with new codes.
import { createHash } from 'node:crypto';
import { TOTP } from 'otpauth';
import { openRawEventStore } from '@quern/adapters/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';
import { awayFromStepEnd, codeAt, confirmTwoFactor, startTwoFactor } from '../../test/two-factor.js';
import { userFactory } from '../../test/users.js';

let quern: TestQuern;
const { newUser } = userFactory({ userPrefix: 'rc_', emailPrefix: 'rc', area: '558' });

async function registeredAndStarted() {
  const user = newUser();
  const registered = await quern.call('POST', '/api/user/register', { body: user });
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  return { user, id: registered.body.id as string, ...(await startTwoFactor(quern, cookieOf(login.setCookie))) };
}

/** The password step and then a recovery code, as a client would send them. */
async function signInWithRecoveryCode(user: { email: string; password: string }, recoveryCode: string) {
  const step = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  expect(step.body.two_factor_required).toBe(true);
  return quern.call('POST', '/api/user/login/two-factor', {
    body: { challenge: step.body.challenge, recovery_code: recoveryCode },
    headers: { cookie: cookieOf(step.setCookie) },
  });
}

const rawUserEvents = async (id: string) => {
  const raw = openRawEventStore({ dataDir: quern.dataDir });
  try {
    return await raw.readStream(`user-${id}`);
  } finally {
    await raw.close();
  }
};

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', LOGIN_FAILURES_PER_IP: '1000', LOGIN_FAILURES_PER_ACCOUNT: '1000' });
});
afterAll(async () => {
  await quern?.stop();
});

describe('recovery codes', () => {
  it('given two-factor turned on, then each code has 80 random bits in typeable base32 groups', async () => {
    const codes = await confirmTwoFactor(quern, await registeredAndStarted());
    expect(codes).toHaveLength(10);
    for (const code of codes) {
      // 5 groups of 4 base32 characters: the first group names the code, the other 16 (80 bits) are its secret.
      expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/);
    }
    expect(new Set(codes.map((c) => c.slice(0, 4))).size).toBe(10);
  });

  it('given two-factor turned on, then the log holds the codes sealed, and opened they are salted argon2id hashes', async () => {
    const account = await registeredAndStarted();
    const codes = await confirmTwoFactor(quern, account);
    const fastHashes = codes.map((c) => createHash('sha256').update(c.replace(/-/g, '').toLowerCase()).digest('hex'));
    const rawEvents = await rawUserEvents(account.id);
    const raw = JSON.stringify(rawEvents.map((e) => e.data));
    for (const [i, code] of codes.entries()) {
      expect(raw).not.toContain(code.replace(/-/g, '').slice(4));
      expect(raw).not.toContain(fastHashes[i]);
    }
    const rawEnabled = rawEvents.find((e) => e.type === 'TwoFactorEnabledV2');
    expect(rawEnabled?.data.recoveryCodes).toMatch(/^sealed:v1:/);
    const opened = (await quern.store.readStream(`user-${account.id}`)).find((e) => e.type === 'TwoFactorEnabledV2');
    const recorded = JSON.stringify(opened?.data);
    expect(recorded.match(/\$argon2id\$/g) ?? []).toHaveLength(10);

    // The code signs in once, typed in lower case and without dashes; then never again.
    const typed = (codes[4] as string).replace(/-/g, '').toLowerCase();
    expect((await signInWithRecoveryCode(account.user, typed)).status).toBe(200);
    expect(await signInWithRecoveryCode(account.user, codes[4] as string)).toMatchObject({
      status: 400,
      body: { messageKey: 'errors:recoveryCodeInvalid' },
    });
    // A right name with a wrong secret is refused too.
    const forged = `${(codes[5] as string).slice(0, 5)}AAAA-AAAA-AAAA-AAAA`;
    expect((await signInWithRecoveryCode(account.user, forged)).status).toBe(400);
  });

  it('given codes recorded in the earlier shape, then each still works once, until two-factor is turned on again', async () => {
    const account = await registeredAndStarted();
    const legacyCodes = ['0a1b2-c3d4e', 'f5061-72839'];
    const legacyHash = (code: string) => createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');
    await awayFromStepEnd();
    const step = TOTP.counter({ period: 30, timestamp: Date.now() }) - 2;
    await quern.store.append(
      `user-${account.id}`,
      [
        {
          type: 'TwoFactorEnabled',
          data: {
            userId: account.id,
            enrollmentId: account.enrollmentId,
            recoveryCodeHashes: legacyCodes.map(legacyHash),
            usedStep: step,
            enabledAt: new Date().toISOString(),
          },
        },
      ],
      'any',
    );
    expect((await quern.call('POST', '/api/user/two-factor/status', { cookie: account.cookie })).body).toEqual({
      enabled: true,
      recoveryCodesLeft: 2,
    });
    expect((await signInWithRecoveryCode(account.user, legacyCodes[0] as string)).status).toBe(200);
    expect((await signInWithRecoveryCode(account.user, legacyCodes[0] as string)).status).toBe(400);

    // Turned off and on again: new codes, and the old one left stops working.
    const off = await quern.call('POST', '/api/user/two-factor/disable', {
      cookie: account.cookie,
      body: { password: account.user.password, code: codeAt(account.secret, 0) },
    });
    expect(off.status).toBe(200);
    const fresh = await confirmTwoFactor(quern, await startTwoFactor(quern, account.cookie), 1);
    expect((await signInWithRecoveryCode(account.user, legacyCodes[1] as string)).status).toBe(400);
    expect((await signInWithRecoveryCode(account.user, fresh[0] as string)).status).toBe(200);
  });
});
