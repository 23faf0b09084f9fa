// Proves two-factor sign-in over real HTTP, SQLite and Redis (ADR 040): enabling needs a valid
// code for the shown secret; with it on, the right password answers a challenge and creates no
// session; the code step signs in; a code and a recovery code each work once; wrong codes are
// throttled like wrong passwords; turning it off needs the password and a code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';
import { awayFromStepEnd, codeAt, from, registeredWithTwoFactor as enrolled } from '../../test/two-factor.js';
import { userFactory } from '../../test/users.js';

let quern: TestQuern;
const { newUser } = userFactory({ userPrefix: 'tf_', emailPrefix: 'tf', area: '556' });

const registeredWithTwoFactor = (ip: string) => enrolled(quern, newUser(), { ip });

const passwordStep = (user: { email: string; password: string }, ip: string) =>
  quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password }, headers: from(ip) });

beforeAll(async () => {
  quern = await startTestQuern({
    LOGIN_FREE_FAILURES: '5',
    LOGIN_FAILURES_PER_ACCOUNT: '100',
    REGISTRATIONS_PER_IP_HOUR: '1000',
    LOGIN_FAILURES_PER_IP: '1000',
    TRUST_PROXY: 'loopback',
  });
});
afterAll(async () => {
  await quern?.stop();
});

describe('enabling two-factor', () => {
  it('shows the secret, its otpauth URI and a QR code, and turns on only with a valid code', async () => {
    const user = newUser();
    await quern.call('POST', '/api/user/register', { body: user });
    const cookie = cookieOf((await passwordStep(user, '198.51.100.1')).setCookie);
    const started = await quern.call('POST', '/api/user/two-factor/start', { cookie });
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauth_uri).toContain(`secret=${started.body.secret}`);
    expect(started.body.qr_svg).toMatch(/^<svg/);

    const wrong = await quern.call('POST', '/api/user/two-factor/confirm', {
      cookie,
      body: { enrollment_id: started.body.enrollment_id, code: codeAt(started.body.secret, 5) },
    });
    expect(wrong).toMatchObject({ status: 400, body: { message: expect.stringContaining('not valid') } });
    expect((await quern.call('POST', '/api/user/two-factor/status', { cookie })).body).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    // Still off: the password alone signs in.
    expect((await passwordStep(user, '198.51.100.1')).body).toMatchObject({ email: user.email });
  });

  it('given two-factor on, then the status says so, ten recovery codes were shown and only hashes were recorded', async () => {
    const { cookie, recoveryCodes } = await registeredWithTwoFactor('198.51.100.2');
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await quern.call('POST', '/api/user/two-factor/status', { cookie })).body).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    const session = await quern.call('POST', '/api/auth/verify', { cookie });
    const events = await quern.store.readStream(`user-${session.body.id}`);
    const enabled = events.find((e) => e.type === 'TwoFactorEnabledV2');
    expect(JSON.stringify(enabled?.data)).not.toContain(recoveryCodes[0]);
  });

  it('refuses the calls to a visitor', async () => {
    expect((await quern.call('POST', '/api/user/two-factor/start')).status).toBe(401);
  });
});

