// Proves that the local PayPal stand-in cannot be used to act as PayPal or as the payer: with
// PAYPAL_ENV=sandbox its control routes (approval page, approve, decline, reverse) answer 404 and
// credit nothing, and with PAYPAL_ENV=local an order is approved only by its buyer's own session
// (no session or another user's session is refused with a clear message and changes nothing),
// while the PayPal protocol routes keep working for Quern.
import { readPurchase } from '@quern/core/purchases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../test/ledger.js';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';

async function register(quern: TestQuern, name: string) {
  const user = {
    userName: name,
    firstName: 'B',
    lastName: 'Y',
    email: `${name}@example.com`,
    phone: `+1555${String(Math.random()).slice(2, 9)}`,
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  return { cookie: cookieOf(login.setCookie) };
}

const cart = (value: string) => ({ cart: [{ id: 'millix', quantity: 1, amount: '1', value, currency_code: 'USD' }] });

describe('the local PayPal control routes with PAYPAL_ENV=local', () => {
  let quern: TestQuern;
  let buyer: { cookie: string };
  let mallory: { cookie: string };
  beforeAll(async () => {
    quern = await startTestQuern();
    buyer = await register(quern, 'controlbuyer');
    mallory = await register(quern, 'controlmallory');
  });
  afterAll(async () => {
    await quern.stop();
  });

  it("given a buyer's order, when another user's session or no session opens or approves it, then it is refused and the order stays unapproved", async () => {
    const created = await quern.call('POST', '/api/paypal/orders', { cookie: buyer.cookie, body: cart('10.00') });
    expect(created.status).toBe(200);
    const orderId = created.body.id as string;

    const pageForMallory = await fetch(`${quern.url}/paypal-local/checkoutnow?token=${orderId}`, { headers: { cookie: mallory.cookie } });
    expect(pageForMallory.status).toBe(403);
    const text = await pageForMallory.text();
    expect(text).toContain('This order belongs to another Quern account');
    expect(text).not.toContain('Approve payment');
    const pageForNobody = await fetch(`${quern.url}/paypal-local/checkoutnow?token=${orderId}`);
    expect(pageForNobody.status).toBe(403);
    expect(await pageForNobody.text()).toContain('Sign in to Quern as the buyer');

    for (const choice of ['approve', 'decline']) {
      const byMallory = await quern.call('POST', `/paypal-local/checkoutnow/${choice}`, {
        cookie: mallory.cookie,
        body: { token: orderId },
      });
      expect(byMallory.status).toBe(403);
      expect(byMallory.body).toMatchObject({ error: 'PAYER_NOT_ALLOWED', reason: 'notBuyer' });
      const byNobody = await quern.call('POST', `/paypal-local/checkoutnow/${choice}`, { body: { token: orderId } });
      expect(byNobody.status).toBe(403);
      expect(byNobody.body).toMatchObject({ error: 'PAYER_NOT_ALLOWED', reason: 'signedOut' });
    }
    expect((await quern.paypal.client.getOrder(orderId)).status).toBe('CREATED');
    await expect(quern.paypal.client.captureOrder(orderId, `attempt-${orderId}`)).rejects.toMatchObject({ issue: 'ORDER_NOT_APPROVED' });

    // The buyer's own session opens the page and approves; PayPal's protocol routes then capture.
    const page = await fetch(`${quern.url}/paypal-local/checkoutnow?token=${orderId}`, { headers: { cookie: buyer.cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Approve payment');
    expect((await quern.call('POST', '/paypal-local/checkoutnow/approve', { cookie: buyer.cookie, body: { token: orderId } })).status).toBe(
      200,
    );
    const captured = await quern.call('POST', `/api/paypal/orders/${orderId}/capture`, { cookie: buyer.cookie });
    expect(captured.status).toBe(200);
    expect(captured.body.status).toBe('COMPLETED');
  });

  it('given an order Quern never priced, when anyone tries to approve it, then nobody can', async () => {
    const order = await quern.paypal.client.createOrder({ usdCents: 1000, reference: 'not-quern', requestId: 'controls-not-quern' });
    const approved = await quern.call('POST', '/paypal-local/checkoutnow/approve', { cookie: buyer.cookie, body: { token: order.id } });
    expect(approved.status).toBe(403);
    expect((await quern.paypal.client.getOrder(order.id)).status).toBe('CREATED');
  });
});

describe('the local PayPal control routes with PAYPAL_ENV=sandbox', () => {
  let quern: TestQuern;
  beforeAll(async () => {
    quern = await startTestQuern({ PAYPAL_ENV: 'sandbox', PAYPAL_CLIENT_ID: 'sandbox-id', PAYPAL_CLIENT_SECRET: 'sandbox-secret' });
  });
  afterAll(async () => {
    await quern.stop();
  });

  it('given a deployment configured for PayPal, when someone calls the stand-in to approve, decline, reverse or open an approval page, then each answers 404 and nothing is credited', async () => {
    const before = await auditLog(quern.store);
    const user = await register(quern, 'sandboxvisitor');
    const calls = [
      quern.call('GET', '/paypal-local/checkoutnow?token=ORDER1', { cookie: user.cookie }),
      quern.call('POST', '/paypal-local/checkoutnow/approve', { cookie: user.cookie, body: { token: 'ORDER1' } }),
      quern.call('POST', '/paypal-local/checkoutnow/decline', { cookie: user.cookie, body: { token: 'ORDER1' } }),
      quern.call('POST', '/paypal-local/local/captures/CAPTURE1/reverse', { cookie: user.cookie }),
      quern.call('POST', '/paypal-local/v2/checkout/orders/ORDER1/capture', { cookie: user.cookie, body: {} }),
    ];
    for (const response of await Promise.all(calls)) expect(response.status).toBe(404);
    expect(await readPurchase({ store: quern.store }, 'ORDER1')).toBeUndefined();
    const after = await auditLog(quern.store);
    expect(after.violations).toEqual([]);
    expect(after.purchases.credited).toBe(before.purchases.credited);
    expect(after.purchases.creditedMlx).toBe(0n);
  });
});
