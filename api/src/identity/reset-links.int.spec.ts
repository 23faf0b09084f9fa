// Proves that a password change voids every reset link issued before it, over real HTTP, SQLite
// and Redis: after a reset with one link, or a change from the profile, an older link answers the
// invalid-or-expired message and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMails } from '../../test/outbox.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { userFactory } from '../../test/users.js';

let quern: TestQuern;
const { newUser } = userFactory({ userPrefix: 'rl_', emailPrefix: 'rl', area: '557' });

const outbox = () => outboxMails(quern);

/** The tokens of the reset links mailed to an address so far (the outbox's quoted-printable undone). */
const resetTokensIn = (email: string): string[] =>
  outbox()
    .filter((m) => m.includes(email) && m.includes('password-reset-verify'))
    .map((m) => /password-reset-verify\?t=(?:3D)?([^\s"<]+)/.exec(m.replace(/=\r?\n/g, ''))?.[1] ?? '')
    .map((t) => decodeURIComponent(t));

/**
 * Asks for `count` more links and answers them, oldest first. The outbox lists files by name, not
 * by time, so each request's link is the one token that was not there before it.
 */
async function requestLinks(email: string, count: number): Promise<string[]> {
  const links: string[] = [];
  for (let i = 1; i <= count; i++) {
    const seen = new Set(resetTokensIn(email));
    expect((await quern.call('POST', '/api/user/password/reset', { body: { email } })).status).toBe(200);
    const fresh = await eventually(() => {
      const added = resetTokensIn(email).filter((token) => !seen.has(token));
      return added.length > 0 ? added : undefined;
    });
    expect(fresh).toHaveLength(1);
    links.push(fresh[0] as string);
  }
  return links;
}

const reset = (token: string, password: string) =>
  quern.call('POST', '/api/user/password/reset-verify/', { body: { token, password, password1: password } });

const signsIn = async (email: string, password: string) =>
  (await quern.call('POST', '/api/user/login', { body: { email, password } })).status === 200;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', LOGIN_FAILURES_PER_IP: '1000' });
});
afterAll(async () => {
  await quern?.stop();
});

describe('reset links after a password change', () => {
  it('given two links, when the newer one resets the password, then the older one is refused as invalid or expired', async () => {
    const user = newUser();
    expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
    const [older, newer] = (await requestLinks(user.email, 2)) as [string, string];

    expect((await reset(newer, 'the newer link secret')).status).toBe(200);
    const refused = await reset(older, 'the older link secret');
    expect(refused).toMatchObject({ status: 400, body: { messageKey: 'errors:invalidResetLink' } });
    expect(refused.body.message).toBe('This password reset link is invalid or has expired. Please request a new one.');
    expect(await signsIn(user.email, 'the newer link secret')).toBe(true);
    expect(await signsIn(user.email, 'the older link secret')).toBe(false);
  });

  it('given a link, when the password is changed from the profile, then the link is refused and a later one works', async () => {
    const user = newUser();
    const registered = await quern.call('POST', '/api/user/register', { body: user });
    const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
    const [before] = (await requestLinks(user.email, 1)) as [string];

    const changed = await quern.call('POST', `/api/user/update/${registered.body.id}`, {
      cookie: cookieOf(login.setCookie),
      body: { password: 'changed on the profile', current_password: user.password },
    });
    expect(changed.status).toBe(200);
    expect(await reset(before, 'an attacker secret!')).toMatchObject({ status: 400, body: { messageKey: 'errors:invalidResetLink' } });
    expect(await signsIn(user.email, 'changed on the profile')).toBe(true);

    const [after] = (await requestLinks(user.email, 1)) as [string];
    expect((await reset(after, 'a later reset secret')).status).toBe(200);
  });
});
