// Proves that a page served from a loopback origin is trusted for cookie-authenticated calls only
// while PUBLIC_URL is itself local: on a deployment at a real address, a signed-in user's browser
// showing http://localhost:<port> (any local program) cannot act with the user's session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';

const user = {
  userName: 'origin_user',
  firstName: 'O',
  lastName: 'U',
  email: 'origin_user@example.com',
  phone: '+15550007777',
  password: 'long enough secret',
};

async function signedIn(quern: TestQuern): Promise<string> {
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  expect(login.status).toBe(200);
  return cookieOf(login.setCookie);
}

const port = (quern: TestQuern) => new URL(quern.url).port;

describe('loopback origins on a deployment at a real address', () => {
  let quern: TestQuern;
  let cookie: string;
  beforeAll(async () => {
    quern = await startTestQuern({ PUBLIC_URL: 'https://pay.quern.example' });
    cookie = await signedIn(quern);
  });
  afterAll(async () => quern?.stop());

  it('refuses a cookie-authenticated call from a localhost page and changes nothing', async () => {
    for (const origin of [`http://localhost:${port(quern)}`, `http://127.0.0.1:${port(quern)}`]) {
      const refused = await quern.call('POST', '/api/direct/key-generate', { cookie, headers: { origin } });
      expect(refused.status, origin).toBe(403);
      expect(refused.body.messageKey).toBe('errors:crossSiteRequest');
    }
    // No key was made by the refused calls.
    const key = await quern.call('POST', '/api/direct/key-get', { cookie, headers: { origin: 'https://pay.quern.example' } });
    expect(key.body.content?.api_key ?? null).toBeNull();
  });

  it('accepts the same call from the public origin', async () => {
    const generated = await quern.call('POST', '/api/direct/key-generate', { cookie, headers: { origin: 'https://pay.quern.example' } });
    expect(generated.status).toBe(200);
  });
});

describe('loopback origins on a developer machine (PUBLIC_URL unset)', () => {
  let quern: TestQuern;
  let cookie: string;
  beforeAll(async () => {
    quern = await startTestQuern();
    cookie = await signedIn(quern);
  });
  afterAll(async () => quern?.stop());

  it('accepts a call from the page on localhost and 127.0.0.1 at the bound port', async () => {
    for (const origin of [`http://localhost:${port(quern)}`, `http://127.0.0.1:${port(quern)}`]) {
      const generated = await quern.call('POST', '/api/direct/key-generate', { cookie, headers: { origin } });
      expect(generated.status, origin).toBe(200);
    }
  });
});
