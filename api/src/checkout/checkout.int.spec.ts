// Proves the spec's checkout call over real HTTP (ADR 029): a checkout pays the merchant exactly
// the price once, whether it is sent twice in a row or ten times at once; the token verifies for
// its order only; an unknown merchant, a cart whose total is not the price, another currency and
// paying oneself are refused with a message and move nothing; a shopper short of MLX gets the 4001
// answer with the MLX missing and the rate, and nothing moves; history rows name the payment; the
// ledger audit (checkouts included) stays clean after each.
import { verifyCheckoutToken } from '@quern/core/checkout';
import { readCheckoutOrder } from '@quern/core/refunds';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, fundFromReserve } from '../../test/ledger.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { verifyEmail } from '../../test/users.js';

const APP_SECRET = 'checkout-test-secret-0123456789abcdef';

interface User {
  id: string;
  name: string;
  email: string;
  cookie: string;
  address: string;
}

let quern: TestQuern;
let shopper: User;
let merchant: User;
let poor: User;

async function register(name: string, firstName = 'Ann', lastName = 'Shop'): Promise<User> {
  const user = {
    userName: name,
    firstName,
    lastName,
    email: `${name}@example.com`,
    phone: `+1555${String(Math.random()).slice(2, 9)}`,
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  const cookie = cookieOf(login.setCookie);
  const { address } = (await quern.call('GET', '/api/millix/address', { cookie })).body as { address: string };
  // Merchants are named by e-mail too, which pays only a proven address (ADR 046).
  await verifyEmail(quern, user);
  return { id: login.body.id as string, name, email: user.email, cookie, address };
}

const stable = async (user: User) =>
  BigInt((await quern.call('GET', `/api/millix/balance/${user.address}`, { cookie: user.cookie })).body.stable as string);

const checkout = (user: User, body: unknown) => quern.call('POST', '/api/quern/checkout', { cookie: user.cookie, body });

/** A cart of two lines, 3 × 100,000 + 1 × 50,000 = 350,000 MLX, with a marker so each test has its own intent. */
const order = (to: string, marker: string, extra: Record<string, unknown> = {}) => ({
  cart: [
    { name: `Tea ${marker}`, price: '100000', quantity: 3 },
    { name: 'Cup', price: 50000, quantity: '1' },
  ],
  price: '350000',
  currency: 'mlx',
  to,
  ...extra,
});

async function checkoutPaidCount(): Promise<number> {
  let count = 0;
  let after: bigint | undefined;
  for (;;) {
    const page = await quern.store.readAll({ after, maxCount: 1000 });
    count += page.filter((e) => e.type === 'CheckoutPaid').length;
    if (page.length < 1000) return count;
    after = page[page.length - 1]?.position;
  }
}

async function expectCleanAudit() {
  const audit = await auditLog(quern.store);
  expect(audit.violations).toEqual([]);
  return audit;
}

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', APP_SECRET });
  shopper = await register('shopper_one');
  merchant = await register('merchant_one', 'Mia', 'Market');
  poor = await register('shopper_poor');
  await fundFromReserve(quern.store, shopper.address, 5_000_000n);
  await fundFromReserve(quern.store, poor.address, 100_000n);
  await eventually(async () => ((await stable(poor)) === 100_000n ? true : undefined));
});
afterAll(async () => {
  await quern?.stop();
});

