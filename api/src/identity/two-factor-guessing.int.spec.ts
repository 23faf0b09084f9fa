// Proves that a second factor cannot be guessed, over real HTTP, SQLite and Redis: a sign-in
// challenge works only for the client (cookie) and address that passed the password, it is void
// after 5 wrong codes, and wrong codes from all addresses together lock the account's codes (only
// a recovery code works then) and mail its owner once per lock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { outboxMails } from '../../test/outbox.js';
import { awayFromStepEnd, codeAt, from, registeredWithTwoFactor as enrolled } from '../../test/two-factor.js';
import { userFactory } from '../../test/users.js';

let quern: TestQuern;
const { newUser } = userFactory({ userPrefix: 'tg_', emailPrefix: 'tg', area: '559' });

const outbox = () => outboxMails(quern);

// The lock notice goes only to a proven address (ADR 046).
const registeredWithTwoFactor = (ip: string, registerHeaders: Record<string, string> = {}) =>
  enrolled(quern, newUser(), { ip, registerHeaders, verified: true });

/** The password step from an address: the challenge and the cookie it binds to this client. */
async function passwordStep(user: { email: string; password: string }, ip: string) {
  const step = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password }, headers: from(ip) });
  expect(step.body.two_factor_required).toBe(true);
  return { challenge: step.body.challenge as string, cookie: cookieOf(step.setCookie) };
}

const codeStep = (challenge: string, ip: string, cookie: string | undefined, second: { code: string } | { recovery_code: string }) =>
  quern.call('POST', '/api/user/login/two-factor', { body: { challenge, ...second }, headers: from(ip, cookie) });

beforeAll(async () => {
  quern = await startTestQuern({
    LOGIN_FREE_FAILURES: '50',
    LOGIN_FAILURES_PER_ACCOUNT: '1000',
    LOGIN_FAILURES_PER_IP: '1000',
    REGISTRATIONS_PER_IP_HOUR: '1000',
    TWO_FACTOR_FAILURES_PER_ACCOUNT: '8',
    TRUST_PROXY: 'loopback',
  });
});
afterAll(async () => {
  await quern?.stop();
});

describe('the sign-in challenge is bound to the client that passed the password', () => {
  it('given a challenge, when another client (no cookie) or another address sends the right code, then 401 and no session', async () => {
    const { user, secret } = await registeredWithTwoFactor('198.51.100.21');
    const { challenge, cookie } = await passwordStep(user, '198.51.100.21');
    await awayFromStepEnd();
    const noCookie = await codeStep(challenge, '198.51.100.21', undefined, { code: codeAt(secret, 0) });
    expect(noCookie).toMatchObject({ status: 401, body: { messageKey: 'errors:twoFactorChallengeInvalid' } });
    expect(noCookie.setCookie ?? '').not.toContain('quern_session');
    const otherAddress = await codeStep(challenge, '203.0.113.21', cookie, { code: codeAt(secret, 0) });
    expect(otherAddress.status).toBe(401);
    const otherClient = await passwordStep(user, '198.51.100.21');
    const swapped = await codeStep(challenge, '198.51.100.21', otherClient.cookie, { code: codeAt(secret, 0) });
    expect(swapped.status).toBe(401);

    const owner = await codeStep(challenge, '198.51.100.21', cookie, { code: codeAt(secret, 0) });
    expect(owner).toMatchObject({ status: 200, body: { email: user.email } });
    expect(cookie).toMatch(/^quern_two_factor=/);
  });

  it('given 5 wrong codes on one challenge, then the challenge is void, even for the right code', async () => {
    const { user, secret } = await registeredWithTwoFactor('198.51.100.22');
    const { challenge, cookie } = await passwordStep(user, '198.51.100.22');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await codeStep(challenge, '198.51.100.22', cookie, { code: codeAt(secret, 9) })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    await awayFromStepEnd();
    const right = await codeStep(challenge, '198.51.100.22', cookie, { code: codeAt(secret, 0) });
    expect(right).toMatchObject({ status: 401, body: { messageKey: 'errors:twoFactorChallengeInvalid' } });
    // A new password step gives a new challenge.
    const again = await passwordStep(user, '198.51.100.22');
    expect((await codeStep(again.challenge, '198.51.100.22', again.cookie, { code: codeAt(secret, 0) })).status).toBe(200);
  });
});

describe('wrong codes per account, from every address', () => {
  it('given the cap reached from several addresses, then codes are refused, a recovery code signs in, and the owner is mailed once', async () => {
    const { user, secret, recoveryCodes } = await registeredWithTwoFactor('198.51.100.23', { 'accept-language': 'es' });
    // Eight wrong codes from four addresses: fewer than 5 on each challenge, and each address is new.
    for (let a = 0; a < 4; a++) {
      const ip = `203.0.113.${30 + a}`;
      const { challenge, cookie } = await passwordStep(user, ip);
      for (let i = 0; i < 2; i++) expect((await codeStep(challenge, ip, cookie, { code: codeAt(secret, 9) })).status).toBe(400);
    }
    await awayFromStepEnd();
    const owner = await passwordStep(user, '198.51.100.23');
    const locked = await codeStep(owner.challenge, '198.51.100.23', owner.cookie, { code: codeAt(secret, 0) });
    expect(locked).toMatchObject({ status: 429, body: { messageKey: 'errors:twoFactorLocked' } });
    expect(locked.body.message).toContain('recovery code');
    // Still locked after more wrong tries, which mail nothing more.
    const more = await passwordStep(user, '203.0.113.40');
    expect((await codeStep(more.challenge, '203.0.113.40', more.cookie, { code: codeAt(secret, 9) })).status).toBe(429);

    const recovered = await codeStep(owner.challenge, '198.51.100.23', owner.cookie, { recovery_code: recoveryCodes[0] as string });
    expect(recovered).toMatchObject({ status: 200, body: { email: user.email } });

    const mails = await eventually(() => {
      const found = outbox().filter((m) => m.includes(user.email) && /Subject: .*(c=C3=B3digos|códigos)/.test(m));
      return found.length > 0 ? found : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(outbox().filter((m) => m.includes(user.email) && /Subject: .*(c=C3=B3digos|códigos)/.test(m))).toHaveLength(mails.length);
    expect(mails).toHaveLength(1);
  });
});
