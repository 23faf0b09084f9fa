// Proves the profile edits over real HTTP, SQLite and Redis: POST /api/user/update/{id} and the
// tRPC identity.update change one field of one's own account only (401 signed out, 403 for
// another id, nothing recorded), trim and bound names, normalize and claim the phone (409 when
// taken, the old number free again), and a password change needs the current password, keeps the
// policy, ends the other sessions but this one, and mails a notice. Every change is an event.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMails } from '../../test/outbox.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { userFactory, verifyEmail } from '../../test/users.js';

let quern: TestQuern;
const { newUser } = userFactory({ userPrefix: 'prof_', emailPrefix: 'prof', area: '556' });

async function login(email: string, password: string) {
  const answer = await quern.call('POST', '/api/user/login', { body: { email, password } });
  expect(answer.status).toBe(200);
  return cookieOf(answer.setCookie);
}

async function registerAndLogin(user = newUser()) {
  const registered = await quern.call('POST', '/api/user/register', { body: user });
  expect(registered.status).toBe(200);
  return { user, id: registered.body.id as string, cookie: await login(user.email, user.password) };
}

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
const update = (account: Account, body: unknown, id = account.id, headers?: Record<string, string>) =>
  quern.call('POST', `/api/user/update/${id}`, { cookie: account.cookie, body, headers });
const profileOf = async (account: Account) => (await quern.call('POST', `/api/user/get/${account.id}`, { cookie: account.cookie })).body;
const eventTypes = async (id: string) => (await quern.store.readStream(`user-${id}`)).map((e) => e.type);
const editEvents = async (id: string) =>
  (await quern.store.readStream(`user-${id}`)).filter((e) => ['UserNameChanged', 'UserPhoneChanged', 'PasswordChanged'].includes(e.type));

const outbox = () => outboxMails(quern);

/** What waiting out the throttle does: every pair of the account may try again now. */
async function passThrottleWait(email: string) {
  const redis = new Redis(quern.redisUrl);
  try {
    const pairs = await redis.keys(`rl:login-pair:${email}:*`);
    expect(pairs.length).toBeGreaterThan(0);
    for (const pair of pairs) await redis.hset(pair, 'nextAt', '0');
  } finally {
    redis.disconnect();
  }
}

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', LOGIN_FAILURES_PER_IP: '1000' });
});
afterAll(async () => {
  await quern?.stop();
});

