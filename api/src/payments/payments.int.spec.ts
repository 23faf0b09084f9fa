// Proves the merchant's payments over real HTTP (ADR 034): a key lists its own paid checkout orders newest first with shopper, rate, USD value and refunds (a refund recorded on the order's stream updates status and total); another merchant's payment is no cursor (400 naming starting_after); bad limits are 400; a walk by cursor while payments keep arriving sees every payment once, newest first, with no gaps; /api/v1/balance answers the wallet's balance; the CSV export (by key and by session) has the header, the rows in created order and an attachment name; tRPC payments.list answers the same page; and nothing is answered without a key or session.
import { checkoutStream } from '@quern/core/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

type User = TestUser;

let quern: TestQuern;
let shopper: User;
let shopA: User;
let shopB: User;
let keyA: string;
let keyB: string;
let orderA1: string;
let orderA2: string;
let orderB: string;

const register = (name: string): Promise<User> => registerUser(quern, name);

const generateKey = (user: User): Promise<string> => generateApiKey(quern, user);

async function pay(to: User, marker: string, priceMlx: string): Promise<string> {
  const body = { cart: [{ name: `Tea ${marker}`, price: priceMlx, quantity: 1 }], price: priceMlx, currency: 'MLX', to: to.name };
  const answer = await quern.call('POST', '/api/quern/checkout', { cookie: shopper.cookie, body });
  expect([answer.status, answer.body.success]).toEqual([200, true]);
  return answer.body.order as string;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const list = (key: string, query = '') => quern.call('GET', `/api/v1/payments${query}`, { headers: bearer(key) });

/** Waits until the merchant's newest payment is `orderId` (the read model caught up). */
async function newestIs(key: string, orderId: string, check: (p: Record<string, unknown>) => boolean = () => true): Promise<void> {
  await eventually(async () => {
    const first = (await list(key, '?limit=1')).body.data?.[0];
    return first?.id === orderId && check(first) ? true : undefined;
  });
}

/** A refund as the refund command records it, appended on the order's own stream. */
async function refund(orderId: string, merchant: User, n: number, mlx: string): Promise<void> {
  const refundId = `re_${n.toString(16).padStart(32, '0')}`;
  await quern.store.append(
    checkoutStream(orderId.split('-')[0] as string),
    [
      {
        type: 'CheckoutRefunded',
        data: {
          refundId,
          orderId,
          merchantUserId: merchant.id,
          shopperUserId: shopper.id,
          mlx,
          transferId: `refund-${refundId}`,
          refundedAt: new Date().toISOString(),
        },
      },
    ],
    'any',
  );
}

let synthetic = 0;
/** A payment recorded straight in the log (no ledger transfer): the read model reads only the event. */
async function recordPaid(merchant: User): Promise<string> {
  const intent = (0xabc000000 + ++synthetic).toString(16).padStart(32, '0');
  const orderId = `${intent}-1`;
  await quern.store.append(
    checkoutStream(intent),
    [
      {
        type: 'CheckoutPaid',
        data: {
          orderId,
          shopperUserId: shopper.id,
          merchantUserId: merchant.id,
          mlx: String(1000 + synthetic),
          cartDigest: 'c'.repeat(64),
          transferId: `checkout-${orderId}`,
          paidAt: new Date().toISOString(),
        },
      },
    ],
    'no_stream',
  );
  return orderId;
}

beforeAll(async () => {
  quern = await startTestQuern({
    REGISTRATIONS_PER_IP_HOUR: '1000',
    API_KEY_REQUESTS_PER_MINUTE: '100000',
    EXCHANGE_RATE_USD_PER_MLX: '0.0000125',
  });
  shopper = await register('pay_shopper');
  shopA = await register('pay_shop_a');
  shopB = await register('pay_shop_b');
  await fundFromReserve(quern.store, shopper.address, 5_000_000n);
  await eventually(async () => {
    const balance = await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie });
    return balance.body.stable === '5000000' ? true : undefined;
  });
  keyA = await generateKey(shopA);
  keyB = await generateKey(shopB);
  orderA1 = await pay(shopA, 'a1', '800000');
  orderA2 = await pay(shopA, 'a2', '400001');
  orderB = await pay(shopB, 'b', '1000');
  await newestIs(keyA, orderA2);
  await newestIs(keyB, orderB);
});
afterAll(async () => {
  await quern?.stop();
});

