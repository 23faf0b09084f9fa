// Proves the spec's buy calls over real HTTP against the local PayPal server: the reserve balance is
// a number; orders are priced by the server and refused outside 5–500 USD in PayPal's error shape;
// a PAYMENT.CAPTURE.COMPLETED webhook verified with PayPal completes an order whose browser went
// away; the reserve transfer moves the order's MLX once and refuses made-up ids, someone else's
// order, another amount and a second claim; forged, altered and replayed webhooks change nothing;
// refunds and reversals take MLX back; the ledger audit stays clean.
import { randomUUID } from 'node:crypto';
import { signWebhook, signatureBaseString, WEBHOOK_AUTH_ALGO } from '@quern/adapters/paypal/webhook-signature';
import { readPurchase } from '@quern/core/purchases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../test/ledger.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';

let quern: TestQuern;
let alice: { cookie: string; address: string };
let bob: { cookie: string; address: string };

async function register(name: string) {
  const user = {
    userName: name,
    firstName: 'B',
    lastName: 'Y',
    email: `${name}@example.com`,
    phone: `+1555${String(Math.random()).slice(2, 9)}`,
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const cookie = cookieOf(
    (await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } })).setCookie,
  );
  const { address } = (await quern.call('GET', '/api/millix/address', { cookie })).body as { address: string };
  return { cookie, address };
}

const cart = (value: string) => ({ cart: [{ id: 'millix', quantity: 1, amount: '1', value, currency_code: 'USD' }] });
const stable = async (user: { cookie: string; address: string }) =>
  BigInt((await quern.call('GET', `/api/millix/balance/${user.address}`, { cookie: user.cookie })).body.stable as string);

/** An order approved in the local PayPal popup and captured at PayPal, as if the buyer's page had gone away. */
async function capturedBehindQuern(user: { cookie: string }, value = '10.00') {
  const created = await quern.call('POST', '/api/paypal/orders', { cookie: user.cookie, body: cart(value) });
  expect(created.status).toBe(200);
  const orderId = created.body.id as string;
  const approved = await quern.call('POST', '/paypal-local/checkoutnow/approve', { cookie: user.cookie, body: { token: orderId } });
  expect(approved.status).toBe(200);
  const order = await quern.paypal.client.captureOrder(orderId, `test-${orderId}`);
  const captureId = order.capture?.id as string;
  // The local server delivers PAYMENT.CAPTURE.COMPLETED to /api/paypal/webhooks, which Quern verifies with it.
  await eventually(async () => ((await readPurchase({ store: quern.store }, orderId))?.captureId === captureId ? true : undefined));
  return { orderId, captureId, mlx: created.body.amount as string };
}

/** A webhook signed exactly as the local server signs its deliveries. */
function signedDelivery(event: Record<string, unknown>) {
  const local = quern.paypal.local;
  if (!local) throw new Error('the local PayPal server is not mounted');
  const rawBody = JSON.stringify(event);
  const transmissionId = randomUUID();
  const transmissionTime = new Date().toISOString();
  const sig = signWebhook(
    signatureBaseString({ transmissionId, transmissionTime, webhookId: local.webhookId, rawBody }),
    local.state.webhookKeyPair().privateKeyPem,
  );
  const headers = {
    'PAYPAL-TRANSMISSION-ID': transmissionId,
    'PAYPAL-TRANSMISSION-TIME': transmissionTime,
    'PAYPAL-TRANSMISSION-SIG': sig,
    'PAYPAL-CERT-URL': `${local.publicBaseUrl}/v1/notifications/certs/local`,
    'PAYPAL-AUTH-ALGO': WEBHOOK_AUTH_ALGO,
  };
  return { rawBody, headers };
}

async function expectCleanAudit() {
  const audit = await auditLog(quern.store);
  expect(audit.violations).toEqual([]);
}

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', PURCHASE_CREDIT_GRACE_MS: '600000' });
  alice = await register('buyer_alice');
  bob = await register('buyer_bob');
});
afterAll(async () => {
  await quern?.stop();
});

