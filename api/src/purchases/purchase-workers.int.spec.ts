// Proves the purchase workers in a whole Quern (api, projections, workers, the local PayPal server, a real SMTP server): an approved order is captured by the capture job and credited after the grace when the browser went away, or claimed by the browser with the worker standing by; a declined card records PayPal's issue and a new approval is captured; a capture request id used again at PayPal is the same capture; the sweep captures an order approved but never asked for; each receipt e-mail goes out once, in the buyer's words; and the ledger audit is clean after every flow.
import { randomUUID } from 'node:crypto';
import { type PayPalClient, LOCAL_PAYPAL_CREDENTIALS, createPayPalClient } from '@quern/adapters/paypal';
import { purchaseStream } from '@quern/core/purchases';
import { DEFAULT_QUEUE_PREFIX, PURCHASE_CREDIT_QUEUE, purchaseCreditJobId } from '@quern/workers';
import { Queue } from 'bullmq';
import { startTestSmtpServer, type TestSmtpServer } from '@quern/test-support/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../test/ledger.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { verifyEmail } from '../../test/users.js';

const GRACE_MS = 1_500;
/** 10 USD at the default rate (1 USD = 80,000 MLX). */
const ORDER_MLX = '800000';

let quern: TestQuern;
let smtp: TestSmtpServer;
let paypal: PayPalClient;
let creditQueue: Queue;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  quern = await startTestQuern({
    SMTP_URL: smtp.url,
    REGISTRATIONS_PER_IP_HOUR: '1000',
    PURCHASE_CREDIT_GRACE_MS: String(GRACE_MS),
    PURCHASE_SWEEP_INTERVAL_MS: '1000',
  });
  paypal = createPayPalClient({ baseUrl: `${quern.url}/paypal-local`, ...LOCAL_PAYPAL_CREDENTIALS });
  creditQueue = new Queue(PURCHASE_CREDIT_QUEUE, { connection: { url: quern.redisUrl }, prefix: DEFAULT_QUEUE_PREFIX });
}, 60_000);
afterAll(async () => {
  await creditQueue?.close();
  await quern?.stop();
  await smtp?.stop();
});

interface Buyer {
  cookie: string;
  email: string;
}

/** A buyer whose web app runs in `language` (its language cookie goes with every request). */
async function register(language?: 'es'): Promise<Buyer> {
  const chosen = language ? { cookie: `quern.language=${language}` } : {};
  const name = `buyer_${randomUUID().slice(0, 8)}`;
  const user = {
    userName: name,
    firstName: 'Ada',
    lastName: 'Buyer',
    email: `${name}@example.com`,
    phone: `+1555${String(Math.random()).slice(2, 9)}`,
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user, ...chosen })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  const session = cookieOf(login.setCookie);
  // Receipts go only to a proven address (ADR 046).
  await verifyEmail(quern, user, { smtp });
  return { cookie: language ? `${session}; quern.language=${language}` : session, email: user.email };
}

/** Each order's buyer's session: only it may approve the order in the popup. */
const buyerSessions = new Map<string, string>();

async function order(buyer: Buyer, value = '10.00'): Promise<string> {
  const created = await quern.call('POST', '/api/paypal/orders', { cookie: buyer.cookie, body: { cart: { value } } });
  expect(created.status).toBe(200);
  buyerSessions.set(created.body.id as string, buyer.cookie);
  return created.body.id as string;
}