describe('signing in with two-factor on', () => {
  it('given the right password, then it answers a challenge and no session; the code then signs in, once', async () => {
    const { user, secret } = await registeredWithTwoFactor('198.51.100.3');
    const step = await passwordStep(user, '198.51.100.3');
    expect(step.status).toBe(200);
    expect(step.body).toEqual({ two_factor_required: true, challenge: expect.any(String) });
    // Only the cookie binding the challenge to this client, no session (ADR 045).
    expect(step.setCookie).toMatch(/^quern_two_factor=/);
    expect(step.setCookie).not.toContain('quern_session');

    await awayFromStepEnd();
    const code = codeAt(secret, 0);
    const signedIn = await quern.call('POST', '/api/user/login/two-factor', {
      body: { challenge: step.body.challenge, code },
      headers: from('198.51.100.3', cookieOf(step.setCookie)),
    });
    expect(signedIn).toMatchObject({ status: 200, body: { email: user.email } });
    const verify = await quern.call('POST', '/api/auth/verify', { cookie: cookieOf(signedIn.setCookie) });
    expect(verify.status).toBe(200);

    const replay = await quern.call('POST', '/api/user/login/two-factor', {
      body: { challenge: step.body.challenge, code },
      headers: from('198.51.100.3', cookieOf(step.setCookie)),
    });
    expect(replay.status).toBe(400);
    expect(replay.setCookie).toBeNull();
  });

  it('given a recovery code, then it signs in once and never again', async () => {
    const { user, recoveryCodes } = await registeredWithTwoFactor('198.51.100.4');
    const step = await passwordStep(user, '198.51.100.4');
    const { challenge } = step.body;
    const first = await quern.call('POST', '/api/user/login/two-factor', {
      body: { challenge, recovery_code: recoveryCodes[2]?.toLowerCase() },
      headers: from('198.51.100.4', cookieOf(step.setCookie)),
    });
    expect(first.status).toBe(200);
    const again = await quern.call('POST', '/api/user/login/two-factor', {
      body: { challenge, recovery_code: recoveryCodes[2] },
      headers: from('198.51.100.4', cookieOf(step.setCookie)),
    });
    expect(again).toMatchObject({ status: 400, body: { message: expect.stringContaining('already used') } });
  });

  it('given wrong codes from one address, then it must wait like after wrong passwords, and another address need not', async () => {
    const { user, secret } = await registeredWithTwoFactor('198.51.100.5');
    const step = await passwordStep(user, '203.0.113.5');
    const { challenge } = step.body;
    const cookie = cookieOf(step.setCookie);
    const wrong = () =>
      quern.call('POST', '/api/user/login/two-factor', {
        body: { challenge, code: codeAt(secret, 9) },
        headers: from('203.0.113.5', cookie),
      });
    // The password step counted one try of the pair: four wrong codes use the rest of the free five.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await wrong()).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const right = await quern.call('POST', '/api/user/login/two-factor', {
      body: { challenge, code: codeAt(secret, 1) },
      headers: from('203.0.113.5', cookie),
    });
    expect(right.status).toBe(429);
    expect(right.headers.get('retry-after')).toBe('60');
    await awayFromStepEnd();
    const stepElsewhere = await passwordStep(user, '203.0.113.6');
    const elsewhere = await quern.call('POST', '/api/user/login/two-factor', {
      body: { challenge: stepElsewhere.body.challenge, code: codeAt(secret, 1) },
      headers: from('203.0.113.6', cookieOf(stepElsewhere.setCookie)),
    });
    expect(elsewhere.status).toBe(200);
  });

  it('refuses a forged or altered challenge', async () => {
    const { user, secret } = await registeredWithTwoFactor('198.51.100.6');
    const step = await passwordStep(user, '198.51.100.6');
    const { challenge } = step.body as { challenge: string };
    const [userId, challengeId, expiresAt, mac] = challenge.split('.');
    for (const forged of [`${userId}.${challengeId}.${Number(expiresAt) + 1}.${mac}`, 'w.x.y.z', 'nonsense']) {
      const answer = await quern.call('POST', '/api/user/login/two-factor', {
        body: { challenge: forged, code: codeAt(secret, 0) },
        headers: from('198.51.100.6', cookieOf(step.setCookie)),
      });
      expect(answer.status).toBe(401);
      expect(answer.setCookie).toBeNull();
    }
  });
});

describe('turning two-factor off', () => {
  it('needs the password and a code; then the password alone signs in again', async () => {
    const { user, cookie, secret } = await registeredWithTwoFactor('198.51.100.7');
    await awayFromStepEnd();
    const noPassword = await quern.call('POST', '/api/user/two-factor/disable', {
      cookie,
      body: { password: 'not the password', code: codeAt(secret, 0) },
      headers: from('198.51.100.7'),
    });
    expect(noPassword.status).toBe(400);
    const noCode = await quern.call('POST', '/api/user/two-factor/disable', {
      cookie,
      body: { password: user.password, code: codeAt(secret, 7) },
      headers: from('198.51.100.7'),
    });
    expect(noCode.status).toBe(400);
    expect((await passwordStep(user, '198.51.100.7')).body.two_factor_required).toBe(true);

    const off = await quern.call('POST', '/api/user/two-factor/disable', {
      cookie,
      body: { password: user.password, code: codeAt(secret, 0) },
      headers: from('198.51.100.7'),
    });
    expect(off).toMatchObject({ status: 200, body: { success: true } });
    const plain = await passwordStep(user, '198.51.100.7');
    expect(plain.body).toMatchObject({ email: user.email });
    expect(plain.setCookie).not.toBeNull();
  });
});
