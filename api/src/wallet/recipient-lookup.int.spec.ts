// Proves the send form's recipient lookup (wallet.recipient) over real HTTP: it names the Quern
// account a username, a proven e-mail or an address reaches, reads any other valid address as
// outside Quern, answers an unknown name as unknown (never an error that hints more), refuses text
// Send would refuse with Send's message, and shares the checkout popup's lookup budget.
import { randomBytes } from 'node:crypto';
import { createAddress } from '@quern/core/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser } from '../../test/users.js';

const PER_USER = 12;

let quern: TestQuern;
let payer: TestUser;
let payee: TestUser;

const lookup = (cookie: string, to: string, ip = '203.0.113.7') =>
  quern.call('GET', `/trpc/wallet.recipient?input=${encodeURIComponent(JSON.stringify({ to }))}`, {
    cookie,
    headers: { 'x-forwarded-for': ip },
  });

beforeAll(async () => {
  quern = await startTestQuern({
    REGISTRATIONS_PER_IP_HOUR: '1000',
    TRUST_PROXY: 'loopback',
    CHECKOUT_LOOKUPS_PER_USER_HOUR: String(PER_USER),
    CHECKOUT_LOOKUPS_PER_IP_HOUR: '1000',
  });
  payer = await registerUser(quern, 'recipient_payer');
  payee = await registerUser(quern, 'recipient_payee');
});
afterAll(async () => {
  await quern?.stop();
});

describe('wallet.recipient', () => {
  it('given a username, a proven e-mail or a Quern address, then it names the account and the address the MLX reach', async () => {
    const expected = { kind: 'user', username: 'recipient_payee', address: payee.address };
    for (const to of ['recipient_payee', ' Recipient_Payee ', payee.email, payee.address]) {
      const answer = await lookup(payer.cookie, to);
      expect(answer.status, to).toBe(200);
      expect(answer.body.result.data, to).toEqual(expected);
    }
  });

  it('given an address no Quern wallet has, then it is outside Quern; given a stranger, then unknown', async () => {
    const outside = createAddress(new Uint8Array(randomBytes(20)), 'mainnet');
    expect((await lookup(payer.cookie, outside)).body.result.data).toEqual({ kind: 'external', address: outside });
    expect((await lookup(payer.cookie, 'nobody_here')).body.result.data).toEqual({ kind: 'unknown' });
    expect((await lookup(payer.cookie, 'nobody@example.com')).body.result.data).toEqual({ kind: 'unknown' });
  });

  it("given an e-mail its owner never proved, then Send's own refusal, naming nobody", async () => {
    const unproven = await registerUser(quern, 'recipient_unproven', { verified: false });
    const answer = await lookup(payer.cookie, unproven.email);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('errors:recipientEmailUnverified');
    expect(JSON.stringify(answer.body)).not.toContain('recipient_unproven');
  });

  it("given text Send would refuse, then 400 with Send's message and no lookup is counted", async () => {
    const bad = await lookup(payer.cookie, 'a b');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('errors:invalidRecipient');
    expect((await lookup(payer.cookie, 'not-an-email@')).status).toBe(400);
  });

  it('given a signed-out caller, then 401 and nothing is told', async () => {
    const answer = await lookup('', 'recipient_payee');
    expect(answer.status).toBe(401);
    expect(JSON.stringify(answer.body)).not.toContain(payee.address);
  });

  it('given more lookups than the hourly budget shared with checkout.merchant, then 429 with Retry-After', async () => {
    const prober = await registerUser(quern, 'recipient_prober');
    const checkoutLookup = await quern.call(
      'GET',
      `/trpc/checkout.merchant?input=${encodeURIComponent(JSON.stringify({ to: 'recipient_payee' }))}`,
      { cookie: prober.cookie, headers: { 'x-forwarded-for': '198.51.100.3' } },
    );
    expect(checkoutLookup.status).toBe(200);
    for (let i = 1; i < PER_USER; i++) expect((await lookup(prober.cookie, 'recipient_payee', '198.51.100.3')).status).toBe(200);
    const over = await lookup(prober.cookie, payee.email, '198.51.100.3');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(JSON.stringify(over.body)).not.toContain('recipient_payee');
  });
});
