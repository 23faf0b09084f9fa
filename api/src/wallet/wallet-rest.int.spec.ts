// Proves the spec's wallet REST calls over real HTTP: each needs a session (401), balances are
// private (403), the state-changing GET send moves money only for a script's request from Quern's
// own pages (X-Requested-With, Fetch Metadata of a fetch, a same-origin signal), an Idempotency-Key retry
// returns the first transfer, unknown recipients move nothing, and no input produces a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve } from '../../test/ledger.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { verifyEmail } from '../../test/users.js';

let quern: TestQuern;
/** What the web app's own script sends with the GET send: Fetch Metadata of a fetch from a Quern page. */
const SCRIPT = {
  'x-requested-with': 'XMLHttpRequest',
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'cors',
  'sec-fetch-dest': 'empty',
};
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
  // Sends name the payee by e-mail too, which pays only a proven address (ADR 046).
  await verifyEmail(quern, user);
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
    const crossSite = await quern.call('GET', query, { cookie: payer.cookie, headers: { ...SCRIPT, 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const sent = await quern.call('GET', query, { cookie: payer.cookie, headers: { ...SCRIPT, 'sec-fetch-site': 'same-origin' } });
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
      const refused = await quern.call('GET', query, {
        cookie: payer.cookie,
        headers: { 'x-requested-with': 'XMLHttpRequest', ...headers },
      });
      expect([JSON.stringify(headers), refused.status]).toEqual([JSON.stringify(headers), 403]);
    }
    expect((await quern.call('GET', '/api/quern/pending-transactions', { cookie: payer.cookie })).body).toEqual(before);
    // Older browsers without Fetch Metadata still work from Quern's own pages by Referer or Origin.
    const byReferer = await quern.call('GET', query, {
      cookie: payer.cookie,
      headers: { 'x-requested-with': 'XMLHttpRequest', referer: `${quern.url}/millix/send` },
    });
    expect(byReferer.status).toBe(200);
    const byOrigin = await quern.call('GET', query, {
      cookie: payer.cookie,
      headers: { 'x-requested-with': 'XMLHttpRequest', origin: quern.url },
    });
    expect(byOrigin.status).toBe(200);
  });

  it('refuses the GET send to every navigation, image or frame, even from Quern’s own pages, and moves nothing; a script’s request sends', async () => {
    const query = `/api/millix/send?to=${encodeURIComponent(payee.userName)}&amount=7&fee=1000`;
    const balance = async () => (await quern.call('GET', `/api/millix/balance/${payer.address}`, { cookie: payer.cookie })).body;
    const history = async () => (await quern.call('GET', '/api/quern/transactions?page=0', { cookie: payer.cookie })).body;
    const [balanceBefore, historyBefore] = [await balance(), await history()];
    const sameOrigin = { 'sec-fetch-site': 'same-origin', referer: `${quern.url}/checkout` };
    const refusedHeaders: Record<string, string>[] = [
      // A click on the checkout's "Back to shop" link (a top-level navigation from a Quern page).
      { ...sameOrigin, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-user': '?1' },
      { ...sameOrigin, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      { ...sameOrigin, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
      // A script's request without the header (or with another value) is not enough either.
      { ...sameOrigin, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
      { ...sameOrigin, 'x-requested-with': 'fetch', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
      // The header cannot make a navigation or an image a script's request.
      { ...SCRIPT, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      { ...SCRIPT, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      { ...SCRIPT, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'iframe' },
    ];
    for (const headers of refusedHeaders) {
      const refused = await quern.call('GET', query, { cookie: payer.cookie, headers });
      expect([JSON.stringify(headers), refused.status, refused.body.messageKey]).toEqual([
        JSON.stringify(headers),
        403,
        'errors:crossSiteRequest',
      ]);
    }
    expect(await balance()).toEqual(balanceBefore);
    expect(await history()).toEqual(historyBefore);
    for (const mode of ['cors', 'same-origin']) {
      const sent = await quern.call('GET', query, { cookie: payer.cookie, headers: { ...SCRIPT, 'sec-fetch-mode': mode } });
      expect(sent.status).toBe(200);
    }
  });

  it('answers no CORS grant to a foreign origin’s preflight for the script header', async () => {
    const preflight = await quern.call('OPTIONS', '/api/millix/send?to=x&amount=1&fee=1000', {
      cookie: payer.cookie,
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-requested-with',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
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

  // A typed fraction or slip is refused, never read as another number: "12.5" must not become 125.
  it.each(['12.5', '12,5', '1x', '1,00', ',100', '1,000.5'])(
    'refuses amount %j on the spec’s GET send and on wallet.send with the whole-number message, and moves nothing',
    async (amount) => {
      const balance = async () => (await quern.call('GET', `/api/millix/balance/${payer.address}`, { cookie: payer.cookie })).body;
      const before = await balance();
      const query = new URLSearchParams({ to: payee.userName, amount, fee: '1000' });
      const byGet = await quern.call('GET', `/api/millix/send?${query}`, { cookie: payer.cookie, headers: SCRIPT });
      expect(byGet.status).toBe(400);
      expect(byGet.body.messageKey).toBe('errors:invalidAmount');
      expect(byGet.body.message).toBe('Please enter a whole number of MLX, using digits only (thousands separators are allowed).');
      const byTrpc = await quern.call('POST', '/trpc/wallet.send', {
        cookie: payer.cookie,
        body: { to: payee.userName, amount, fee: '1000', idempotencyKey: `whole-${encodeURIComponent(amount)}` },
      });
      expect(byTrpc.status).toBe(400);
      expect(byTrpc.body.error.message).toBe('Please enter a whole number of MLX, using digits only (thousands separators are allowed).');
      expect(await balance()).toEqual(before);
    },
  );

  it.each(['-1', 'abc', '1.5', '99999999999'])('answers page=%s with a 4xx, never a 5xx', async (page) => {
    const response = await quern.call('GET', `/api/quern/transactions?page=${page}`, { cookie: payer.cookie });
    expect(response.status).toBe(400);
  });

  it('filters the history by the optional query parameters, and answers exactly as the spec without them', async () => {
    const plain = await quern.call('GET', '/api/quern/transactions?page=0', { cookie: payer.cookie });
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body).sort()).toEqual(['limit', 'page', 'total', 'transactions']);
    const rows = plain.body.transactions as { transaction_type: string; to_user?: { username: string } }[];
    const sentToPayee = rows.filter((t) => t.transaction_type === 'debit' && t.to_user?.username === payee.userName);
    expect(sentToPayee.length).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    const query = new URLSearchParams({ page: '0', kind: 'sent', counterparty: payee.userName.toUpperCase(), from: today, to: today });
    const filtered = await quern.call('GET', `/api/quern/transactions?${query}`, { cookie: payer.cookie });
    expect(filtered.status).toBe(200);
    expect(filtered.body.total).toBe(sentToPayee.length);
    expect(filtered.body.transactions).toEqual(sentToPayee);
    const received = await quern.call('GET', '/api/quern/transactions?kind=received&counterparty=rest_payee', { cookie: payer.cookie });
    expect(received.body).toEqual({ transactions: [], total: 0, page: 0, limit: 10 });
  });

  it.each([
    ['kind=DEBIT', { kind: 'errors:historyFilterKind' }],
    ['counterparty=a%20b', { counterparty: 'errors:historyFilterCounterparty' }],
    ['from=2026-13-01', { from: 'errors:historyFilterFrom' }],
    ['to=yesterday', { to: 'errors:historyFilterTo' }],
    ['from=2026-02-02&to=2026-02-01', { to: 'errors:historyFilterRange' }],
    ['from=2000-01-01&to=2026-01-01', { to: 'errors:historyFilterRangeTooWide' }],
    ['kind=sent&kind=received', { kind: 'errors:historyFilterKind' }],
  ])('refuses the history filter %s with 400 and a message per field, in English and Spanish', async (params, fields) => {
    const en = await quern.call('GET', `/api/quern/transactions?${params}`, { cookie: payer.cookie });
    expect(en.status).toBe(400);
    expect(en.body.fields).toEqual(fields);
    const es = await quern.call('GET', `/api/quern/transactions?${params}`, { cookie: payer.cookie, headers: { 'accept-language': 'es' } });
    expect(es.status).toBe(400);
    expect(es.body.message).not.toBe(en.body.message);
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