describe('profile: names', () => {
  it('given a first name with spaces, when saved, then it is trimmed, answered, read back and recorded as one event', async () => {
    const account = await registerAndLogin();
    const saved = await update(account, { first_name: '  Grace  ' });
    expect(saved).toMatchObject({ status: 200, body: { username: account.user.userName, first_name: 'Grace', last_name: 'Lovelace' } });
    expect(await profileOf(account)).toMatchObject({ first_name: 'Grace', last_name: 'Lovelace' });
    const [event] = await editEvents(account.id);
    expect(event).toMatchObject({ type: 'UserNameChanged', data: { userId: account.id, firstName: 'Grace', lastName: 'Lovelace' } });

    expect((await update(account, { last_name: 'Hopper' })).body).toMatchObject({ first_name: 'Grace', last_name: 'Hopper' });
    expect((await update(account, { last_name: 'Hopper' })).status).toBe(200);
    expect((await editEvents(account.id)).map((e) => e.type)).toEqual(['UserNameChanged', 'UserNameChanged']);
  });

  it('given an empty, a too long name, two fields or none, when saved, then 400 with the message and nothing changes', async () => {
    const account = await registerAndLogin();
    const cases: Array<[unknown, string]> = [
      [{ first_name: '   ' }, 'All fields are required'],
      [{ last_name: 'x'.repeat(101) }, 'Names can be at most 100 characters long.'],
      [{ first_name: 'A', last_name: 'B' }, 'Change exactly one of first name, last name, phone number or password at a time.'],
      [{}, 'Change exactly one of first name, last name, phone number or password at a time.'],
      [{ username: 'other' }, ''],
    ];
    for (const [body, message] of cases) {
      const answer = await update(account, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      if (message) expect(answer.body.message).toBe(message);
    }
    expect(await profileOf(account)).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(await editEvents(account.id)).toEqual([]);
  });
});

describe('profile: who may edit', () => {
  it('given another account’s id, when saved over REST or tRPC, then 403 and nothing changes; signed out is 401', async () => {
    const owner = await registerAndLogin();
    const other = await registerAndLogin();
    expect((await update(other, { first_name: 'Mallory' }, owner.id)).status).toBe(403);
    const trpc = await quern.call('POST', '/trpc/identity.update', { cookie: other.cookie, body: { id: owner.id, first_name: 'Mallory' } });
    expect(trpc.status).toBe(403);
    expect((await quern.call('POST', `/api/user/update/${owner.id}`, { body: { first_name: 'Mallory' } })).status).toBe(401);
    expect((await quern.call('POST', `/api/user/update/${owner.id}`, { body: { nonsense: 1 } })).status).toBe(401);
    expect((await quern.call('POST', '/api/user/update/not-a-uuid', { cookie: owner.cookie, body: { first_name: 'A' } })).status).toBe(400);
    expect(await profileOf(owner)).toMatchObject({ first_name: 'Ada' });
    expect(await editEvents(owner.id)).toEqual([]);
  });

  it('given the tRPC procedure, when the owner saves a name, then it answers the profile', async () => {
    const account = await registerAndLogin();
    const trpc = await quern.call('POST', '/trpc/identity.update', {
      cookie: account.cookie,
      body: { id: account.id, last_name: 'Byron' },
    });
    expect(trpc.status).toBe(200);
    expect(trpc.body.result.data).toMatchObject({ first_name: 'Ada', last_name: 'Byron' });
  });

  it('given a cross-site request, when saved, then it is refused', async () => {
    const account = await registerAndLogin();
    expect((await update(account, { first_name: 'Eve' }, account.id, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(await editEvents(account.id)).toEqual([]);
  });
});

describe('profile: phone', () => {
  it('given a new phone typed with separators, when saved, then it is normalized, claimed, and the old number is free for a registration', async () => {
    const account = await registerAndLogin();
    const fresh = newUser().phone;
    const typed = `${fresh.slice(0, 2)} (${fresh.slice(2, 5)}) ${fresh.slice(5, 8)}-${fresh.slice(8)}`;
    const saved = await update(account, { phone_number: typed });
    expect(saved).toMatchObject({ status: 200, body: { phone_number: fresh } });
    expect((await editEvents(account.id))[0]).toMatchObject({
      type: 'UserPhoneChanged',
      data: { phone: fresh, previousPhone: account.user.phone },
    });
    const reuse = await quern.call('POST', '/api/user/register', { body: { ...newUser(), phone: account.user.phone } });
    expect(reuse.status).toBe(200);
    const taken = await quern.call('POST', '/api/user/register', { body: { ...newUser(), phone: fresh } });
    expect(taken.status).toBe(409);
  });

  it('given a phone another account holds, when saved, then 409 on phone_number and nothing changes', async () => {
    const a = await registerAndLogin();
    const b = await registerAndLogin();
    const answer = await update(a, { phone_number: b.user.phone });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe('An account with this phone number already exists.');
    expect(answer.body.fieldMessages).toEqual({ phone_number: 'An account with this phone number already exists.' });
    expect(await profileOf(a)).toMatchObject({ phone_number: a.user.phone });
    expect(await editEvents(a.id)).toEqual([]);
  });

  it('given a malformed phone or the same phone, when saved, then 400 or no event', async () => {
    const account = await registerAndLogin();
    expect((await update(account, { phone_number: '12-ab' })).body.message).toBe(
      'Please enter a valid phone number (7 to 15 digits, optionally starting with +).',
    );
    expect((await update(account, { phone_number: account.user.phone })).status).toBe(200);
    expect(await editEvents(account.id)).toEqual([]);
  });

  it('given two accounts racing for one new number, when saved at once, then exactly one gets it', async () => {
    const a = await registerAndLogin();
    const b = await registerAndLogin();
    const wanted = newUser().phone;
    const answers = await Promise.all([update(a, { phone_number: wanted }), update(b, { phone_number: wanted })]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe('profile: password', () => {
  it('given the current password, when a new one is saved, then only the other sessions end, the new one signs in, and a notice is mailed', async () => {
    const account = await registerAndLogin();
    // The notice goes only to an address its owner proved (ADR 046).
    await verifyEmail(quern, account.user);
    const elsewhere = await login(account.user.email, account.user.password);
    const saved = await update(account, { password: 'a brand new secret', current_password: account.user.password });
    expect(saved.status).toBe(200);
    expect((await quern.call('POST', '/api/auth/verify', { cookie: account.cookie })).status).toBe(200);
    expect((await quern.call('POST', '/api/auth/verify', { cookie: elsewhere })).status).toBe(401);
    expect(
      (await quern.call('POST', '/api/user/login', { body: { email: account.user.email, password: account.user.password } })).status,
    ).toBe(401);
    await login(account.user.email, 'a brand new secret');
    const [changed] = await editEvents(account.id);
    expect(changed).toMatchObject({ type: 'PasswordChanged', data: { via: 'profile' } });
    expect(JSON.stringify(changed?.data)).not.toContain('a brand new secret');
    const notice = await eventually(() =>
      outbox().find((m) => m.includes(account.user.email) && /Subject: .*password was changed/.test(m)),
    );
    expect(notice).toContain('/password-reset');
    await eventually(async () => ((await eventTypes(account.id)).includes('PasswordChangedEmailSent') ? true : undefined));
  });

  it('given no, or a wrong, current password, when saved, then 400 on current_password, no change, every session stays', async () => {
    const account = await registerAndLogin();
    const elsewhere = await login(account.user.email, account.user.password);
    const missing = await update(account, { password: 'a brand new secret' });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldMessages.current_password).toBe('Enter your current password to choose a new one.');
    const wrong = await update(account, { password: 'a brand new secret', current_password: 'not it at all' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldMessages.current_password).toBe('The current password is not correct.');
    expect((await quern.call('POST', '/api/auth/verify', { cookie: elsewhere })).status).toBe(200);
    await login(account.user.email, account.user.password);
    expect(await editEvents(account.id)).toEqual([]);
  });

  it('given a new password that breaks the policy, when saved, then 400 with the policy message and no change', async () => {
    const account = await registerAndLogin();
    const cases: Array<[string, string]> = [
      ['short', 'passwordLength'],
      [account.user.email, 'passwordIsAccountName'],
      ['password123', 'passwordTooCommon'],
    ];
    for (const [password] of cases) {
      const answer = await update(account, { password, current_password: account.user.password });
      expect(answer.status, password).toBe(400);
      expect(answer.body.fieldMessages.password, password).toBeTruthy();
    }
    expect(await editEvents(account.id)).toEqual([]);
  });

  it('given repeated wrong current passwords, when saved, then the sign-in throttle makes the address wait, and after the wait the right one works', async () => {
    const account = await registerAndLogin();
    const newPassword = 'a brand new secret';
    // Five free failures (LOGIN_FREE_FAILURES' default), as at the sign-in page.
    for (let i = 0; i < 5; i++) {
      const wrong = await update(account, { password: newPassword, current_password: `guess number ${i}` });
      expect(wrong.status, `guess ${i}`).toBe(400);
      expect(wrong.body.fieldMessages.current_password).toBe('The current password is not correct.');
    }
    // Then even the right current password waits, with sign-in's message and Retry-After.
    const waiting = await update(account, { password: newPassword, current_password: account.user.password });
    expect(waiting.status).toBe(429);
    expect(waiting.body.message).toBe('Too many failed sign-in attempts. Please try again in 1 minutes.');
    expect(waiting.headers.get('retry-after')).toBe('60');
    // One throttle: the sign-in page from this address waits too.
    const signIn = await quern.call('POST', '/api/user/login', { body: { email: account.user.email, password: account.user.password } });
    expect(signIn.status).toBe(429);
    expect(signIn.body.message).toBe('Too many failed sign-in attempts. Please try again in 1 minutes.');
    expect(await editEvents(account.id)).toEqual([]);

    // The minute passes: the pair's next allowed time (login-throttle.ts) moves to now.
    await passThrottleWait(account.user.email);
    const saved = await update(account, { password: newPassword, current_password: account.user.password });
    expect(saved.status).toBe(200);
    await login(account.user.email, newPassword);
    expect((await editEvents(account.id)).map((e) => e.type)).toEqual(['PasswordChanged']);
  });

  it('given two changes at the same moment with the same right current password, then exactly one wins and the other is told the current password is wrong', async () => {
    const account = await registerAndLogin();
    const candidates = ['first new secret here', 'second new secret here'];
    const answers = await Promise.all(candidates.map((password) => update(account, { password, current_password: account.user.password })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice().sort()).toEqual([200, 400]);
    const loser = answers.find((a) => a.status === 400);
    expect(loser?.body.fieldMessages.current_password).toBe('The current password is not correct.');
    const winner = candidates[statuses.indexOf(200)] as string;
    const other = candidates[statuses.indexOf(400)] as string;
    // The stored hash is the winner's: it signs in, the loser's and the old one do not.
    await login(account.user.email, winner);
    for (const password of [other, account.user.password]) {
      expect((await quern.call('POST', '/api/user/login', { body: { email: account.user.email, password } })).status).toBe(401);
    }
    expect((await editEvents(account.id)).map((e) => e.type)).toEqual(['PasswordChanged']);
  });
});
