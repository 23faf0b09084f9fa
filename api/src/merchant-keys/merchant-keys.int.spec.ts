// Proves the API Direct calls and bearer-key authentication over real HTTP: a generated key is
// shown once in full, key-get shows it masked, it authenticates GET /api/v1/me; generating again
// makes the old key answer 401 at once, deleting makes the new one 401 too; no key, a malformed
// header, an unknown key get 401; each call without a session is 401; the per-key limit answers
// 429 with Retry-After; and the log holds only the key's hash, never the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';

const LIMIT = 5;
let quern: TestQuern;
let registered = 0;

async function signedIn(name: string) {
  const user = {
    userName: name,
    firstName: 'K',
    lastName: 'Y',
    email: `${name}@example.com`,
    phone: `+1555000${String(++registered).padStart(4, '0')}`,
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  expect(login.status).toBe(200);
  return { cookie: cookieOf(login.setCookie), id: login.body.id as string };
}

const me = (key: string | undefined, headers: Record<string, string> = {}) =>
  quern.call('GET', '/api/v1/me', { headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...headers } });

beforeAll(async () => {
  quern = await startTestQuern({ API_KEY_REQUESTS_PER_MINUTE: String(LIMIT), REGISTRATIONS_PER_IP_HOUR: '1000' });
});
afterAll(async () => {
  await quern?.stop();
});

describe('API Direct key lifecycle', () => {
  it('generate → masked → authenticates → generate again → old key 401 → delete → 401', async () => {
    const merchant = await signedIn('key_owner');
    const cookie = merchant.cookie;
    const none = await quern.call('POST', '/api/direct/key-get', { cookie });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ status: 'success', content: { api_key: null } });

    const first = await quern.call('POST', '/api/direct/key-generate', { cookie });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('API key generated.');
    const key1 = first.body.content.api_key as string;
    expect(key1).toMatch(/^qk_test_[A-Za-z0-9_-]{43}$/);

    const masked = await quern.call('POST', '/api/direct/key-get', { cookie });
    expect(masked.body).toEqual({ status: 'success', content: { api_key: `qk_test_…${key1.slice(-4)}` } });

    const ok = await me(key1);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ id: merchant.id, username: 'key_owner', livemode: false });

    const second = await quern.call('POST', '/api/direct/key-generate', { cookie });
    const key2 = second.body.content.api_key as string;
    expect(key2).not.toBe(key1);
    expect((await me(key1)).status).toBe(401);
    expect((await me(key2)).status).toBe(200);

    const deleted = await quern.call('POST', '/api/direct/key-delete', { cookie });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ status: 'success', message: 'API key deleted.' });
    const gone = await me(key2);
    expect(gone.status).toBe(401);
    expect(gone.body.error).toMatchObject({
      type: 'authentication_error',
      code: 'invalid_api_key',
      message: expect.stringMatching(/API key/),
    });
    expect(gone.headers.get('www-authenticate')).toBe('Bearer realm="quern"');
    expect((await quern.call('POST', '/api/direct/key-get', { cookie })).body.content.api_key).toBeNull();

    // Deleting when there is no key is refused (the page shows 'Key removal failed.').
    expect((await quern.call('POST', '/api/direct/key-delete', { cookie })).status).toBe(404);

    // The log holds hashes and display parts only: neither key appears anywhere in it.
    const log = JSON.stringify(await quern.store.readAll({ maxCount: 10_000 }), (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    expect(log).toContain('ApiKeyRevoked');
    expect(log).not.toContain(key1.slice(8));
    expect(log).not.toContain(key2.slice(8));
  });

  it('two Generates at once leave exactly one working key, the one key-get shows', async () => {
    const { cookie } = await signedIn('key_race');
    const answers = await Promise.all([1, 2, 3].map(() => quern.call('POST', '/api/direct/key-generate', { cookie })));
    for (const answer of answers) expect(answer.status).toBe(200);
    const keys = answers.map((answer) => answer.body.content.api_key as string);
    const working = [];
    for (const key of keys) if ((await me(key)).status === 200) working.push(key);
    expect(working).toHaveLength(1);
    const masked = (await quern.call('POST', '/api/direct/key-get', { cookie })).body.content.api_key;
    expect(masked).toBe(`qk_test_…${working[0]?.slice(-4)}`);
  });

  it('answers in Spanish for a Spanish caller', async () => {
    const { cookie } = await signedIn('key_es');
    const generated = await quern.call('POST', '/api/direct/key-generate', { cookie, headers: { 'accept-language': 'es' } });
    expect(generated.body.message).toBe('Clave de API generada.');
  });

  it('one merchant cannot delete or see another merchant’s key', async () => {
    const a = await signedIn('key_a');
    const b = await signedIn('key_b');
    const keyA = (await quern.call('POST', '/api/direct/key-generate', { cookie: a.cookie })).body.content.api_key as string;
    expect((await quern.call('POST', '/api/direct/key-get', { cookie: b.cookie })).body.content.api_key).toBeNull();
    expect((await quern.call('POST', '/api/direct/key-delete', { cookie: b.cookie })).status).toBe(404);
    expect((await me(keyA)).body.id).toBe(a.id);
  });
});