/** The buyer's choice in PayPal's popup, as the local server's page posts it. */
async function choose(choice: 'approve' | 'decline', orderId: string): Promise<void> {
  const response = await fetch(`${quern.url}/paypal-local/checkoutnow/${choice}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: buyerSessions.get(orderId) ?? '' },
    body: JSON.stringify({ token: orderId }),
  });
  expect(response.status).toBe(200);
}

const capture = (buyer: Buyer, orderId: string) => quern.call('POST', `/api/paypal/orders/${orderId}/capture`, { cookie: buyer.cookie });

async function eventsOf(orderId: string) {
  return (await quern.store.readStream(purchaseStream(orderId))).map((e) => ({ type: e.type, data: e.data }));
}
const ofType = async (orderId: string, type: string) => (await eventsOf(orderId)).filter((e) => e.type === type);

/** Waits until the order's receipt is recorded, then gives the mails the buyer received. */
async function receiptsOf(buyer: Buyer, orderId: string) {
  await eventually(async () => ((await ofType(orderId, 'PurchaseReceiptSent')).length === 1 ? true : undefined), 30_000);
  return smtp.received.filter((mail) => mail.envelopeTo.includes(buyer.email) && mail.parsed.subject.includes('receipt'));
}

async function expectCleanAudit(): Promise<void> {
  const audit = await auditLog(quern.store);
  expect(audit.violations).toEqual([]);
  expect(audit.ledgerTotalMlx).toBe(audit.mintedMlx);
}

describe('purchase workers', () => {
  it('given an approved order whose browser went away after the capture, then the worker credits it after the grace and mails one receipt', async () => {
    const buyer = await register();
    const orderId = await order(buyer);
    await choose('approve', orderId);

    const captured = await capture(buyer, orderId);
    expect(captured.status).toBe(200);
    expect(captured.body.status).toBe('COMPLETED');
    const captureId = captured.body.purchase_units[0].payments.captures[0].id as string;
    const [capturedEvent] = await ofType(orderId, 'PurchaseCaptured');
    expect(capturedEvent?.data).toMatchObject({ captureId, usdCents: '1000', requestId: `${orderId}-c1` });

    const [credited] = await eventually(async () => {
      const found = await ofType(orderId, 'PurchaseCredited');
      return found.length > 0 ? found : undefined;
    }, 30_000);
    expect(credited?.data).toMatchObject({ captureId, mlx: ORDER_MLX, transferId: `purchase-${captureId}` });
    // Within the grace the credit was the browser's to claim: the worker waited it out.
    const graceWaitedMs = Date.parse(String(credited?.data.creditedAt)) - Date.parse(String(capturedEvent?.data.capturedAt));
    expect(graceWaitedMs).toBeGreaterThanOrEqual(GRACE_MS);

    const mails = await receiptsOf(buyer, orderId);
    expect(mails).toHaveLength(1);
    const text = mails[0]?.parsed.text ?? '';
    expect(text).toContain('MLX credited: 800,000 MLX');
    expect(text).toContain('Paid: 10.00 USD');
    expect(text).toContain('Rate: 1 USD = 80,000 MLX');
    expect(text).toContain(`Order: ${orderId}`);
    expect(text).toContain(`PayPal transaction: ${captureId}`);
    // The browser coming back later is told the MLX is already there.
    const late = await quern.call('POST', '/api/reserve/transfer', { cookie: buyer.cookie, body: { id: captureId, amount: ORDER_MLX } });
    expect(late.status).toBe(409);
    await expectCleanAudit();
  });

  it('given a buyer who chose Spanish in the web app, then the welcome e-mail and the receipt are in Spanish', async () => {
    const buyer = await register('es');
    const orderId = await order(buyer);
    await choose('approve', orderId);
    const captured = await capture(buyer, orderId);
    const captureId = captured.body.purchase_units[0].payments.captures[0].id as string;
    expect(
      (await quern.call('POST', '/api/reserve/transfer', { cookie: buyer.cookie, body: { id: captureId, amount: ORDER_MLX } })).status,
    ).toBe(200);
    await eventually(async () => ((await ofType(orderId, 'PurchaseReceiptSent')).length === 1 ? true : undefined), 30_000);
    const mine = smtp.received.filter((mail) => mail.envelopeTo.includes(buyer.email));
    expect(mine.map((mail) => mail.parsed.subject)).toEqual(
      expect.arrayContaining(['[Sandbox] Le damos la bienvenida a Quern', '[Sandbox] Su recibo de Quern: 800.000 MLX']),
    );
    await expectCleanAudit();
  });

  it('given a browser that claims the credit right after the capture, then its claim moves the MLX once and the worker moves nothing more', async () => {
    const buyer = await register();
    const orderId = await order(buyer);
    await choose('approve', orderId);
    const captured = await capture(buyer, orderId);
    const captureId = captured.body.purchase_units[0].payments.captures[0].id as string;

    const claim = await quern.call('POST', '/api/reserve/transfer', { cookie: buyer.cookie, body: { id: captureId, amount: ORDER_MLX } });
    expect(claim.status).toBe(200);
    expect(claim.body).toMatchObject({ success: true, orderId, captureId, amount: ORDER_MLX });

    expect(await receiptsOf(buyer, orderId)).toHaveLength(1);
    // Once its grace is over, the credit job runs, finds the browser's credit, and moves nothing.
    const job = await eventually(async () => {
      const found = await creditQueue.getJob(purchaseCreditJobId(orderId));
      return found && (await found.getState()) === 'completed' ? found : undefined;
    }, 30_000);
    expect(job.returnvalue).toEqual({ outcome: 'already-credited', transferId: `purchase-${captureId}` });
    expect(await ofType(orderId, 'PurchaseCredited')).toHaveLength(1);
    const audit = await auditLog(quern.store);
    expect([...audit.reservedTransferIds.entries()].filter(([id]) => id === `purchase-${captureId}`)).toEqual([
      [`purchase-${captureId}`, 1],
    ]);
    await expectCleanAudit();
  });

  it('given a declined card, then the capture records PayPal’s INSTRUMENT_DECLINED; approved again, it is captured and credited once', async () => {
    const buyer = await register();
    const orderId = await order(buyer);
    await choose('decline', orderId);

    const declined = await capture(buyer, orderId);
    expect(declined.status).toBeGreaterThanOrEqual(400);
    expect(declined.status).toBeLessThan(500);
    expect(declined.body.details?.[0]?.issue).toBe('INSTRUMENT_DECLINED');
    const [failed] = await ofType(orderId, 'PurchaseCaptureFailed');
    expect(failed?.data).toMatchObject({ issue: 'INSTRUMENT_DECLINED', requestId: `${orderId}-c1` });

    await choose('approve', orderId);
    const captured = await capture(buyer, orderId);
    expect(captured.body.status).toBe('COMPLETED');
    expect((await ofType(orderId, 'PurchaseCaptured'))[0]?.data).toMatchObject({ requestId: `${orderId}-c2` });
    expect(await receiptsOf(buyer, orderId)).toHaveLength(1);
    expect(await ofType(orderId, 'PurchaseCredited')).toHaveLength(1);
    await expectCleanAudit();
  });

  it('given a double click and a capture request id used again at PayPal, then there is one capture, one approval and one credit', async () => {
    const buyer = await register();
    const orderId = await order(buyer);
    await choose('approve', orderId);

    const [first, second] = await Promise.all([capture(buyer, orderId), capture(buyer, orderId)]);
    const captureId = first.body.purchase_units[0].payments.captures[0].id as string;
    expect(second.body.purchase_units[0].payments.captures[0].id).toBe(captureId);
    // What a retried capture job sends: the same PayPal-Request-Id gets PayPal's first answer, not a second capture.
    const again = await paypal.captureOrder(orderId, `${orderId}-c1`);
    expect(again.capture).toMatchObject({ id: captureId, status: 'COMPLETED', usdCents: 1000 });

    expect(await receiptsOf(buyer, orderId)).toHaveLength(1);
    expect(await ofType(orderId, 'PurchaseCaptureRequested')).toHaveLength(1);
    expect(await ofType(orderId, 'PurchaseCaptured')).toHaveLength(1);
    expect(await ofType(orderId, 'PurchaseCredited')).toHaveLength(1);
    await expectCleanAudit();
  });

  it('given an order approved at PayPal whose browser never asked for the capture, then the sweep has it captured, credited and receipted', async () => {
    const buyer = await register();
    const orderId = await order(buyer);
    await choose('approve', orderId);

    const [credited] = await eventually(async () => {
      const found = await ofType(orderId, 'PurchaseCredited');
      return found.length > 0 ? found : undefined;
    }, 30_000);
    const events = await eventsOf(orderId);
    expect(events.map((e) => e.type)).toEqual([
      'PurchaseOrdered',
      'PurchaseCaptureRequested',
      'PurchaseCaptured',
      'PurchaseCredited',
      ...(events.length > 4 ? ['PurchaseReceiptSent'] : []),
    ]);
    expect(events[1]?.data).toMatchObject({ requestId: `${orderId}-c1` });
    expect(credited?.data).toMatchObject({ mlx: ORDER_MLX });
    expect(await receiptsOf(buyer, orderId)).toHaveLength(1);
    await expectCleanAudit();
  });
});
