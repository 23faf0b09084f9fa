// Proves account deletion over real HTTP, SQLite and Redis (ADR 042): POST /api/user/delete/{id}
// and tRPC identity.deleteAccount need the session's own id, the password, a code when two-factor
// is on and an empty wallet; every refusal changes nothing. A deletion ends every session, frees
// the e-mail and phone, keeps the username reserved, leaves no name, e-mail or phone readable in
// the log file or the read models, no password hash and no payout recipient in a webhook delivery
// readable in the log file either (ADR 046), and the ledger's audit stays clean.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Secret, TOTP } from 'otpauth';
import { openRawEventStore } from '@quern/adapters/eventstore';
import { deliveryBodyOf, loadWebhookDelivery } from '@quern/core/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, fundFromReserve } from '../../test/ledger.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, verifyEmail } from '../../test/users.js';

let quern: TestQuern;
let counter = 0;

const newUser = () => {
  counter += 1;
  const n = `${Date.now() % 100000}${counter}`;
  return {
    userName: `del_${n}`,
    firstName: 'Marie',
    lastName: `Sklodowska${n}`,
    email: `del${n}@example.com`,
    phone: `+1557${n.padStart(7, '0').slice(-7)}`,
    password: 'correct horse battery',
  };
};

async function registerAndLogin(user = newUser()) {
  const registered = await quern.call('POST', '/api/user/register', { body: user });
  expect(registered.status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  expect(login.status).toBe(200);
  const cookie = cookieOf(login.setCookie);
  const { address } = (await quern.call('GET', '/api/millix/address', { cookie })).body as { address: string };
  return { user, id: registered.body.id as string, cookie, address };
}
type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const deleteAccount = (account: Account, body: unknown, id = account.id) =>
  quern.call('POST', `/api/user/delete/${id}`, { cookie: account.cookie, body });
const stillSignedIn = async (account: Account) => (await quern.call('POST', '/api/auth/verify', { cookie: account.cookie })).status === 200;
const userEvents = async (id: string) => (await quern.store.readStream(`user-${id}`)).map((e) => e.type);
const walletEvents = async (id: string) => (await quern.store.readStream(`wallet-${id}`)).map((e) => e.type);

beforeAll(async () => {
  quern = await startTestQuern({
    REGISTRATIONS_PER_IP_HOUR: '1000',
    LOGIN_FAILURES_PER_IP: '1000',
    LOGIN_FREE_FAILURES: '20',
    // A webhook endpoint on loopback where nothing listens: its deliveries are recorded, then fail.
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
});
afterAll(async () => {
  await quern?.stop();
});

describe('deleting an account: refusals change nothing', () => {
  it('answers 401 signed out, 403 for another id, 400 for a missing or wrong password', async () => {
    const account = await registerAndLogin();
    const other = await registerAndLogin();
    const before = await userEvents(account.id);

    expect((await quern.call('POST', `/api/user/delete/${account.id}`, { body: { password: account.user.password } })).status).toBe(401);
    expect(await deleteAccount(account, { password: account.user.password }, other.id)).toMatchObject({
      status: 403,
      body: { messageKey: 'errors:forbidden' },
    });
    expect(await deleteAccount(account, {})).toMatchObject({ status: 400, body: { messageKey: 'errors:deletePasswordRequired' } });
    expect(await deleteAccount(account, { password: 'not my password' })).toMatchObject({
      status: 400,
      body: { messageKey: 'errors:wrongCurrentPassword', message: 'The current password is not correct.' },
    });

    expect(await userEvents(account.id)).toEqual(before);
    expect(await userEvents(other.id)).not.toContain('UserAccountDeleted');
    expect(await walletEvents(account.id)).not.toContain('WalletClosed');
    expect(await stillSignedIn(account)).toBe(true);
  });

  it('refuses while the wallet holds MLX, and deletes once it was sent out', async () => {
    const account = await registerAndLogin();
    const payee = await registerAndLogin();
    await fundFromReserve(quern.store, account.address, 10_000n);
    await eventually(async () => {
      const balance = await quern.call('GET', `/api/millix/balance/${account.address}`, { cookie: account.cookie });
      return balance.body.stable === '10000' ? true : undefined;
    });

    const refused = await deleteAccount(account, { password: account.user.password });
    expect(refused).toMatchObject({ status: 409, body: { messageKey: 'errors:accountNotEmpty' } });
    expect(await walletEvents(account.id)).not.toContain('WalletClosed');
    expect(await userEvents(account.id)).not.toContain('UserAccountDeleted');
    expect(await stillSignedIn(account)).toBe(true);

    const sent = await quern.call('POST', '/api/millix/send', {
      cookie: account.cookie,
      body: { to: payee.user.userName, amount: '9000', fee: '1000' },
    });
    expect(sent.status).toBe(200);
    await eventually(async () => {
      const balance = await quern.call('GET', `/api/millix/balance/${account.address}`, { cookie: account.cookie });
      return balance.body.stable === '0' && balance.body.unstable === '0' ? true : undefined;
    });
    expect(await deleteAccount(account, { password: account.user.password })).toMatchObject({ status: 200 });

    // The closed wallet takes no more payments: the payee cannot send back to it.
    const back = await quern.call('POST', '/api/millix/send', {
      cookie: payee.cookie,
      body: { to: account.address, amount: '1000', fee: '1000' },
    });
    expect(back.status).toBeGreaterThanOrEqual(400);
    expect(back.status).toBeLessThan(500);
    const audit = await auditLog(quern.store);
    expect(audit.violations).toEqual([]);
    expect(audit.ledgerTotalMlx).toBe(audit.mintedMlx);
  });
});

describe('deleting an account', () => {
  it('erases the names, e-mail and phone from the log file and the read models, ends every session, frees the e-mail, keeps the username', async () => {
    const account = await registerAndLogin();
    const secondSession = cookieOf(
      (await quern.call('POST', '/api/user/login', { body: { email: account.user.email, password: account.user.password } })).setCookie,
    );
    expect(
      (await quern.call('POST', `/api/user/update/${account.id}`, { cookie: account.cookie, body: { last_name: 'Curie' } })).status,
    ).toBe(200);

    const deleted = await deleteAccount(account, { password: account.user.password });
    expect(deleted).toMatchObject({ status: 200, body: { message: 'Your account has been deleted.' } });
    expect(deleted.setCookie).toMatch(/quern_session=;|Expires=Thu, 01 Jan 1970/);
    const counters = new Redis(quern.redisUrl);
    try {
      expect((await counters.keys('*')).filter((key) => key.includes(account.user.email))).toEqual([]);
    } finally {
      counters.disconnect();
    }

    expect(await stillSignedIn(account)).toBe(false);
    expect((await quern.call('POST', '/api/auth/verify', { cookie: secondSession })).status).toBe(401);
    expect(
      await quern.call('POST', '/api/user/login', { body: { email: account.user.email, password: account.user.password } }),
    ).toMatchObject({
      status: 401,
      body: { messageKey: 'errors:invalidCredentials' },
    });
    expect(await userEvents(account.id)).toContain('UserAccountDeleted');
    expect(await walletEvents(account.id)).toContain('WalletClosed');

    // The log as Quern reads it: erased. The log file itself: no trace of them.
    const [registered] = await quern.store.readStream(`user-${account.id}`);
    expect(registered?.data).toMatchObject({ firstName: '[erased]', lastName: '[erased]', email: '[erased]', phone: '[erased]' });
    const raw = openRawEventStore({ dataDir: quern.dataDir });
    try {
      const recorded = JSON.stringify((await raw.readAll({ maxCount: 10_000 })).map((e) => [e.streamId, e.data, e.metadata]));
      for (const secret of [account.user.lastName, 'Curie', account.user.email, account.user.phone.slice(2)])
        expect(recorded).not.toContain(secret);
    } finally {
      await raw.close();
    }
    const logBytes = ['events.sqlite', 'events.sqlite-wal']
      .map((file) => {
        try {
          return readFileSync(join(quern.dataDir, file)).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    expect(logBytes).not.toContain(account.user.email);

    // The read models: nothing of the account left in any rm:* key.
    const redis = new Redis(quern.redisUrl);
    try {
      await eventually(async () => ((await redis.exists(`rm:user:${account.id}`)) === 0 ? true : undefined));
      const keys = await redis.keys('rm:*');
      const dump: string[] = [];
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === 'hash') dump.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'string') dump.push((await redis.get(key)) ?? '');
        else if (type === 'zset') dump.push(JSON.stringify(await redis.zrange(key, '0', '-1')));
        else if (type === 'list') dump.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      }
      const text = dump.join('\n');
      for (const secret of [account.user.lastName, 'Curie', account.user.email, account.user.phone]) expect(text).not.toContain(secret);
    } finally {
      redis.disconnect();
    }

    // The e-mail and phone are free again; the username is not.
    const again = { ...newUser(), email: account.user.email, phone: account.user.phone };
    expect((await quern.call('POST', '/api/user/register', { body: again })).status).toBe(200);
    const sameName = { ...newUser(), userName: account.user.userName };
    expect(await quern.call('POST', '/api/user/register', { body: sameName })).toMatchObject({ status: 409 });
    const viewer = await registerAndLogin();
    expect((await quern.call('GET', `/api/user/username/${account.user.userName}`, { cookie: viewer.cookie })).status).toBe(404);
  });

  it('with two-factor on, asks for a code, refuses a wrong one, and deletes with a right one through tRPC', async () => {
    const account = await registerAndLogin();
    const started = await quern.call('POST', '/api/user/two-factor/start', { cookie: account.cookie });
    const secret = started.body.secret as string;
    const code = (offset: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + offset * 30_000 });
    const intoStep = Date.now() % 30_000;
    if (intoStep > 27_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoStep + 100));
    expect(
      (
        await quern.call('POST', '/api/user/two-factor/confirm', {
          cookie: account.cookie,
          body: { enrollment_id: started.body.enrollment_id, code: code(-1) },
        })
      ).status,
    ).toBe(200);
    // The secret is sealed in the log file too.
    const raw = openRawEventStore({ dataDir: quern.dataDir });
    try {
      expect(JSON.stringify((await raw.readStream(`user-${account.id}`)).map((e) => e.data))).not.toContain(secret);
    } finally {
      await raw.close();
    }

    const viaTrpc = (input: unknown) =>
      quern.call('POST', '/trpc/identity.deleteAccount', { cookie: account.cookie, body: input, headers: { origin: quern.url } });
    expect(await viaTrpc({ password: account.user.password })).toMatchObject({ status: 400 });
    expect(JSON.stringify((await viaTrpc({ password: account.user.password })).body)).toContain('errors:twoFactorCodeRequired');
    const wrong = String((Number(code(0)) + 500_000) % 1_000_000).padStart(6, '0');
    expect(JSON.stringify((await viaTrpc({ password: account.user.password, code: wrong })).body)).toContain('errors:twoFactorCodeInvalid');
    expect(await userEvents(account.id)).not.toContain('UserAccountDeleted');

    const done = await viaTrpc({ password: account.user.password, code: code(0) });
    expect(done.status).toBe(200);
    expect(JSON.stringify(done.body)).toContain('Your account has been deleted.');
    expect(await userEvents(account.id)).toContain('UserAccountDeleted');
  });

  it('leaves no password hash in the log file, and no payout recipient e-mail in the webhook deliveries that reported it', async () => {
    const payee = await registerAndLogin();
    await verifyEmail(quern, payee.user);
    const newPassword = 'another horse battery';
    const changed = await quern.call('POST', `/api/user/update/${payee.id}`, {
      cookie: payee.cookie,
      body: { password: newPassword, current_password: payee.user.password },
    });
    expect(changed.status).toBe(200);

    const shop = await registerAndLogin();
    await fundFromReserve(quern.store, shop.address, 1_000_000n);
    await eventually(async () => {
      const balance = await quern.call('GET', `/api/millix/balance/${shop.address}`, { cookie: shop.cookie });
      return balance.body.stable === '1000000' ? true : undefined;
    });
    const key = await generateApiKey(quern, shop);
    const endpoint = await quern.call('POST', '/api/v1/webhook-endpoints', {
      headers: { authorization: `Bearer ${key}` },
      body: { url: 'http://127.0.0.1:9/quern', events: ['payout.completed'] },
    });
    expect(endpoint.status).toBe(201);
    const payout = await quern.call('POST', '/api/v1/payouts', {
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'deletion-payout-1' },
      body: { to: payee.user.email, amount: '5000' },
    });
    expect([payout.status, payout.body.status]).toEqual([201, 'completed']);

    // The delivery reporting the payout: the merchant is sent the recipient it named...
    const deliveryId = await eventually(async () => {
      const all = await quern.store.readAll({ maxCount: 10_000 });
      const scheduled = all.find((e) => e.type === 'WebhookDeliveryScheduled' && e.data.eventType === 'payout.completed');
      return scheduled ? String(scheduled.data.deliveryId) : undefined;
    }, 20_000);
    const before = (await loadWebhookDelivery(quern.store, deliveryId)).state.scheduled;
    expect(JSON.parse(deliveryBodyOf(before ?? { body: '{}' })).data.to).toBe(payee.user.email);

    // ...and the payee empties the wallet and deletes the account.
    await eventually(async () => {
      const balance = await quern.call('GET', `/api/millix/balance/${payee.address}`, { cookie: payee.cookie });
      return balance.body.stable === '5000' ? true : undefined;
    });
    const signedIn = cookieOf(
      (await quern.call('POST', '/api/user/login', { body: { email: payee.user.email, password: newPassword } })).setCookie,
    );
    const sent = await quern.call('POST', '/api/millix/send', {
      cookie: signedIn,
      body: { to: shop.user.userName, amount: '4000', fee: '1000' },
    });
    expect(sent.status).toBe(200);
    await eventually(async () => {
      const balance = await quern.call('GET', `/api/millix/balance/${payee.address}`, { cookie: signedIn });
      return balance.body.stable === '0' && balance.body.unstable === '0' ? true : undefined;
    });
    expect((await quern.call('POST', `/api/user/delete/${payee.id}`, { cookie: signedIn, body: { password: newPassword } })).status).toBe(
      200,
    );

    const after = (await loadWebhookDelivery(quern.store, deliveryId)).state.scheduled;
    expect(JSON.parse(deliveryBodyOf(after ?? { body: '{}' })).data.to).toBe('[erased]');
    const raw = openRawEventStore({ dataDir: quern.dataDir });
    try {
      const userLog = JSON.stringify((await raw.readStream(`user-${payee.id}`)).map((e) => e.data));
      expect(userLog).not.toContain('$argon2');
      const deliveries = JSON.stringify((await raw.readStream(`webhook-delivery-${deliveryId}`)).map((e) => e.data));
      expect(deliveries).not.toContain(payee.user.email);
    } finally {
      await raw.close();
    }
    const logBytes = ['events.sqlite', 'events.sqlite-wal']
      .map((file) => {
        try {
          return readFileSync(join(quern.dataDir, file)).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    expect(logBytes).not.toContain(payee.user.email);
    const [registered] = await quern.store.readStream(`user-${payee.id}`);
    expect(registered?.data.passwordHash).toBe('[erased]');
  });
});