describe('bearer authentication', () => {
  it.each([
    ['no Authorization header', {}],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer with no token', { authorization: 'Bearer ' }],
    ['a malformed key', { authorization: 'Bearer qk_live_short' }],
    ['an unknown well-formed key', { authorization: `Bearer qk_test_${'A'.repeat(43)}` }],
    ['two tokens', { authorization: `Bearer qk_test_${'A'.repeat(43)} extra` }],
  ])('%s: 401 with a message', async (_name, headers) => {
    const response = await me(undefined, headers);
    expect(response.status).toBe(401);
    expect(response.body.error).toEqual({ type: 'authentication_error', code: 'invalid_api_key', message: expect.stringMatching(/\S/) });
    expect(response.body.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('a session cookie alone does not authenticate /api/v1', async () => {
    const { cookie } = await signedIn('cookie_only');
    expect((await quern.call('GET', '/api/v1/me', { cookie })).status).toBe(401);
  });

  it('each API Direct call without a session is 401', async () => {
    for (const path of ['/api/direct/key-get', '/api/direct/key-generate', '/api/direct/key-delete']) {
      const response = await quern.call('POST', path);
      expect(response.status, path).toBe(401);
    }
    for (const path of ['direct.keyGenerate', 'direct.keyDelete']) {
      expect((await quern.call('POST', `/trpc/${path}`, { body: {} })).status, path).toBe(401);
    }
    expect((await quern.call('GET', '/trpc/direct.keyGet')).status).toBe(401);
  });

  it('a cross-site key change is refused like every other call (CSRF)', async () => {
    const { cookie } = await signedIn('csrf_key');
    const response = await quern.call('POST', '/api/direct/key-generate', { cookie, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(response.status).toBe(403);
    expect((await quern.call('POST', '/api/direct/key-get', { cookie })).body.content.api_key).toBeNull();
  });
});

describe('per-key rate limit', () => {
  it('after API_KEY_REQUESTS_PER_MINUTE calls a key gets 429 with Retry-After; another key is unaffected', async () => {
    const a = await signedIn('limit_a');
    const b = await signedIn('limit_b');
    const keyA = (await quern.call('POST', '/api/direct/key-generate', { cookie: a.cookie })).body.content.api_key as string;
    const keyB = (await quern.call('POST', '/api/direct/key-generate', { cookie: b.cookie })).body.content.api_key as string;
    for (let i = 0; i < LIMIT; i++) expect((await me(keyA)).status).toBe(200);
    const limited = await me(keyA);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await me(keyB)).status).toBe(200);
    // Wrong keys are not counted against anyone: they are refused before the limiter.
    expect((await me(`qk_test_${'B'.repeat(43)}`)).status).toBe(401);
  });
});
