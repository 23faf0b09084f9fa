// Proves step-up re-authentication over real HTTP, SQLite and Redis (ADR 045): a session whose
// password was last given more than 10 minutes ago cannot create or delete an API key or add a
// webhook endpoint, with a typed refusal; giving the password again (or a two-factor code when it
// is on) lets it; a wrong password is refused and throttled like a sign-in.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';

let quern: TestQuern;
let redis: Redis;
let counter = 0;

const newUser = () => {
  counter += 1;
  const n = `${Date.now() % 100000}${counter}`;
  return {
    userName: `ra_${n}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ra${n}@example.com`,
    phone: `+1554${n.padStart(7, '0').slice(-7)}`,
    password: 'correct horse battery',
  };
};

const from = (ip: string) => ({ 'x-forwarded-for': ip });

async function signedIn(ip = '198.51.100.60') {
  const user = newUser();
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password }, headers: from(ip) });
  return { user, cookie: cookieOf(login.setCookie) };
}

/** Makes the session's last proof of the password `minutes` old, as if the clock had moved on. */
async function ageSession(cookie: string, minutes: number) {
  const token = cookie.split('=')[1] as string;
  const key = `session:${createHash('sha256').update(token).digest('hex')}`;
  const session = JSON.parse((await redis.get(key)) as string) as Record<string, string>;
  const then = new Date(Date.now() - minutes * 60_000).toISOString();
  await redis.set(key, JSON.stringify({ ...session, createdAt: then, authenticatedAt: then }), 'KEEPTTL');
}

const keyGenerate = (cookie: string) => quern.call('POST', '/api/direct/key-generate', { cookie });
const keyDelete = (cookie: string) => quern.call('POST', '/api/direct/key-delete', { cookie });
const addEndpoint = (cookie: string) =>
  quern.call('POST', '/trpc/webhooks.create', { cookie, body: { url: 'http://127.0.0.1:9/hooks/quern' }, headers: { origin: quern.url } });
const reauthenticate = (cookie: string, body: unknown, ip = '198.51.100.60') =>
  quern.call('POST', '/api/user/reauthenticate', { cookie, body, headers: from(ip) });

beforeAll(async () => {
  quern = await startTestQuern({
    LOGIN_FREE_FAILURES: '3',
    REGISTRATIONS_PER_IP_HOUR: '1000',
    TRUST_PROXY: 'loopback',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  redis = new Redis(quern.redisUrl);
});
afterAll(async () => {
  redis?.disconnect();
  await quern?.stop();
});

describe('step-up re-authentication', () => {
  it('given a session whose password is 11 minutes old, then key and endpoint creation are refused until the password is given', async () => {
    const { user, cookie } = await signedIn();
    expect((await keyGenerate(cookie)).status).toBe(200);
    const keyGet = async () => (await quern.call('POST', '/api/direct/key-get', { cookie })).body.content.api_key as string;
    const keyBefore = await keyGet();
    await ageSession(cookie, 11);

    const refused = await keyGenerate(cookie);
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'REAUTHENTICATION_REQUIRED', messageKey: 'errors:reauthenticationRequired' },
    });
    expect((await keyDelete(cookie)).body.code).toBe('REAUTHENTICATION_REQUIRED');
    const endpoint = await addEndpoint(cookie);
    expect(endpoint.status).toBe(403);
    expect(endpoint.body.error.data.appError.code).toBe('REAUTHENTICATION_REQUIRED');
    // The key made before is still the one on record: nothing changed.
    expect(await keyGet()).toBe(keyBefore);
    expect((await quern.call('POST', '/trpc/webhooks.list', { cookie, headers: { origin: quern.url } })).status).not.toBe(500);

    expect(await reauthenticate(cookie, { password: user.password })).toMatchObject({ status: 200, body: { success: true } });
    expect((await keyGenerate(cookie)).status).toBe(200);
    const added = await addEndpoint(cookie);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((await keyDelete(cookie)).status).toBe(200);
  });

  it('given a session 9 minutes after its password, then it needs nothing more', async () => {
    const { cookie } = await signedIn();
    await ageSession(cookie, 9);
    expect((await keyGenerate(cookie)).status).toBe(200);
  });

  it('given wrong passwords, then each is refused, the next ones wait like at sign-in, and the calls stay refused', async () => {
    const { user, cookie } = await signedIn('198.51.100.61');
    await ageSession(cookie, 30);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await reauthenticate(cookie, { password: 'not the password' }, '198.51.100.61')).status);
    // Three free failures (LOGIN_FREE_FAILURES), then the pair waits, even with the right password.
    expect(statuses).toEqual([400, 400, 400]);
    const waiting = await reauthenticate(cookie, { password: user.password }, '198.51.100.61');
    expect(waiting.status).toBe(429);
    expect((await keyGenerate(cookie)).body.code).toBe('REAUTHENTICATION_REQUIRED');
  });

  it('refuses a visitor and malformed input', async () => {
    expect((await reauthenticate('', { password: 'x' })).status).toBe(401);
    const { cookie } = await signedIn();
    expect((await reauthenticate(cookie, {})).status).toBe(400);
    expect((await reauthenticate(cookie, { password: 'x', code: '123456' })).status).toBe(400);
  });

  it('given two-factor on, then a fresh code re-authenticates too', async () => {
    const { cookie } = await signedIn('198.51.100.62');
    const started = await quern.call('POST', '/api/user/two-factor/start', { cookie });
    const secret = started.body.secret as string;
    const codeAt = (offset: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + offset * 30_000 });
    const intoStep = Date.now() % 30_000;
    if (intoStep > 28_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoStep + 100));
    await quern.call('POST', '/api/user/two-factor/confirm', {
      cookie,
      body: { enrollment_id: started.body.enrollment_id, code: codeAt(-1) },
    });
    await ageSession(cookie, 11);
    expect((await keyGenerate(cookie)).status).toBe(403);
    expect((await reauthenticate(cookie, { code: codeAt(5) }, '198.51.100.62')).status).toBe(400);
    expect((await reauthenticate(cookie, { code: codeAt(0) }, '198.51.100.62')).status).toBe(200);
    expect((await keyGenerate(cookie)).status).toBe(200);
  });
});