describe('POST /api/quern/checkout', () => {
  it('given a funded shopper, when a checkout is sent twice in a row, then it pays the price once and both answers are the same order and token', async () => {
    const [shopperBefore, merchantBefore, paidBefore] = [await stable(shopper), await stable(merchant), await checkoutPaidCount()];
    const first = await checkout(shopper, order(merchant.name, 'twice'));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, message: 'Payment complete.', token: expect.any(String), order: expect.any(String) });
    const second = await checkout(shopper, order(merchant.name, 'twice'));
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await checkoutPaidCount()).toBe(paidBefore + 1);
    expect(await stable(shopper)).toBe(shopperBefore - 350_000n);
    expect(await stable(merchant)).toBe(merchantBefore + 350_000n);
    await expectCleanAudit();
  });

  it('given ten identical checkouts at once (a second tab, a double click), then one payment is made and all ten answer it', async () => {
    const [shopperBefore, paidBefore] = [await stable(shopper), await checkoutPaidCount()];
    const answers = await Promise.all(Array.from({ length: 10 }, () => checkout(shopper, order(merchant.email, 'burst'))));
    for (const answer of answers) expect([answer.status, answer.body.success]).toEqual([200, true]);
    expect(new Set(answers.map((a) => a.body.order)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.token)).size).toBe(1);
    expect(await checkoutPaidCount()).toBe(paidBefore + 1);
    expect(await stable(shopper)).toBe(shopperBefore - 350_000n);
    const audit = await expectCleanAudit();
    expect(audit.checkouts.paid).toBe(await checkoutPaidCount());
  });

  it('given a paid order, then its token verifies with the app secret for that order, merchant and amount only, and the order reads back', async () => {
    const paid = (await checkout(shopper, order(merchant.name, 'token'))).body;
    const other = (await checkout(shopper, order(merchant.name, 'token-other'))).body;
    const claim = { orderId: paid.order as string, merchantUserId: merchant.id, mlx: 350_000n };
    expect(verifyCheckoutToken(APP_SECRET, paid.token, claim)).toBe(true);
    expect(verifyCheckoutToken(APP_SECRET, other.token, claim)).toBe(false);
    expect(verifyCheckoutToken(APP_SECRET, paid.token, { ...claim, orderId: other.order })).toBe(false);
    expect(verifyCheckoutToken(APP_SECRET, paid.token, { ...claim, mlx: 350_001n })).toBe(false);
    expect(verifyCheckoutToken(APP_SECRET, paid.token, { ...claim, merchantUserId: shopper.id })).toBe(false);
    expect(await readCheckoutOrder({ store: quern.store }, paid.order)).toEqual({
      orderId: paid.order,
      status: 'paid',
      mlx: 350_000n,
      refundedMlx: 0n,
      currency: 'MLX',
      usdPerMlx: '0.0000125',
      shopperUserId: shopper.id,
      shopperUsername: shopper.name,
      merchantUserId: merchant.id,
      transferId: `checkout-${paid.order}`,
      createdAt: expect.any(String),
    });
    expect(await readCheckoutOrder({ store: quern.store }, `${paid.order}0`)).toBeUndefined();
  });

  it('given an unknown merchant, a wrong total, another currency or oneself as merchant, then each is refused with its message and nothing moves', async () => {
    const [shopperBefore, paidBefore] = [await stable(shopper), await checkoutPaidCount()];
    const refusals = [
      { body: order('nobody_here', 'r'), status: 404, field: 'to', message: 'The shop to be paid is not a user of this service.' },
      { body: order('nobody@example.com', 'r'), status: 404, field: 'to', message: 'The shop to be paid is not a user of this service.' },
      {
        body: order(merchant.name, 'r', { price: '350001' }),
        status: 400,
        field: 'price',
        message: "The cart's total does not match the price.",
      },
      {
        body: order(merchant.name, 'r', { currency: 'USD' }),
        status: 400,
        field: 'currency',
        message: 'Only MLX is accepted at checkout.',
      },
      { body: order(shopper.name, 'r'), status: 400, field: 'to', message: 'You cannot pay your own shop.' },
      { body: order(shopper.email.toUpperCase(), 'r'), status: 400, field: 'to', message: 'You cannot pay your own shop.' },
      { body: order(merchant.name, 'r', { cart: [] }), status: 400, field: 'cart', message: expect.any(String) },
    ];
    for (const refusal of refusals) {
      const answer = await checkout(shopper, refusal.body);
      expect([answer.status, answer.body.message], JSON.stringify(refusal.body)).toEqual([refusal.status, refusal.message]);
      expect(answer.body.fieldMessages?.[refusal.field], JSON.stringify(refusal.body)).toEqual(expect.stringMatching(/\S/));
    }
    expect(await stable(shopper)).toBe(shopperBefore);
    expect(await checkoutPaidCount()).toBe(paidBefore);
    await expectCleanAudit();
  });

  it('given a visitor, then the checkout needs a session', async () => {
    const answer = await quern.call('POST', '/api/quern/checkout', { body: order(merchant.name, 'visitor') });
    expect(answer.status).toBe(401);
    // Even with a malformed body: the session comes first.
    expect((await quern.call('POST', '/api/quern/checkout', { body: {} })).status).toBe(401);
  });

  it('given a shopper short of MLX, then the answer is 4001 with the MLX missing and the rate the rate call gives, and nothing moves', async () => {
    const [poorBefore, merchantBefore, paidBefore] = [await stable(poor), await stable(merchant), await checkoutPaidCount()];
    expect(poorBefore).toBe(100_000n);
    const answer = await checkout(poor, order(merchant.name, 'short'));
    const rate = (await quern.call('GET', '/api/millix/current-rate')).body.rate;
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: false,
      code: 4001,
      message: 'Not enough MLX: 250,000 MLX more is needed to complete this purchase.',
      data: { debit: '250000', rate },
    });
    expect(rate).toBe('0.0000125');
    expect([await stable(poor), await stable(merchant), await checkoutPaidCount()]).toEqual([poorBefore, merchantBefore, paidBefore]);
    await expectCleanAudit();
    // Topped up, the same checkout pays.
    await fundFromReserve(quern.store, poor.address, 250_000n);
    await eventually(async () => ((await stable(poor)) === 350_000n ? true : undefined));
    const paid = await checkout(poor, order(merchant.name, 'short'));
    expect(paid.body.success).toBe(true);
    expect(await stable(poor)).toBe(0n);
    await expectCleanAudit();
  });

  it('given a paid checkout, then both sides’ history rows name it a checkout payment of its order, fee 0', async () => {
    const paid = (await checkout(shopper, order(merchant.name, 'history'))).body;
    const rowOf = async (user: User) => {
      const page = await quern.call('GET', '/api/quern/transactions', { cookie: user.cookie });
      return (page.body.transactions as Array<Record<string, unknown>>).find((row) => row.transaction_hash === `checkout-${paid.order}`);
    };
    const shopperRow = await eventually(() => rowOf(shopper));
    expect(shopperRow).toMatchObject({
      transaction_type: 'debit',
      amount: '350000',
      fee: '0',
      purpose: { kind: 'checkout', order_id: paid.order },
    });
    const merchantRow = await eventually(() => rowOf(merchant));
    expect(merchantRow).toMatchObject({
      transaction_type: 'credit',
      amount: '350000',
      purpose: { kind: 'checkout', order_id: paid.order },
    });
  });
});

describe('tRPC checkout', () => {
  const trpcGet = (user: User, path: string, input: unknown) =>
    quern.call('GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { cookie: user.cookie });

  it('checkout.merchant names the merchant by display name, by username or e-mail, and says not found otherwise', async () => {
    for (const to of [merchant.name, merchant.email, ` ${merchant.email.toUpperCase()} `]) {
      const answer = await trpcGet(shopper, 'checkout.merchant', { to });
      expect(answer.body.result.data, to).toEqual({ found: true, displayName: 'Mia Market', username: merchant.name });
    }
    expect((await trpcGet(shopper, 'checkout.merchant', { to: 'nobody_here' })).body.result.data).toEqual({ found: false });
  });

  it('checkout.pay answers as the REST call does, and a repeat is the same order', async () => {
    const body = order(merchant.name, 'trpc');
    const pay = () => quern.call('POST', '/trpc/checkout.pay', { cookie: shopper.cookie, body });
    const first = (await pay()).body.result.data;
    expect(first).toMatchObject({ success: true, order: expect.any(String), token: expect.any(String) });
    expect((await pay()).body.result.data).toEqual(first);
    expect((await checkout(shopper, body)).body).toEqual(first);
    await expectCleanAudit();
  });
});
