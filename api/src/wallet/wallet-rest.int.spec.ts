// Proves the spec's wallet REST calls over real HTTP: each needs a session (401), balances are
// private (403), the state-changing GET send needs a positive same-origin signal, an Idempotency-Key retry
// returns the first transfer, unknown recipients move nothing, and no input produces a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve } from '../test-support/ledger.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../test-support/quern.js';

let quern: TestQuern;
let payer: { cookie: string; address: string; userName: string };
let payee: { cookie: string; address: string; userName: string; email: string };

async function register(name: string) {
  const user = {
    userName: name,
    firstName: 'R',
    lastName: 'T',
    email: `${name}@example.com`,
    phone: `+1555${String(Math.random()).slice(2, 9)}`,
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const cookie = cookieOf(
    (await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } })).setCookie,
  );
  const { address } = (await quern.call('GET', '/api/millix/address', { cookie })).body as { address: string };
  return { cookie, address, userName: name, email: user.email };
}

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', EXCHANGE_RATE_USD_PER_MLX: '0.000012' });
  payer = await register('rest_payer');
  payee = await register('rest_payee');
  await fundFromReserve(quern.store, payer.address, 1_000_000n);
});
afterAll(async () => {
  await quern?.stop();
});

describe('wallet REST', () => {
  it.each([
    ['GET', '/api/millix/address'],
    ['GET', '/api/millix/balance/1abc'],
    ['GET', '/api/quern/pending-transactions'],
    ['GET', '/api/quern/transactions?page=0'],
    ['GET', '/api/millix/send?to=x&amount=1&fee=1000'],
    ['POST', '/api/millix/send'],
  ])('refuses %s %s without a session (401)', async (method, path) => {
    const response = await quern.call(method, path, method === 'POST' ? { body: { to: 'x', amount: '1', fee: '1000' } } : {});
    expect(response.status).toBe(401);
  });

  it('answers the rate, the own balance, and refuses another wallet’s balance', async () => {
    expect((await quern.call('GET', '/api/millix/current-rate')).body).toEqual({ rate: '0.000012' });
    const own = await eventually(async () => {
      const r = await quern.call('GET', `/api/millix/balance/${payer.address}`, { cookie: payer.cookie });
      return r.body.stable === '1000000' ? r : undefined;
    });
    expect(own.body).toEqual({ stable: '1000000', unstable: '0' });
    expect((await quern.call('GET', `/api/millix/balance/${payee.address}`, { cookie: payer.cookie })).status).toBe(403);
  });

  it('sends by the spec’s GET with the amount’s separators stripped, and refuses it cross-site', async () => {
    const query = `/api/millix/send?to=${encodeURIComponent(payee.email)}&amount=${encodeURIComponent('1,000')}&fee=1000`;
    const crossSite = await quern.call('GET', query, { cookie: payer.cookie, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const sent = await quern.call('GET', query, { cookie: payer.cookie, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(sent.status).toBe(200);
    // Between Quern wallets a send is settled by the append that records it (ADR 019).
    expect(sent.body.status).toBe('posted');
    const pending = await quern.call('GET', '/api/quern/pending-transactions', { cookie: payer.cookie });
    expect(pending.status).toBe(200);
    const history = await eventually(async () => {
      const page = await quern.call('GET', '/api/quern/transactions?page=0', { cookie: payer.cookie });
      return page.body.transactions.some((t: { transaction_hash: string }) => t.transaction_hash === sent.body.transferId)
        ? page
        : undefined;
    });
    expect(history.body).toMatchObject({ page: 0, limit: 10 });
    const row = history.body.transactions.find((t: { transaction_hash: string }) => t.transaction_hash === sent.body.transferId);
    expect(row).toMatchObject({ transaction_type: 'debit', amount: '1000', fee: '1000', to_user: { username: payee.userName } });
  });

  it('refuses the GET send without a positive same-origin signal (a link or image on another site), and moves nothing', async () => {
    const query = `/api/millix/send?to=${encodeURIComponent(payee.userName)}&amount=3&fee=1000`;
    const before = (await quern.call('GET', '/api/quern/pending-transactions', { cookie: payer.cookie })).body;
    const refusedHeaders: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'none' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { referer: 'https://evil.example/page' },
      { referer: 'not a url' },
    ];
    for (const headers of refusedHeaders) {
      const refused = await quern.call('GET', query, { cookie: payer.cookie, headers });
      expect([JSON.stringify(headers), refused.status]).toEqual([JSON.stringify(headers), 403]);
    }
    expect((await quern.call('GET', '/api/quern/pending-transactions', { cookie: payer.cookie })).body).toEqual(before);
    // Older browsers without Fetch Metadata still work from Quern's own pages by Referer or Origin.
    const byReferer = await quern.call('GET', query, { cookie: payer.cookie, headers: { referer: `${quern.url}/millix/send` } });
    expect(byReferer.status).toBe(200);
    const byOrigin = await quern.call('GET', query, { cookie: payer.cookie, headers: { origin: quern.url } });
    expect(byOrigin.status).toBe(200);
  });

  it('returns the first transfer for a retried Idempotency-Key and appends nothing', async () => {
    const send = () =>
      quern.call('POST', '/api/millix/send', {
        cookie: payer.cookie,
        body: { to: payee.userName, amount: '5', fee: '1000' },
        headers: { 'idempotency-key': 'retry-me-1' },
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.body.transferId).toBe(first.body.transferId);
  });

  it.each([
    [{ to: 'nobody_here', amount: '5', fee: '1000' }, 404, 'errors:unknownRecipient'],
    [{ to: 'ghost@example.com', amount: '5', fee: '1000' }, 404, 'errors:unknownRecipient'],
    [{ to: 'rest_payee', amount: '5', fee: '999' }, 400, 'errors:invalidFee'],
    [{ to: 'rest_payee', amount: '0', fee: '1000' }, 400, undefined],
    [{ to: 'rest_payee', amount: '-5', fee: '1000' }, 400, undefined],
    [{ to: 'rest_payee', amount: '1.5', fee: '1000' }, 400, undefined],
    [{ to: 'rest_payee', amount: '99999999999999999999999', fee: '1000' }, 400, undefined],
    [{ to: `1${'x'.repeat(70)}`, amount: '5', fee: '1000' }, 400, undefined],
    [{ to: 'rest_payee', amount: '999999999', fee: '1000' }, 409, 'errors:insufficientFunds'],
  ])('refuses %j with %i and moves nothing', async (body, status, messageKey) => {
    const before = (await quern.call('GET', `/api/millix/balance/${payer.address}`, { cookie: payer.cookie })).body;
    const response = await quern.call('POST', '/api/millix/send', { cookie: payer.cookie, body });
    expect(response.status).toBe(status);
    if (messageKey) expect(response.body.messageKey).toBe(messageKey);
    expect(response.body.message).toEqual(expect.any(String));
    expect((await quern.call('GET', `/api/millix/balance/${payer.address}`, { cookie: payer.cookie })).body).toEqual(before);
  });

  it.each(['-1', 'abc', '1.5', '99999999999'])('answers page=%s with a 4xx, never a 5xx', async (page) => {
    const response = await quern.call('GET', `/api/quern/transactions?page=${page}`, { cookie: payer.cookie });
    expect(response.status).toBe(400);
  });

  it('answers garbage bodies and a bad Idempotency-Key with a 4xx', async () => {
    for (const body of ['{"to":', '[]', JSON.stringify({ to: 5, amount: {}, fee: [] })]) {
      const response = await quern.call('POST', '/api/millix/send', { cookie: payer.cookie, body });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    const badKey = await quern.call('POST', '/api/millix/send', {
      cookie: payer.cookie,
      body: { to: 'rest_payee', amount: '5', fee: '1000' },
      headers: { 'idempotency-key': 'has spaces' },
    });
    expect(badKey.status).toBe(400);
  });
});
