// Proves the identity slice end to end over real HTTP, SQLite and Redis: the spec's REST calls,
// their error messages, uniqueness under concurrency, sessions, rate limits, CSRF defence, the
// welcome and reset e-mails, the password policy, sign-in throttling per account and address
// (behind a trusted proxy), API cache headers, and that no input produces a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMails } from '../../test/outbox.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { userFactory } from '../../test/users.js';

let quern: TestQuern;
const { newUser, count } = userFactory({ userPrefix: 'user_', emailPrefix: 'ada', area: '555' });

async function registerAndLogin(user = newUser()) {
  const registered = await quern.call('POST', '/api/user/register', { body: user });
  expect(registered.status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  expect(login.status).toBe(200);
  return { user, id: registered.body.id as string, cookie: cookieOf(login.setCookie) };
}

const outbox = () => outboxMails(quern);

/** The token of the reset link mailed to an address (the outbox's quoted-printable undone). */
async function resetTokenMailedTo(email: string): Promise<string> {
  const mail = await eventually(() => outbox().find((m) => m.includes(email) && m.includes('password-reset-verify')));
  const token = decodeURIComponent(
    /password-reset-verify\?t=3D([^\s"<]+)|password-reset-verify\?t=([^\s"<]+)/
      .exec(mail.replace(/=\r?\n/g, ''))
      ?.slice(1)
      .find(Boolean) ?? '',
  );
  expect(token.length).toBeGreaterThan(20);
  return token;
}

const resetRequestsIn = async (userId: string) =>
  (await quern.store.readStream(`user-${userId}`)).filter((e) => e.type === 'PasswordResetRequested').length;

beforeAll(async () => {
  quern = await startTestQuern({
    LOGIN_FREE_FAILURES: '5',
    LOGIN_FAILURES_PER_ACCOUNT: '8',
    REGISTRATIONS_PER_IP_HOUR: '1000',
    LOGIN_FAILURES_PER_IP: '1000',
    TRUST_PROXY: 'loopback',
  });
});
afterAll(async () => {
  await quern?.stop();
});

describe('registration', () => {
  it('registers, answers id and e-mail, and the account can sign in', async () => {
    const { user, id, cookie } = await registerAndLogin();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const verify = await quern.call('POST', '/api/auth/verify', { cookie });
    expect(verify).toMatchObject({ status: 200, body: { id, email: user.email } });
  });

  it('gives the spec messages for missing fields and a bad username, and changes nothing', async () => {
    const missing = await quern.call('POST', '/api/user/register', { body: { ...newUser(), lastName: '' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('All fields are required');
    expect(missing.body.fieldMessages.lastName).toBe('All fields are required');
    const user = { ...newUser(), userName: 'bad name!' };
    const bad = await quern.call('POST', '/api/user/register', { body: user });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      'Invalid username format. Please use combination of numbers, letters and underscore with no space in between.',
    );
    const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(401);
  });

  it('answers in Spanish when the caller asks for it', async () => {
    const missing = await quern.call('POST', '/api/user/register', { body: {}, headers: { 'accept-language': 'es-ES,es;q=0.9' } });
    expect(missing.body.message).toBe('Todos los campos son obligatorios');
  });

  it.each([
    ['userName', 'This username is already taken.'],
    ['email', 'An account with this e-mail already exists.'],
    ['phone', 'An account with this phone number already exists.'],
  ] as const)('refuses a taken %s with a 409 naming the field', async (field, message) => {
    const first = newUser();
    expect((await quern.call('POST', '/api/user/register', { body: first })).status).toBe(200);
    const taken = { ...newUser(), [field]: field === 'userName' ? first.userName.toUpperCase() : first[field] };
    const second = await quern.call('POST', '/api/user/register', { body: taken });
    expect(second.status).toBe(409);
    expect(second.body.fieldMessages[field]).toBe(message);
  });

  it('releases the keys of a refused registration so they can be used again', async () => {
    const first = newUser();
    await quern.call('POST', '/api/user/register', { body: first });
    const blocked = { ...newUser(), phone: first.phone };
    expect((await quern.call('POST', '/api/user/register', { body: blocked })).status).toBe(409);
    const retry = await quern.call('POST', '/api/user/register', { body: { ...blocked, phone: newUser().phone } });
    expect(retry.status).toBe(200);
  });

  it('lets exactly one of 20 concurrent registrations of one username win', async () => {
    const userName = newUser().userName;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => quern.call('POST', '/api/user/register', { body: { ...newUser(), userName } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });

  it('sends a welcome e-mail (to the outbox without SMTP)', async () => {
    const { user } = await registerAndLogin();
    const mail = await eventually(() => outbox().find((m) => m.includes(user.email)));
    expect(mail).toMatch(/^Subject: .*Quern/m);
  });
});

describe('sessions', () => {
  it('sets an httpOnly SameSite cookie and ends the session on logout', async () => {
    const user = newUser();
    await quern.call('POST', '/api/user/register', { body: user });
    const login = await quern.call('POST', '/api/user/login', { body: { email: user.email.toUpperCase(), password: user.password } });
    expect(login.setCookie).toMatch(/HttpOnly/i);
    expect(login.setCookie).toMatch(/SameSite=Lax/i);
    const cookie = cookieOf(login.setCookie);
    expect((await quern.call('POST', '/api/user/logout', { cookie })).status).toBe(200);
    expect((await quern.call('POST', '/api/auth/verify', { cookie })).status).toBe(401);
  });

  it('returns only the caller’s own user record', async () => {
    const a = await registerAndLogin();
    const b = await registerAndLogin();
    const own = await quern.call('POST', `/api/user/get/${a.id}`, { cookie: a.cookie });
    expect(own).toMatchObject({
      status: 200,
      body: { username: a.user.userName, first_name: 'Ada', last_name: 'Lovelace', phone_number: a.user.phone },
    });
    expect((await quern.call('POST', `/api/user/get/${b.id}`, { cookie: a.cookie })).status).toBe(403);
    expect((await quern.call('POST', `/api/user/get/${a.id}`)).status).toBe(401);
    expect((await quern.call('POST', '/api/user/get/not-a-uuid', { cookie: a.cookie })).status).toBe(400);
  });

  it('refuses a wrong password with 401, then makes that address wait, while the owner at another address signs in', async () => {
    const { user } = await registerAndLogin();
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < 5; i++) {
      const wrong = await quern.call('POST', '/api/user/login', {
        body: { email: user.email, password: 'wrong password' },
        headers: from('198.51.100.7'),
      });
      expect(wrong.status).toBe(401);
    }
    // The address that failed must now wait, even with the right password.
    const waiting = await quern.call('POST', '/api/user/login', {
      body: { email: user.email, password: user.password },
      headers: from('198.51.100.7'),
    });
    expect(waiting.status).toBe(429);
    expect(waiting.body.message).toBe('Too many failed sign-in attempts. Please try again in 1 minutes.');
    expect(waiting.headers.get('retry-after')).toBe('60');
    // The owner, from their own address, is not locked out.
    const owner = await quern.call('POST', '/api/user/login', {
      body: { email: user.email, password: user.password },
      headers: from('203.0.113.20'),
    });
    expect(owner.status).toBe(200);
  });

  it('given an account failing from many addresses, then each new address gets one try before waiting, and the owner still gets in', async () => {
    const { user } = await registerAndLogin();
    const attempt = (ip: string, password: string) =>
      quern.call('POST', '/api/user/login', { body: { email: user.email, password }, headers: { 'x-forwarded-for': ip } });
    // A botnet: 8 addresses, one wrong password each, puts the account over its ceiling.
    for (let i = 1; i <= 8; i++) expect((await attempt(`192.0.2.${i}`, 'wrong password')).status).toBe(401);
    // Under attack, a fresh address gets exactly one try before it must wait.
    expect((await attempt('192.0.2.50', 'wrong password')).status).toBe(401);
    expect((await attempt('192.0.2.50', 'wrong password')).status).toBe(429);
    // The owner from yet another address signs in with the right password.
    expect((await attempt('203.0.113.99', user.password)).status).toBe(200);
  });
});

describe('client address', () => {
  it('given TRUST_PROXY off (the default), when X-Forwarded-For changes, then the limits still see one address', async () => {
    const direct = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
    try {
      const user = newUser();
      expect((await direct.call('POST', '/api/user/register', { body: user })).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await direct.call('POST', '/api/user/login', {
          body: { email: user.email, password: 'wrong password' },
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      await direct.stop();
    }
  });
});

describe('password reset', () => {
  it('mails a one-time link that sets a new password and ends old sessions', async () => {
    const { user, cookie } = await registerAndLogin();
    expect((await quern.call('POST', '/api/user/password/reset', { body: { email: user.email } })).status).toBe(200);
    const token = await resetTokenMailedTo(user.email);
    const confirm = await quern.call('POST', '/api/user/password/reset-verify/', {
      body: { token, password: 'brand new secret', password1: 'brand new secret' },
    });
    expect(confirm.status).toBe(200);
    expect((await quern.call('POST', '/api/auth/verify', { cookie })).status).toBe(401);
    expect((await quern.call('POST', '/api/user/login', { body: { email: user.email, password: 'brand new secret' } })).status).toBe(200);
    const reuse = await quern.call('POST', '/api/user/password/reset-verify/', {
      body: { token, password: 'third secret!', password1: 'third secret!' },
    });
    expect(reuse.status).toBe(400);
  });

  it('answers the same for an unknown e-mail, and refuses forged tokens and mismatches', async () => {
    expect((await quern.call('POST', '/api/user/password/reset', { body: { email: 'nobody@example.com' } })).status).toBe(200);
    const forged = await quern.call('POST', '/api/user/password/reset-verify/', {
      body: { token: 'a.b.c', password: 'abcdefghij', password1: 'abcdefghij' },
    });
    expect(forged.status).toBe(400);
    const mismatch = await quern.call('POST', '/api/user/password/reset-verify/', {
      body: { token: 'a.b.c', password: 'abcdefghij', password1: 'abcdefghik' },
    });
    expect(mismatch.body.message).toBe('Both password must match.');
  });
});

describe('password policy', () => {
  it.each([
    ['en', 'qwertyuiop', 'This password is too common and easy to guess. Please choose another one.'],
    ['es', 'Password123', 'Esta contraseña es demasiado común y fácil de adivinar. Elija otra.'],
    ['en', '          ', 'Password cannot be only spaces.'],
  ])('refuses a registration (%s) with the password %j and registers nothing', async (language, password, message) => {
    const user = { ...newUser(), password };
    const refused = await quern.call('POST', '/api/user/register', { body: user, headers: { 'accept-language': language } });
    expect(refused.status).toBe(400);
    expect(refused.body.fieldMessages.password).toBe(message);
    expect((await quern.call('POST', '/api/user/register', { body: { ...user, password: 'correct horse battery' } })).status).toBe(200);
  });

  it('refuses a registration whose password is its own e-mail', async () => {
    const user = newUser();
    const refused = await quern.call('POST', '/api/user/register', { body: { ...user, password: user.email.toUpperCase() } });
    expect(refused.status).toBe(400);
    expect(refused.body.fieldMessages.password).toBe('Password cannot be your username or e-mail address.');
  });

  it('refuses a common password or the own username on reset, and the link still works for a good one', async () => {
    const user = { ...newUser(), userName: `longname_${count()}_x` };
    const { id } = await registerAndLogin(user).then((r) => ({ id: r.id }));
    expect(id).toBeTruthy();
    await quern.call('POST', '/api/user/password/reset', { body: { email: user.email }, headers: { 'x-forwarded-for': '198.51.100.201' } });
    const token = await resetTokenMailedTo(user.email);
    const reset = (password: string) =>
      quern.call('POST', '/api/user/password/reset-verify/', { body: { token, password, password1: password } });
    const common = await reset('iloveyou1');
    expect(common.status).toBe(400);
    expect(common.body.message).toBe('This password is too common and easy to guess. Please choose another one.');
    const own = await reset(user.userName);
    expect(own.body.message).toBe('Password cannot be your username or e-mail address.');
    expect((await reset('a much better secret')).status).toBe(200);
  });
});

describe('password reset limits', () => {
  it('records at most 3 reset requests per account per hour, answering every one the same', async () => {
    const { user, id } = await registerAndLogin();
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const r = await quern.call('POST', '/api/user/password/reset', {
        body: { email: user.email },
        headers: { 'x-forwarded-for': `198.51.100.${210 + i}` },
      });
      answers.push({ status: r.status, body: r.body });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({ status: 200, body: { success: true } });
    expect(await resetRequestsIn(id)).toBe(3);
  });

  it('answers a known and an unknown e-mail with the same status and body (and prints their timing)', async () => {
    const { user } = await registerAndLogin();
    const timed = async (email: string, ip: string) => {
      const started = performance.now();
      const r = await quern.call('POST', '/api/user/password/reset', { body: { email }, headers: { 'x-forwarded-for': ip } });
      return { status: r.status, body: r.body, ms: performance.now() - started };
    };
    const known = [];
    const unknown = [];
    for (let i = 0; i < 3; i++) {
      known.push(await timed(user.email, `198.51.100.${220 + i}`));
      unknown.push(await timed(`nobody${i}_${count()}@example.com`, `198.51.100.${230 + i}`));
    }
    for (const answer of [...known, ...unknown])
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { success: true } });
    const median = (xs: { ms: number }[]) =>
      xs
        .map((x) => x.ms)
        .sort((a, b) => a - b)[1]
        ?.toFixed(1);
    console.log(`[reset timing] known e-mail median ${median(known)} ms, unknown e-mail median ${median(unknown)} ms`);
  });
});

describe('defences', () => {
  it('refuses cross-site state changes but keeps same-origin browser calls working', async () => {
    const user = newUser();
    const crossSite = await quern.call('POST', '/api/user/register', { body: user, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const evilOrigin = await quern.call('POST', '/api/user/register', { body: user, headers: { origin: 'https://evil.example' } });
    expect(evilOrigin.status).toBe(403);
    const sameOrigin = await quern.call('POST', '/api/user/register', {
      body: user,
      headers: { 'sec-fetch-site': 'same-origin', origin: quern.url },
    });
    expect(sameOrigin.status).toBe(200);
  });

  it.each([
    ['malformed JSON', '{"userName":'],
    ['an array', '[1,2,3]'],
    ['wrong types', JSON.stringify({ userName: 5, firstName: {}, lastName: [], email: true, phone: null, password: 1 })],
    ['a huge body', JSON.stringify({ userName: 'x'.repeat(100_000) })],
  ])('answers %s with a 4xx, never a 5xx', async (_name, body) => {
    for (const path of ['/api/user/register', '/api/user/login', '/api/user/password/reset', '/api/user/password/reset-verify/']) {
      const response = await quern.call('POST', path, { body });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
  });

  it('marks API answers (REST and tRPC) no-store and varying by cookie, and sends no HSTS on plain http', async () => {
    for (const path of ['/api/millix/current-rate', '/api/auth/verify', '/trpc/identity.session', '/api/no-such-call']) {
      const response = await quern.call(path === '/api/auth/verify' ? 'POST' : 'GET', path);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('vary')).toMatch(/\bCookie\b/i);
      expect(response.headers.get('strict-transport-security')).toBeNull();
      expect(response.headers.get('content-security-policy')).not.toMatch(/upgrade-insecure-requests/);
    }
  });

  it('reports health only when every part is up', async () => {
    const health = await eventually(async () => {
      const r = await quern.call('GET', '/healthz');
      return r.status === 200 ? r : undefined;
    });
    expect(health.body.mode).toBe('sandbox');
    expect(health.body.checks).toMatchObject({
      eventStore: { ok: true },
      redis: { ok: true },
      projections: { ok: true },
      workers: { ok: true },
      dispatcher: { ok: true },
      deposits: { ok: true },
    });
    // A client from outside (here: forwarded by a proxy) learns whether Quern is up and its mode, nothing more.
    const outside = await quern.call('GET', '/healthz', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(outside.status).toBe(200);
    expect(outside.body).toEqual({ ok: true, mode: 'sandbox' });
  });
});
