// Proves the integrator API's order verification over real HTTP (ADR 031): a merchant's key reads
// its own paid order with the spec's facts; no key, a wrong key, a deleted key and a session cookie
// get 401; another merchant's order is 404 exactly like a missing one; a payment token verifies
// for its own order and merchant only (a forged token, another order's token, a token replayed
// under another order id or shown to another merchant are refused); a shop's order reference is
// bound to the order and its token (a token of reference A is no proof for reference B, the same
// cart under two references is two orders) and answered back; and the per-key limit is 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve } from '../../test/ledger.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';

const APP_SECRET = 'merchant-orders-test-secret-0123456789';
const LIMIT = 40;

interface User {
  id: string;
  name: string;
  cookie: string;
  address: string;
}

let quern: TestQuern;
let registered = 0;
let shopper: User;
let shopA: User;
let shopB: User;
let keyA: string;
let keyB: string;
/** Two orders paid to shop A and one to shop B, with their tokens. */
let paidA1: { order: string; token: string };
let paidA2: { order: string; token: string };
let paidB: { order: string; token: string };

async function register(name: string): Promise<User> {
  const user = {
    userName: name,
    firstName: 'M',
    lastName: 'O',
    email: `${name}@example.com`,
    phone: `+1555100${String(++registered).padStart(4, '0')}`,
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  const cookie = cookieOf(login.setCookie);
  const { address } = (await quern.call('GET', '/api/millix/address', { cookie })).body as { address: string };
  return { id: login.body.id as string, name, cookie, address };
}

const generateKey = async (user: User): Promise<string> =>
  (await quern.call('POST', '/api/direct/key-generate', { cookie: user.cookie })).body.content.api_key as string;

async function pay(to: User, marker: string, reference?: string): Promise<{ order: string; token: string }> {
  const body = {
    cart: [{ name: `Tea ${marker}`, price: '120000', quantity: 2 }],
    price: '240000',
    currency: 'MLX',
    to: to.name,
    ...(reference === undefined ? {} : { reference }),
  };
  const answer = await quern.call('POST', '/api/quern/checkout', { cookie: shopper.cookie, body });
  expect([answer.status, answer.body.success]).toEqual([200, true]);
  return { order: answer.body.order as string, token: answer.body.token as string };
}

const bearer = (key: string | undefined): Record<string, string> => (key === undefined ? {} : { authorization: `Bearer ${key}` });
const getOrder = (key: string | undefined, order: string, token?: string, headers: Record<string, string> = {}) =>
  quern.call('GET', `/api/v1/orders/${encodeURIComponent(order)}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`, {
    headers: { ...bearer(key), ...headers },
  });
const verify = (key: string | undefined, token: unknown, headers: Record<string, string> = {}) =>
  quern.call('POST', '/api/v1/orders/verify', { body: { token }, headers: { ...bearer(key), ...headers } });

/** A token whose signature differs from the genuine one in its last character. */
const forged = (token: string) => `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', API_KEY_REQUESTS_PER_MINUTE: String(LIMIT), APP_SECRET });
  shopper = await register('order_shopper');
  shopA = await register('order_shop_a');
  shopB = await register('order_shop_b');
  await fundFromReserve(quern.store, shopper.address, 5_000_000n);
  await eventually(async () => {
    const balance = await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie });
    return balance.body.stable === '5000000' ? true : undefined;
  });
  keyA = await generateKey(shopA);
  keyB = await generateKey(shopB);
  paidA1 = await pay(shopA, 'a1');
  paidA2 = await pay(shopA, 'a2');
  paidB = await pay(shopB, 'b');
});
afterAll(async () => {
  await quern?.stop();
});

describe('the shop’s order reference', () => {
  const withReference = (path: string, reference: string) =>
    `${path}${path.includes('?') ? '&' : '?'}reference=${encodeURIComponent(reference)}`;

  it('binds the order and its token to the reference: the same cart under two references is two orders, each token verifies only as its own', async () => {
    const first = await pay(shopA, 'same-cart', 'order-1001');
    const second = await pay(shopA, 'same-cart', 'order-1002');
    expect(second.order).not.toBe(first.order);
    const verified = await verify(keyA, first.token);
    expect([verified.status, verified.body.id, verified.body.reference]).toEqual([200, first.order, 'order-1001']);
    expect((await getOrder(keyA, second.order)).body.reference).toBe('order-1002');
    // The merchant asks for the reference it expects: another order's token (same amount) is refused.
    const asked = (token: string, reference: string) =>
      quern.call('POST', '/api/v1/orders/verify', { body: { token, reference }, headers: bearer(keyA) });
    expect((await asked(first.token, 'order-1001')).status).toBe(200);
    const mismatch = await asked(first.token, 'order-1002');
    expect([mismatch.status, mismatch.body.error.code, mismatch.body.error.field]).toEqual([
      404,
      'checkout_reference_mismatch',
      'reference',
    ]);
    expect((await asked(second.token, 'order-1001')).status).toBe(404);
    expect((await asked(paidA2.token, 'order-1001')).status).toBe(404);
    const byGet = (order: string, token: string, reference: string) =>
      quern.call('GET', withReference(`/api/v1/orders/${order}?token=${encodeURIComponent(token)}`, reference), { headers: bearer(keyA) });
    expect((await byGet(first.order, first.token, 'order-1001')).body.reference).toBe('order-1001');
    expect((await byGet(first.order, first.token, 'order-1002')).status).toBe(404);
  });

  it('refuses a reference that is too long or has unsafe characters, with a message on `reference`, and pays nothing', async () => {
    const before = (await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie })).body;
    for (const reference of ['', ' order-1', 'order 1', '<script>', 'a'.repeat(65), 'caf\u00e9', 'x\ny', 42]) {
      const body = { cart: [{ name: 'Tea', price: '5', quantity: 1 }], price: '5', currency: 'MLX', to: shopA.name, reference };
      const answer = await quern.call('POST', '/api/quern/checkout', { cookie: shopper.cookie, body });
      expect([JSON.stringify(reference), answer.status, answer.body.messageKey, answer.body.fieldMessages?.reference]).toEqual([
        JSON.stringify(reference),
        400,
        'errors:checkoutInvalidReference',
        'The order reference must be 1 to 64 letters, digits or the characters . _ - : / #.',
      ]);
    }
    const bad = await quern.call('POST', '/api/v1/orders/verify', {
      body: { token: paidA1.token, reference: 'a b' },
      headers: bearer(keyA),
    });
    expect([bad.status, bad.body.error.field]).toEqual([400, 'reference']);
    expect((await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie })).body).toEqual(before);
  });

  it('pays with a reference through the web app’s checkout.pay too', async () => {
    const input = {
      cart: [{ name: 'Tea trpc', price: '7', quantity: 1 }],
      price: '7',
      currency: 'mlx',
      to: shopA.name,
      reference: 'INV/2026#7',
    };
    const answer = await quern.call('POST', '/trpc/checkout.pay', {
      cookie: shopper.cookie,
      body: input,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(answer.status).toBe(200);
    const paid = answer.body.result.data as { order: string; token: string };
    expect((await verify(keyA, paid.token)).body.reference).toBe('INV/2026#7');
  });
});

describe('GET /api/v1/orders/{order}', () => {
  it('answers the merchant its paid order: id, status, amount, currency, rate, shopper and time', async () => {
    const answer = await getOrder(keyA, paidA1.order);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: paidA1.order,
      status: 'paid',
      amount: '240000',
      amount_refunded: '0',
      currency: 'MLX',
      rate: '0.0000125',
      shopper_username: 'order_shopper',
      reference: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      livemode: false,
    });
    expect((await getOrder(keyA, paidA1.order, paidA1.token)).body).toEqual(answer.body);
  });

  it('no key, a wrong key, a deleted key and a session cookie alone get 401 with WWW-Authenticate', async () => {
    const gone = await register('order_shop_gone');
    const goneKey = await generateKey(gone);
    expect((await quern.call('POST', '/api/direct/key-delete', { cookie: gone.cookie })).status).toBe(200);
    const refusals = [
      await getOrder(undefined, paidA1.order),
      await getOrder(`qk_test_${'x'.repeat(43)}`, paidA1.order),
      await getOrder(goneKey, paidA1.order),
      await getOrder(undefined, paidA1.order, undefined, { cookie: shopA.cookie }),
      await getOrder('', paidA1.order),
      await verify(undefined, paidA1.token),
      await verify(goneKey, paidA1.token),
      await verify(undefined, paidA1.token, { cookie: shopA.cookie }),
    ];
    for (const answer of refusals) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="quern"');
      expect(answer.body.error.message).toMatch(/API key/);
    }
  });

  it("another merchant's order is 404, answered exactly like an order that does not exist", async () => {
    const foreign = await getOrder(keyB, paidA1.order);
    const missing = await getOrder(keyB, `${'0'.repeat(32)}-1`);
    const nonsense = await getOrder(keyB, 'not-an-order');
    for (const answer of [foreign, missing, nonsense]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error).toEqual({ type: 'not_found_error', code: foreign.body.error.code, message: 'This order was not found.' });
    }
    // Its genuine token does not help either.
    expect((await getOrder(keyB, paidA1.order, paidA1.token)).status).toBe(404);
  });

  it("with a token, the token must be this order's: another order's token or a forged one is refused", async () => {
    expect((await getOrder(keyA, paidA1.order, paidA2.token)).status).toBe(404);
    expect((await getOrder(keyA, paidA1.order, forged(paidA1.token))).status).toBe(404);
    const replayed = `${paidA2.order}.${paidA1.token.split('.')[1]}`;
    const answer = await getOrder(keyA, paidA2.order, replayed);
    expect(answer.status).toBe(404);
    expect(answer.body.error.message).toBe('This token is not a genuine payment token of one of your orders.');
  });
});

describe('POST /api/v1/orders/verify', () => {
  it('a genuine token answers the order it was made for', async () => {
    const answer = await verify(keyA, paidA2.token);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: paidA2.order, status: 'paid', amount: '240000', currency: 'MLX' });
    expect((await verify(keyB, paidB.token)).body.id).toBe(paidB.order);
  });

  it('a forged token, a signature replayed under another order id, or another merchant’s token are refused alike (404)', async () => {
    const replayed = `${paidA2.order}.${paidA1.token.split('.')[1]}`;
    const madeUp = `${'0'.repeat(32)}-1.${'A'.repeat(43)}`;
    const refusals = [
      await verify(keyA, forged(paidA1.token)),
      await verify(keyA, replayed),
      await verify(keyA, madeUp),
      await verify(keyA, paidB.token),
      await verify(keyB, paidA1.token),
      await verify(keyA, 'plain nonsense'),
    ];
    for (const answer of refusals) {
      expect(answer.status).toBe(404);
      expect(answer.body.error.message).toBe('This token is not a genuine payment token of one of your orders.');
    }
  });

  it('answers in Spanish for a Spanish caller', async () => {
    const answer = await verify(keyA, forged(paidA1.token), { 'accept-language': 'es' });
    expect(answer.body.error.message).toBe('Este token no es un comprobante de pago auténtico de uno de sus pedidos.');
  });

  it('a missing or non-string token is a 400 naming the field', async () => {
    for (const body of [{}, { token: 5 }, { token: '' }, { token: 'x'.repeat(300) }]) {
      const answer = await quern.call('POST', '/api/v1/orders/verify', { body, headers: bearer(keyA) });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', field: 'token', message: expect.stringMatching(/\S/) });
    }
  });
});

describe('per-key rate limit on the order calls', () => {
  it('after API_KEY_REQUESTS_PER_MINUTE calls the key gets 429 with Retry-After; the other merchant is unaffected', async () => {
    const busy = await register('order_shop_busy');
    const busyKey = await generateKey(busy);
    for (let i = 0; i < LIMIT; i++) expect((await getOrder(busyKey, paidA1.order)).status).toBe(404);
    const limited = await verify(busyKey, paidA1.token);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ type: 'rate_limit_error', code: 'too_many_requests' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await getOrder(keyA, paidA1.order)).status).toBe(200);
  });
});