describe('GET /api/v1/payments', () => {
  it("answers the merchant's own payments, newest first, with shopper, rate and exact USD value", async () => {
    const answer = await list(keyA);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(answer.body.data).toMatchObject([
      {
        id: orderA2,
        object: 'payment',
        status: 'paid',
        amount: '400001',
        amount_refunded: '0',
        currency: 'MLX',
        usd_rate: '0.0000125',
        // 400,001 × 0.0000125 = 5.0000125 USD: rounded to the cent.
        usd_value: '5.00',
        shopper_username: 'pay_shopper',
        refunds: [],
      },
      { id: orderA1, amount: '800000', usd_value: '10.00', status: 'paid' },
    ]);
    expect(Date.parse(answer.body.data[0].created_at)).not.toBeNaN();
    expect((await list(keyB)).body.data.map((p: { id: string }) => p.id)).toEqual([orderB]);
  });

  it('shows refunds under their payment: partially refunded, then refunded', async () => {
    await refund(orderA1, shopA, 1, '300000');
    await eventually(async () => ((await list(keyA)).body.data[1]?.status === 'partially_refunded' ? true : undefined));
    await refund(orderA1, shopA, 2, '500000');
    const refunded = await eventually(async () => {
      const payment = (await list(keyA)).body.data[1];
      return payment?.status === 'refunded' ? payment : undefined;
    });
    expect(refunded).toMatchObject({ id: orderA1, amount_refunded: '800000' });
    expect(refunded.refunds.map((r: { amount: string }) => r.amount)).toEqual(['300000', '500000']);
  });

  it("refuses another merchant's payment as a cursor, and bad limits, with a 400 naming the field", async () => {
    const foreign = await list(keyA, `?starting_after=${orderB}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({
      type: 'invalid_request_error',
      field: 'starting_after',
      message: expect.stringMatching(/\S/),
    });
    for (const limit of ['0', '101', 'x', '2.5']) {
      const answer = await list(keyA, `?limit=${limit}`);
      expect(answer.status, limit).toBe(400);
      expect(answer.body.error, limit).toMatchObject({ field: 'limit', message: expect.stringMatching(/\S/) });
    }
    expect((await quern.call('GET', '/api/v1/payments')).status).toBe(401);
    expect((await quern.call('GET', '/api/v1/payments', { cookie: shopA.cookie })).status).toBe(401);
  });

  it('given a walk by cursor while payments keep arriving, then every payment is seen once, newest first, without gaps', async () => {
    const shopC = await register('pay_shop_c');
    const keyC = await generateKey(shopC);
    const before: string[] = [];
    for (let i = 0; i < 23; i++) before.push(await recordPaid(shopC));
    await newestIs(keyC, before[22] as string);

    const seen: string[] = [];
    let cursor: string | null = null;
    const arrived: string[] = [];
    do {
      const page = await list(keyC, `?limit=5${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((p: { id: string }) => p.id));
      cursor = page.body.next_cursor;
      for (let k = 0; k < 2; k++) arrived.push(await recordPaid(shopC));
      await newestIs(keyC, arrived[arrived.length - 1] as string);
    } while (cursor !== null);

    expect(seen).toEqual([...before].reverse());
    const fresh = await list(keyC, '?limit=100');
    expect(fresh.body.data.map((p: { id: string }) => p.id)).toEqual([...before, ...arrived].reverse());
  });
});

