// Proves the popup's merchant lookup (checkout.merchant) over real HTTP: it answers only what the
// popup shows (found, the merchant's name and username; nothing for a stranger), and it cannot be
// used to map e-mails to people in bulk: each account, over all its sessions, and each client
// address get CHECKOUT_LOOKUPS_PER_USER_HOUR and CHECKOUT_LOOKUPS_PER_IP_HOUR lookups, then 429
// with Retry-After, while another account on another address is unaffected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';
import { verifyEmail } from '../../test/users.js';

const PER_USER = 3;
const PER_IP = 5;

let quern: TestQuern;
let registered = 0;

async function register(name: string): Promise<{ name: string; email: string; password: string; cookie: string }> {
  const user = {
    userName: name,
    firstName: 'Mia',
    lastName: 'Market',
    email: `${name}@example.com`,
    phone: `+1555200${String(++registered).padStart(4, '0')}`,
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  // Only a proven address names its account (ADR 046).
  await verifyEmail(quern, user);
  return { name, email: user.email, password: user.password, cookie: await signIn(user.email, user.password) };
}

async function signIn(email: string, password: string): Promise<string> {
  return cookieOf((await quern.call('POST', '/api/user/login', { body: { email, password } })).setCookie);
}

const lookup = (cookie: string, to: string, ip: string) =>
  quern.call('GET', `/trpc/checkout.merchant?input=${encodeURIComponent(JSON.stringify({ to }))}`, {
    cookie,
    headers: { 'x-forwarded-for': ip },
  });

beforeAll(async () => {
  quern = await startTestQuern({
    REGISTRATIONS_PER_IP_HOUR: '1000',
    TRUST_PROXY: 'loopback',
    CHECKOUT_LOOKUPS_PER_USER_HOUR: String(PER_USER),
    CHECKOUT_LOOKUPS_PER_IP_HOUR: String(PER_IP),
  });
});
afterAll(async () => {
  await quern?.stop();
});

describe('checkout.merchant', () => {
  it('answers only what the popup shows: found, the name and the username; a stranger is just not found', async () => {
    const shop = await register('lookup_shop');
    const shopper = await register('lookup_shopper');
    const byEmail = await lookup(shopper.cookie, shop.email, '203.0.113.1');
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.result.data).toEqual({ found: true, displayName: 'Mia Market', username: 'lookup_shop' });
    const stranger = await lookup(shopper.cookie, 'nobody@example.com', '203.0.113.1');
    expect(stranger.body.result.data).toEqual({ found: false });
  });

  it('gives an account CHECKOUT_LOOKUPS_PER_USER_HOUR lookups over all its sessions, then 429 with Retry-After', async () => {
    const shop = await register('limit_shop');
    const prober = await register('limit_prober');
    const secondSession = await signIn(prober.email, prober.password);
    const answers = [];
    for (let i = 0; i < PER_USER; i++)
      answers.push((await lookup(i % 2 ? secondSession : prober.cookie, shop.name, `198.51.100.${i + 1}`)).status);
    expect(answers).toEqual(Array(PER_USER).fill(200));
    for (const cookie of [prober.cookie, secondSession]) {
      const over = await lookup(cookie, shop.email, '198.51.100.99');
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      expect(JSON.stringify(over.body)).not.toContain('Mia');
    }
    const other = await register('limit_other');
    expect((await lookup(other.cookie, shop.name, '198.51.100.50')).status).toBe(200);
  });

  it('gives a client address CHECKOUT_LOOKUPS_PER_IP_HOUR lookups over all accounts, then 429 with Retry-After', async () => {
    const shop = await register('ip_shop');
    const accounts = [await register('ip_one'), await register('ip_two'), await register('ip_three')];
    const statuses = [];
    for (let i = 0; i < PER_IP; i++)
      statuses.push((await lookup((accounts[i % 3] as { cookie: string }).cookie, shop.name, '192.0.2.7')).status);
    expect(statuses).toEqual(Array(PER_IP).fill(200));
    const over = await lookup((accounts[2] as { cookie: string }).cookie, shop.name, '192.0.2.7');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect((await lookup((accounts[2] as { cookie: string }).cookie, shop.name, '192.0.2.8')).status).toBe(200);
  });
});
