// Proves the local PayPal server speaks PayPal's protocol by driving it through Quern's PayPal
// adapter (the SDK-based client that also talks to sandbox and live): token, orders, approval,
// capture failures, idempotency, refunds, reversal, signed webhooks and the verify endpoint,
// and state that survives a restart. Raw fetch is used only for what the SDK cannot send.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPayPalClient, type PayPalClient, PayPalError } from '../client.js';
import { createLocalPayPal, LOCAL_WEBHOOK_ID, type LocalPayPal } from './index.js';

const CLIENT_ID = 'test-client';
const CLIENT_SECRET = 'test-secret';

interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/** A webhook listener that records deliveries and can refuse the next few. */
class Receiver {
  deliveries: Delivery[] = [];
  refuseNext = 0;
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  handle(headers: Delivery['headers'], rawBody: string): number {
    this.deliveries.push({ headers, rawBody });
    this.notify();
    if (this.refuseNext > 0) {
      this.refuseNext -= 1;
      return 500;
    }
    return 200;
  }

  /** Resolves when `count` deliveries (refused ones included) have arrived. */
  waitFor(count: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ count, resolve });
      this.notify();
    });
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) {
      if (this.deliveries.length >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}

const root = mkdtempSync(join(tmpdir(), 'quern-paypal-local-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let server: Server;
let baseUrl: string;
let paypalServer: LocalPayPal | undefined;
let receiver: Receiver;
let dataDirCounter = 0;

beforeAll(async () => {
  const app = express();
  // The router is swapped per test (and on "restart"), the HTTP server stays.
  app.use('/paypal-local', (req, res, next) => {
    if (!paypalServer) return next();
    paypalServer.router(req, res, next);
  });
  app.post('/webhook', express.raw({ type: '*/*' }), (req, res) => {
    res.sendStatus(receiver.handle(req.headers, (req.body as Buffer).toString('utf8')));
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const newDataDir = () => {
  dataDirCounter += 1;
  return join(root, `data-${dataDirCounter}`);
};

const open = (dataDir: string) => {
  paypalServer = createLocalPayPal({
    dataDir,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    publicBaseUrl: `${baseUrl}/paypal-local`,
    webhookUrl: `${baseUrl}/webhook`,
    webhookId: LOCAL_WEBHOOK_ID,
    webhookRetryDelaysMs: [1, 1, 1],
    controlsEnabled: true,
  });
  return paypalServer;
};

const client = (overrides: Partial<Parameters<typeof createPayPalClient>[0]> = {}): PayPalClient =>
  createPayPalClient({
    baseUrl: `${baseUrl}/paypal-local`,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    webhookId: LOCAL_WEBHOOK_ID,
    ...overrides,
  });

async function paypalError(promise: Promise<unknown>): Promise<PayPalError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PayPalError) return error;
    throw error;
  }
  throw new Error('expected a PayPalError');
}

async function rawToken(): Promise<string> {
  const response = await fetch(`${baseUrl}/paypal-local/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 32_400 });
  expect(typeof body.scope).toBe('string');
  expect(typeof body.app_id).toBe('string');
  expect(typeof body.nonce).toBe('string');
  return String(body.access_token);
}

let requestCounter = 0;
const requestId = () => {
  requestCounter += 1;
  return `req-${requestCounter}`;
};

describe('local PayPal server through Quern’s PayPal client', () => {
  let paypal: PayPalClient;
  let local: LocalPayPal;

  beforeEach(() => {
    receiver = new Receiver();
    local = open(newDataDir());
    paypal = client();
  });

  afterEach(async () => {
    await paypalServer?.close();
    paypalServer = undefined;
  });

  const approvedOrder = async (usdCents = 1000) => {
    const order = await paypal.createOrder({ usdCents, reference: 'purchase-1', requestId: requestId() });
    local.state.approveOrder(order.id, { name: 'Ada Lovelace', email: 'ada@example.com' });
    return order;
  };

  it('creates, approves and captures an order', async () => {
    const created = await paypal.createOrder({ usdCents: 1234, reference: 'purchase-7', requestId: requestId() });
    expect(created).toMatchObject({ status: 'CREATED', usdCents: 1234, reference: 'purchase-7', capture: undefined });
    expect(created.id).toMatch(/^[0-9A-Z]{17}$/);
    expect(created.approveUrl).toBe(`${baseUrl}/paypal-local/checkoutnow?token=${created.id}`);

    const approved = local.state.approveOrder(created.id, { name: 'Ada King Lovelace', email: 'ada@example.com' });
    expect(approved.payer).toMatchObject({ name: { given_name: 'Ada', surname: 'King Lovelace' }, email_address: 'ada@example.com' });
    expect(await paypal.getOrder(created.id)).toMatchObject({ status: 'APPROVED', payerEmail: 'ada@example.com' });

    const captured = await paypal.captureOrder(created.id, requestId());
    expect(captured.status).toBe('COMPLETED');
    expect(captured.capture).toMatchObject({ status: 'COMPLETED', usdCents: 1234 });
    expect(captured.approveUrl).toBeUndefined();
    expect(await paypal.getOrder(created.id)).toMatchObject({ status: 'COMPLETED', capture: captured.capture });
  });

  it('renders the capture as PayPal does', async () => {
    const order = await approvedOrder();
    const token = await rawToken();
    const response = await fetch(`${baseUrl}/paypal-local/v2/checkout/orders/${order.id}/capture`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { purchase_units: Array<{ payments: { captures: Array<Record<string, unknown>> } }> };
    const capture = body.purchase_units[0]!.payments.captures[0]!;
    expect(capture).toMatchObject({
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '10.00' },
      final_capture: true,
      custom_id: 'purchase-1',
    });
    expect(capture.seller_protection).toMatchObject({ status: 'ELIGIBLE' });
    expect(typeof capture.create_time).toBe('string');
    expect(typeof capture.update_time).toBe('string');
    expect(body).toMatchObject({ payer: { email_address: 'ada@example.com' } });
  });

  it('refuses to capture an order the buyer has not approved', async () => {
    const order = await paypal.createOrder({ usdCents: 1000, reference: 'r', requestId: requestId() });
    const error = await paypalError(paypal.captureOrder(order.id, requestId()));
    expect(error).toMatchObject({ status: 422, name: 'UNPROCESSABLE_ENTITY', issue: 'ORDER_NOT_APPROVED' });
    expect(error.debugId).toMatch(/^[0-9a-f]{13}$/);
  });

  it('declines a card once, then captures after the buyer approves again', async () => {
    const order = await paypal.createOrder({ usdCents: 1000, reference: 'r', requestId: requestId() });
    local.state.declineCard(order.id);
    expect((await paypal.getOrder(order.id)).status).toBe('APPROVED');
    const declinedWith = requestId();
    const error = await paypalError(paypal.captureOrder(order.id, declinedWith));
    expect(error).toMatchObject({ status: 422, issue: 'INSTRUMENT_DECLINED' });
    expect((await paypal.getOrder(order.id)).status).toBe('CREATED');
    expect(await paypalError(paypal.captureOrder(order.id, requestId()))).toMatchObject({ issue: 'ORDER_NOT_APPROVED' });

    local.state.approveOrder(order.id, { name: 'Ada Lovelace', email: 'ada@example.com' });
    // The same request id works now: failures are not remembered as the answer.
    const captured = await paypal.captureOrder(order.id, declinedWith);
    expect(captured.capture?.status).toBe('COMPLETED');
  });

  it('refuses a second capture of a completed order', async () => {
    const order = await approvedOrder();
    await paypal.captureOrder(order.id, requestId());
    expect(await paypalError(paypal.captureOrder(order.id, requestId()))).toMatchObject({ status: 422, issue: 'ORDER_ALREADY_CAPTURED' });
  });

  it('answers a retried PayPal-Request-Id with the first response', async () => {
    const createId = requestId();
    const first = await paypal.createOrder({ usdCents: 1000, reference: 'r', requestId: createId });
    const again = await paypal.createOrder({ usdCents: 1000, reference: 'r', requestId: createId });
    expect(again.id).toBe(first.id);
    const other = await paypal.createOrder({ usdCents: 2000, reference: 'r', requestId: createId }).catch((error) => error);
    expect(other).toMatchObject({ status: 422, issue: 'PAYPAL_REQUEST_ID_PREVIOUSLY_USED' });

    local.state.approveOrder(first.id, { name: 'Ada Lovelace', email: 'ada@example.com' });
    const captureId = requestId();
    const captured = await paypal.captureOrder(first.id, captureId);
    const retried = await paypal.captureOrder(first.id, captureId);
    expect(retried.status).toBe('COMPLETED');
    expect(retried.capture?.id).toBe(captured.capture?.id);
    await local.close();
    local = open(join(root, `data-${dataDirCounter}`));
    expect((await paypal.captureOrder(first.id, captureId)).capture?.id).toBe(captured.capture?.id);
  });

  it('refuses wrong client credentials and missing or unknown bearer tokens', async () => {
    // A client id of its own: the SDK caches tokens per client id for the whole process.
    const wrong = client({ clientId: 'someone-else', clientSecret: 'nope' });
    expect(await paypalError(wrong.getOrder('ANY'))).toMatchObject({
      status: 401,
      name: 'invalid_client',
      description: 'Client Authentication failed',
    });
    const wrongSecret = await fetch(`${baseUrl}/paypal-local/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${CLIENT_ID}:wrong`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(wrongSecret.status).toBe(401);
    expect(await wrongSecret.json()).toEqual({ error: 'invalid_client', error_description: 'Client Authentication failed' });

    for (const authorization of [undefined, 'Bearer not-a-token']) {
      const response = await fetch(`${baseUrl}/paypal-local/v2/checkout/orders/ANY`, {
        headers: authorization ? { Authorization: authorization } : {},
      });
      expect(response.status).toBe(401);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ name: 'AUTHENTICATION_FAILURE' });
      expect(typeof body.message).toBe('string');
      expect(typeof body.debug_id).toBe('string');
      expect(Array.isArray(body.links)).toBe(true);
    }
  });

  it('leaves paths it does not serve to the routers mounted after it (the browser half)', async () => {
    expect((await fetch(`${baseUrl}/paypal-local/checkoutnow?token=ANY`)).status).toBe(404);
  });

  it('answers 404 RESOURCE_NOT_FOUND for an unknown order or capture', async () => {
    expect(await paypalError(paypal.getOrder('NOSUCHORDER000000'))).toMatchObject({
      status: 404,
      name: 'RESOURCE_NOT_FOUND',
      issue: 'INVALID_RESOURCE_ID',
    });
    expect(await paypalError(paypal.captureOrder('NOSUCHORDER000000', requestId()))).toMatchObject({ status: 404 });
    expect(await paypalError(paypal.refundCapture('NOSUCHCAPTURE0000', { requestId: requestId() }))).toMatchObject({ status: 404 });
  });

  it('answers 400 INVALID_REQUEST for malformed or invalid orders', async () => {
    const token = await rawToken();
    const post = async (body: string) => {
      const response = await fetch(`${baseUrl}/paypal-local/v2/checkout/orders`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body,
      });
      return {
        status: response.status,
        body: (await response.json()) as { name: string; details: Array<{ issue: string; field?: string }> },
      };
    };
    const order = (amount: unknown) => JSON.stringify({ intent: 'CAPTURE', purchase_units: [{ amount }] });
    const cases: Array<[string, string, string | undefined]> = [
      ['{"intent":', 'MALFORMED_REQUEST_JSON', undefined],
      [
        JSON.stringify({ intent: 'CAPTURE', purchase_units: [{}] }),
        'MISSING_REQUIRED_PARAMETER',
        "/purchase_units/@reference_id=='default'/amount",
      ],
      [
        order({ currency_code: 'usd', value: '10.00' }),
        'INVALID_PARAMETER_VALUE',
        "/purchase_units/@reference_id=='default'/amount/currency_code",
      ],
      [order({ currency_code: 'USD', value: '10.5' }), 'DECIMAL_PRECISION', "/purchase_units/@reference_id=='default'/amount/value"],
      [order({ currency_code: 'USD', value: 'ten' }), 'INVALID_PARAMETER_SYNTAX', "/purchase_units/@reference_id=='default'/amount/value"],
      [order({ currency_code: 'USD', value: 10 }), 'INVALID_PARAMETER_SYNTAX', "/purchase_units/@reference_id=='default'/amount/value"],
      [
        JSON.stringify({ intent: 'AUTHORIZE', purchase_units: [{ amount: { currency_code: 'USD', value: '1.00' } }] }),
        'INVALID_PARAMETER_VALUE',
        '/intent',
      ],
    ];
    for (const [body, issue, field] of cases) {
      const result = await post(body);
      expect(result.status, body).toBe(400);
      expect(result.body.name).toBe('INVALID_REQUEST');
      expect(result.body.details[0], body).toMatchObject({ issue, ...(field ? { field } : {}) });
    }
    expect((await post(order({ currency_code: 'EUR', value: '10.00' }))).body.details[0]?.issue).toBe('CURRENCY_NOT_SUPPORTED');
  });

  it('refunds a capture, partly then fully, and refuses more', async () => {
    const order = await approvedOrder(1000);
    const capture = (await paypal.captureOrder(order.id, requestId())).capture!;
    const partial = await paypal.refundCapture(capture.id, { requestId: requestId(), usdCents: 250 });
    expect(partial).toMatchObject({ status: 'COMPLETED', usdCents: 250 });
    expect(await paypalError(paypal.refundCapture(capture.id, { requestId: requestId(), usdCents: 751 }))).toMatchObject({
      status: 422,
      issue: 'REFUND_AMOUNT_EXCEEDED',
    });
    const rest = await paypal.refundCapture(capture.id, { requestId: requestId() });
    expect(rest.usdCents).toBe(750);
    expect((await paypal.getOrder(order.id)).capture?.status).toBe('REFUNDED');
    expect(await paypalError(paypal.refundCapture(capture.id, { requestId: requestId() }))).toMatchObject({
      issue: 'CAPTURE_FULLY_REFUNDED',
    });
  });

  it('delivers signed webhooks that the verify endpoint accepts, and rejects tampered ones', async () => {
    receiver.refuseNext = 1; // the first attempt fails: delivery is retried
    const order = await approvedOrder(1000);
    const capture = (await paypal.captureOrder(order.id, requestId())).capture!;
    await receiver.waitFor(2);
    const [refused, delivered] = receiver.deliveries as [Delivery, Delivery];
    expect(refused.headers['paypal-transmission-id']).toBe(delivered.headers['paypal-transmission-id']);

    const event = JSON.parse(delivered.rawBody) as Record<string, unknown>;
    expect(event).toMatchObject({
      event_version: '1.0',
      resource_type: 'capture',
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: {
        id: capture.id,
        status: 'COMPLETED',
        custom_id: 'purchase-1',
        supplementary_data: { related_ids: { order_id: order.id } },
      },
    });
    expect(String(event.id)).toMatch(/^WH-/);
    expect(delivered.headers).toMatchObject({
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': `${baseUrl}/paypal-local/v1/notifications/certs/local`,
    });
    expect(await paypal.verifyWebhook(delivered.headers, delivered.rawBody)).toBe(true);
    expect(await paypal.verifyWebhook(delivered.headers, Buffer.from(delivered.rawBody))).toBe(true);

    const tamperedBody = delivered.rawBody.replace('"10.00"', '"1000.00"');
    expect(tamperedBody).not.toBe(delivered.rawBody);
    expect(await paypal.verifyWebhook(delivered.headers, tamperedBody)).toBe(false);
    const signature = String(delivered.headers['paypal-transmission-sig']);
    const tamperedSignature = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(await paypal.verifyWebhook({ ...delivered.headers, 'paypal-transmission-sig': tamperedSignature }, delivered.rawBody)).toBe(
      false,
    );
    expect(await client({ webhookId: 'WH-OTHER' }).verifyWebhook(delivered.headers, delivered.rawBody)).toBe(false);

    const cert = await fetch(String(delivered.headers['paypal-cert-url']));
    expect(await cert.text()).toContain('-----BEGIN PUBLIC KEY-----');

    await paypal.refundCapture(capture.id, { requestId: requestId(), usdCents: 100 });
    await receiver.waitFor(3);
    const refundEvent = JSON.parse(receiver.deliveries[2]!.rawBody) as Record<string, unknown>;
    expect(refundEvent).toMatchObject({
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      resource_type: 'refund',
      resource: { amount: { value: '1.00' } },
    });
    expect(await paypal.verifyWebhook(receiver.deliveries[2]!.headers, receiver.deliveries[2]!.rawBody)).toBe(true);

    const reversed = await fetch(`${baseUrl}/paypal-local/local/captures/${capture.id}/reverse`, { method: 'POST' });
    expect(reversed.status).toBe(200);
    await receiver.waitFor(4);
    expect(JSON.parse(receiver.deliveries[3]!.rawBody)).toMatchObject({
      event_type: 'PAYMENT.CAPTURE.REVERSED',
      resource: { id: capture.id, status: 'REVERSED' },
    });
    expect((await paypal.getOrder(order.id)).capture?.status).toBe('REVERSED');
  });

  it('keeps orders, tokens and the signing key across a restart', async () => {
    const dataDir = join(root, `data-${dataDirCounter}`);
    const order = await paypal.createOrder({ usdCents: 500, reference: 'r', requestId: requestId() });
    const certBefore = await (await fetch(`${baseUrl}/paypal-local/v1/notifications/certs/local`)).text();
    await local.close();
    local = open(dataDir);
    expect(local.state.getOrder(order.id)?.status).toBe('CREATED');
    local.state.approveOrder(order.id, { name: 'Ada Lovelace', email: 'ada@example.com' });
    await local.close();
    local = open(dataDir);
    expect((await paypal.captureOrder(order.id, requestId())).capture?.usdCents).toBe(500);
    expect(await (await fetch(`${baseUrl}/paypal-local/v1/notifications/certs/local`)).text()).toBe(certBefore);
  });
});