describe('GET /api/v1/balance', () => {
  it("answers the merchant's wallet balance as the spec's balance call does, and 401 without a key", async () => {
    const mine = await quern.call('GET', `/api/millix/balance/${shopA.address}`, { cookie: shopA.cookie });
    const answer = await quern.call('GET', '/api/v1/balance', { headers: bearer(keyA) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ stable: mine.body.stable, unstable: mine.body.unstable, livemode: false });
    expect(answer.body.stable).toBe('1200001');
    expect((await quern.call('GET', '/api/v1/balance')).status).toBe(401);
  });
});

describe('GET /api/v1/payments/export and the session export', () => {
  const header = 'order,created,amount,refunded,currency,usd_rate,usd_value,shopper';
  const today = new Date().toISOString().slice(0, 10);

  it('answers a CSV attachment: the header, then the rows in created order', async () => {
    const answer = await fetch(`${quern.url}/api/v1/payments/export?from=2020-01-01&to=${today}`, { headers: bearer(keyA) });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="quern-payments-2020-01-01-${today}.csv"`);
    const lines = (await answer.text()).split('\r\n');
    expect(lines[0]).toBe(header);
    expect(lines.slice(1, 3).map((l) => l.split(',')[0])).toEqual([orderA1, orderA2]);
    expect(lines[1]?.split(',').slice(2)).toEqual(['800000', '800000', 'MLX', '0.0000125', '10.00', 'pay_shopper']);
    expect(lines[3]).toBe('');
    expect(lines).toHaveLength(4);
  });

  it('exports nothing outside the range, and refuses reversed or malformed ranges with a 400', async () => {
    const empty = await fetch(`${quern.url}/api/v1/payments/export?from=2020-01-01&to=2020-12-31`, { headers: bearer(keyA) });
    expect(await empty.text()).toBe(`${header}\r\n`);
    for (const query of ['from=2026-03-02&to=2026-03-01', 'from=2026-02-30&to=2026-03-01', 'from=2026-03-01', 'from=x&to=y']) {
      const answer = await quern.call('GET', `/api/v1/payments/export?${query}`, { headers: bearer(keyA) });
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.field, query).toMatch(/^(from|to)$/);
    }
  });

  it('downloads the same file with the session cookie, and 401 without one', async () => {
    const byKey = await (await fetch(`${quern.url}/api/v1/payments/export?from=2020-01-01&to=${today}`, { headers: bearer(keyA) })).text();
    const bySession = await fetch(`${quern.url}/api/quern/payments/export?from=2020-01-01&to=${today}`, {
      headers: { cookie: shopA.cookie },
    });
    expect(bySession.status).toBe(200);
    expect(bySession.headers.get('content-disposition')).toContain('attachment');
    expect(await bySession.text()).toBe(byKey);
    expect((await quern.call('GET', `/api/quern/payments/export?from=2020-01-01&to=${today}`)).status).toBe(401);
  });
});

describe('tRPC payments.list', () => {
  it('answers the signed-in merchant the same page as the merchant API, and 401 without a session', async () => {
    const input = encodeURIComponent(JSON.stringify({ limit: 1 }));
    const answer = await quern.call('GET', `/trpc/payments.list?input=${input}`, { cookie: shopA.cookie });
    expect(answer.status).toBe(200);
    const viaKey = await list(keyA, '?limit=1');
    // The merchant API marks every object with livemode (ADR 050); the web app's call does not.
    const { livemode, data, ...page } = viaKey.body;
    expect(livemode).toBe(false);
    expect(answer.body.result.data).toEqual({ ...page, data: data.map(({ livemode: _, ...payment }: { livemode: boolean }) => payment) });
    const next = encodeURIComponent(JSON.stringify({ limit: 1, cursor: viaKey.body.next_cursor }));
    expect((await quern.call('GET', `/trpc/payments.list?input=${next}`, { cookie: shopA.cookie })).body.result.data.data[0].id).toBe(
      orderA1,
    );
    expect((await quern.call('GET', `/trpc/payments.list?input=${input}`)).status).toBe(401);
  });
});