describe('buy REST calls', () => {
  it("GET /api/quern/reserve-balance answers the reserve's MLX as a number", async () => {
    const response = await quern.call('GET', '/api/quern/reserve-balance');
    expect(response.status).toBe(200);
    expect(typeof response.body).toBe('number');
    expect(response.body).toBeGreaterThan(0);
  });

  it('refuses the order, capture and transfer calls without a session (401)', async () => {
    expect((await quern.call('POST', '/api/paypal/orders', { body: cart('10') })).status).toBe(401);
    expect((await quern.call('POST', '/api/paypal/orders/ABC/capture')).status).toBe(401);
    expect((await quern.call('POST', '/api/reserve/transfer', { body: { id: 'ABC', amount: 1 } })).status).toBe(401);
  });

  it("given 4 USD or 500.01 USD, when ordering, then the limits message in PayPal's error shape, and no order", async () => {
    for (const value of ['4.00', '500.01']) {
      const response = await quern.call('POST', '/api/paypal/orders', { cookie: alice.cookie, body: cart(value) });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('Purchase amount must be between 5 USD - 500 USD');
      expect(response.body.details[0]).toMatchObject({ description: 'Purchase amount must be between 5 USD - 500 USD' });
      expect(typeof response.body.debug_id).toBe('string');
    }
  });

  it.each([
    [{ cart: [{ value: '10.001' }] }],
    [{ cart: [{ value: '-10' }] }],
    [{ cart: [{ value: '10', currency_code: 'EUR' }] }],
    [{ cart: [] }],
    [{}],
    [{ cart: 'ten dollars' }],
  ])('given a malformed cart %j, then 400 with a message', async (body) => {
    const response = await quern.call('POST', '/api/paypal/orders', { cookie: alice.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual(expect.any(String));
  });

  it('given 10 USD, then the server prices the MLX at its rate, whatever MLX the cart claims', async () => {
    const response = await quern.call('POST', '/api/paypal/orders', {
      cookie: alice.cookie,
      body: { cart: [{ id: 'millix', quantity: 1, amount: '999999999999', value: '10.00', currency_code: 'USD' }] },
    });
    expect(response.status).toBe(200);
    // 1 USD = 80,000 MLX by default.
    expect(response.body).toMatchObject({ status: 'CREATED', amount: '800000', value: '10.00', currency_code: 'USD' });
    const purchase = await readPurchase({ store: quern.store }, response.body.id);
    expect(purchase).toMatchObject({ usdCents: 1000n, mlx: 800_000n, usdPerMlx: '0.0000125', status: 'ordered' });
  });

  it('given a capture completed at PayPal, when the buyer claims it, then its MLX moves once; other claims move nothing', async () => {
    const before = await stable(alice);
    const { orderId, captureId, mlx } = await capturedBehindQuern(alice);

    const refusals = [
      [{ cookie: alice.cookie, body: { id: 'MADEUP123', amount: mlx } }, 404],
      [{ cookie: bob.cookie, body: { id: captureId, amount: mlx } }, 403],
      [{ cookie: alice.cookie, body: { id: captureId, amount: '1' } }, 400],
      [{ cookie: alice.cookie, body: { id: captureId } }, 400],
      [{ cookie: alice.cookie, body: { id: captureId, amount: -5 } }, 400],
    ] as const;
    for (const [options, status] of refusals) {
      const response = await quern.call('POST', '/api/reserve/transfer', options);
      expect(response.status, JSON.stringify(options.body)).toBe(status);
      expect(response.body.message).toEqual(expect.any(String));
    }
    expect(await stable(alice)).toBe(before);

    const credited = await quern.call('POST', '/api/reserve/transfer', {
      cookie: alice.cookie,
      body: { id: captureId, amount: Number(mlx) },
    });
    expect(credited.status).toBe(200);
    expect(credited.body).toMatchObject({ success: true, orderId, captureId, amount: mlx });
    expect(await stable(alice)).toBe(before + BigInt(mlx));

    const again = await quern.call('POST', '/api/reserve/transfer', { cookie: alice.cookie, body: { id: orderId, amount: mlx } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The MLX for this purchase has already been added to your wallet.');
    expect(await stable(alice)).toBe(before + BigInt(mlx));
    await expectCleanAudit();
  });

  it('given an order not yet captured, when claimed, then 409 and nothing moves', async () => {
    const created = await quern.call('POST', '/api/paypal/orders', { cookie: alice.cookie, body: cart('5') });
    const response = await quern.call('POST', '/api/reserve/transfer', {
      cookie: alice.cookie,
      body: { id: created.body.id, amount: created.body.amount },
    });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('This payment has not been completed yet.');
  });

  it('given a forged or altered webhook, then 400 and nothing is recorded; a replayed one records once', async () => {
    const created = await quern.call('POST', '/api/paypal/orders', { cookie: bob.cookie, body: cart('20') });
    const orderId = created.body.id as string;
    const event = {
      id: `WH-${randomUUID()}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource_type: 'capture',
      resource: {
        id: `CAP${orderId}`.slice(0, 20),
        status: 'COMPLETED',
        amount: { currency_code: 'USD', value: '20.00' },
        supplementary_data: { related_ids: { order_id: orderId } },
      },
    };
    const post = (rawBody: string, headers: Record<string, string>) =>
      quern.call('POST', '/api/paypal/webhooks', { body: rawBody, headers: { 'content-type': 'application/json', ...headers } });

    const forged = signedDelivery(event);
    expect(
      (await post(forged.rawBody, { ...forged.headers, 'PAYPAL-TRANSMISSION-SIG': Buffer.from('forged').toString('base64') })).status,
    ).toBe(400);
    const altered = forged.rawBody.replace('"20.00"', '"2000.00"');
    expect((await post(altered, forged.headers)).status).toBe(400);
    expect((await post(forged.rawBody, {})).status).toBe(400);
    expect((await readPurchase({ store: quern.store }, orderId))?.status).toBe('ordered');

    const first = await post(forged.rawBody, forged.headers);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ received: true, recorded: true });
    const replay = await post(forged.rawBody, forged.headers);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ received: true, recorded: false });
    expect((await readPurchase({ store: quern.store }, orderId))?.status).toBe('captured');
    await expectCleanAudit();
  });

  it('given a credited purchase, when PayPal refunds half and then reverses, then the MLX goes back to the reserve in proportion', async () => {
    const { captureId, mlx } = await capturedBehindQuern(bob, '10.00');
    expect((await quern.call('POST', '/api/reserve/transfer', { cookie: bob.cookie, body: { id: captureId, amount: mlx } })).status).toBe(
      200,
    );
    const credited = await stable(bob);

    await quern.paypal.client.refundCapture(captureId, { requestId: `refund-${captureId}`, usdCents: 500 });
    await eventually(async () => ((await stable(bob)) === credited - BigInt(mlx) / 2n ? true : undefined));

    const reversed = await quern.call('POST', `/paypal-local/local/captures/${captureId}/reverse`);
    expect(reversed.status).toBe(200);
    await eventually(async () => ((await stable(bob)) === credited - BigInt(mlx) ? true : undefined));

    // PayPal delivers again (its retries, a replay): the reversal is already recorded and nothing more moves.
    const again = signedDelivery({
      id: `WH-${randomUUID()}`,
      event_type: 'PAYMENT.CAPTURE.REVERSED',
      resource_type: 'capture',
      resource: { id: captureId, status: 'REVERSED', amount: { currency_code: 'USD', value: '10.00' } },
    });
    const replay = await quern.call('POST', '/api/paypal/webhooks', {
      body: again.rawBody,
      headers: { 'content-type': 'application/json', ...again.headers },
    });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ received: true, recorded: false });
    expect(await stable(bob)).toBe(credited - BigInt(mlx));
    await expectCleanAudit();
  });
});
