// Proves the invoice webhooks end to end (issue 27) on a real SQLite log, real Redis, the
// dispatcher, the workers and the real Standard Webhooks sender posting to a local receiver: an
// invoice paid in two parts and then overpaid delivers exactly invoice.partially_paid,
// invoice.processing and invoice.paid, in that order, each describing the invoice as it was at its
// event even though every fan-out runs after the overpayment; an endpoint subscribed only to
// invoice.paid gets only that; an invoice that runs out of time delivers invoice.expired from the
// expiry job; every body verifies with the independent `standardwebhooks` library under its
// endpoint's secret only; and a body longer than a delivery may store is refused, nothing written.
import { randomBytes } from 'node:crypto';
import { recordInvoicePayment, type InvoiceState } from '@quern/core/invoices';
import { createWebhookEndpoint, type WebhookEventType } from '@quern/core/webhooks';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { invoiceDepsOf, openInvoice } from '../../test/invoices.js';
import { captureLog, connectRedis, eventually, TEST_PUBLIC_URL } from '../../test/pipeline.js';
import { openWalletWorld, startWalletPipeline, type WalletPipeline, type WalletWorld } from '../../test/settlement.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { fanOutWebhookJob } from './job.js';

let server: RedisServer;
let redis: Redis;
let world: WalletWorld;
let receiver: WebhookReceiver;
let pipeline: WalletPipeline | undefined;

beforeAll(async () => {
  server = await startPrivateRedis();
  redis = connectRedis(server.url);
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});
beforeEach(async () => {
  await redis.flushall();
  world = await openWalletWorld({ confirmDelayMs: 100 });
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await pipeline?.stop();
  pipeline = undefined;
  await receiver.close();
  await world.dispose();
});

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
let uuid = 0;

/** An endpoint of the merchant at the receiver's `path`, with its secret. */
async function endpointAt(merchantUserId: string, path: string, events: WebhookEventType[] = []) {
  const secret = newSecret();
  const deps = {
    store: world.store,
    clock: { now: () => new Date() },
    newId: () => `00000000-0000-4000-8000-${String(++uuid).padStart(12, '0')}`,
  };
  await createWebhookEndpoint(deps, { merchantUserId, url: receiver.url(path), events, secret });
  return { path, secret };
}

/**
 * A payment's stage recorded at `at` through the handler the invoice-payment job calls, so each
 * stage is exactly the one the test names, with no race against the simulated network.
 */
const record = (invoice: InvoiceState, at: Date, paymentId: string, amountMlx: bigint, stage: 'seen' | 'settled') =>
  recordInvoicePayment({ ...invoiceDepsOf(world), clock: { now: () => at } }, invoice.invoiceId, {
    paymentId,
    route: 'network',
    amountMlx,
    stage,
  });

/** The pipeline with one job at a time per queue, so each endpoint receives its webhooks in the order of their events. */
const start = () =>
  (pipeline = startWalletPipeline({
    world,
    redis,
    redisUrl: server.url,
    prefix: 'bull',
    logger: captureLog().logger,
    watchDeposits: false,
    workers: { concurrency: 1, webhooks: { allowPrivateNetworks: true, retryScheduleMs: [200] } },
  }));

const at = (path: string): ReceivedWebhook[] => receiver.received.filter((webhook) => webhook.path === path);
const bodyOf = (webhook: ReceivedWebhook) => JSON.parse(webhook.body);
const verifies = (secret: string, webhook: ReceivedWebhook): boolean => {
  try {
    new Webhook(secret).verify(webhook.body, webhook.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe('invoice webhooks', () => {
  it('given a part settled, the rest seen then settled and an overpayment, then partially_paid, processing and paid, each as it was then', async () => {
    const merchant = await world.openUser();
    const all = await endpointAt(merchant.walletId, '/all');
    const paidOnly = await endpointAt(merchant.walletId, '/paid-only', ['invoice.paid']);
    const invoice = await openInvoice(world, merchant, { amountMlx: 10_000n });
    const t = (seconds: number) => new Date(Date.parse(invoice.createdAt) + seconds * 1_000);
    await record(invoice, t(1), 'dep-1', 4_000n, 'settled');
    await record(invoice, t(2), 'dep-2', 6_000n, 'seen');
    await record(invoice, t(3), 'dep-2', 6_000n, 'settled');
    // The overpayment once paid: seen and settled, neither a processing nor a second paid.
    await record(invoice, t(4), 'dep-3', 500n, 'seen');
    await record(invoice, t(5), 'dep-3', 500n, 'settled');

    // Started after everything above: each fan-out runs once the invoice is already overpaid.
    start();
    await eventually(() => receiver.received.length >= 4, 20_000, 'four deliveries');
    await new Promise((settle) => setTimeout(settle, 1_000));
    expect(receiver.received).toHaveLength(4);

    const toAll = at('/all').map(bodyOf);
    expect(toAll.map((body) => [body.type, body.timestamp])).toEqual([
      ['invoice.partially_paid', t(1).toISOString()],
      ['invoice.processing', t(2).toISOString()],
      ['invoice.paid', t(3).toISOString()],
    ]);
    expect(toAll.map(({ data }) => [data.status, data.amount_paid_mlx, data.amount_pending_mlx, data.amount_overpaid_mlx])).toEqual([
      ['partially_paid', '4000', '0', '0'],
      ['processing', '4000', '6000', '0'],
      ['paid', '10000', '0', '0'],
    ]);
    expect(toAll[2]).toMatchObject({
      livemode: false,
      data: {
        id: invoice.invoiceId,
        object: 'invoice',
        address: invoice.address,
        hosted_url: `${TEST_PUBLIC_URL}/i/${invoice.invoiceId}`,
        paid_at: t(3).toISOString(),
        livemode: false,
      },
    });
    expect(toAll[2].data.payments.map((payment: { id: string }) => payment.id)).toEqual(['dep-1', 'dep-2']);

    expect(at('/paid-only').map((webhook) => bodyOf(webhook).type)).toEqual(['invoice.paid']);
    for (const webhook of at('/all')) expect([verifies(all.secret, webhook), verifies(paidOnly.secret, webhook)]).toEqual([true, false]);
    for (const webhook of at('/paid-only'))
      expect([verifies(paidOnly.secret, webhook), verifies(all.secret, webhook)]).toEqual([true, false]);
  });

  it('given part of the amount when its time is up, then the expiry job delivers invoice.expired with what arrived', async () => {
    const merchant = await world.openUser();
    const all = await endpointAt(merchant.walletId, '/all');
    await endpointAt(merchant.walletId, '/paid-only', ['invoice.paid']);
    const invoice = await openInvoice(world, merchant, { amountMlx: 10_000n, expiresInMs: 1_500 });
    await record(invoice, new Date(), 'dep-1', 4_000n, 'settled');

    start();
    await eventually(() => at('/all').length >= 2, 20_000, 'the part and the expiry delivered');
    await new Promise((settle) => setTimeout(settle, 500));
    const bodies = at('/all').map(bodyOf);
    expect(bodies.map((body) => body.type)).toEqual(['invoice.partially_paid', 'invoice.expired']);
    expect(bodies[1]).toMatchObject({
      data: {
        id: invoice.invoiceId,
        status: 'expired',
        amount_paid_mlx: '4000',
        amount_due_mlx: '6000',
        expires_at: invoice.terms.expiresAt,
      },
    });
    expect(bodies[1].timestamp).toBe(bodies[1].data.expired_at);
    expect(at('/paid-only')).toEqual([]);
    for (const webhook of at('/all')) expect(verifies(all.secret, webhook)).toBe(true);
  });

  it('given an invoice whose body would pass what a delivery may store, then its fan-out is refused and writes nothing', async () => {
    const merchant = await world.openUser();
    await endpointAt(merchant.walletId, '/all');
    // Metadata of control characters (each written as six in JSON) and many small payments: over 64 KiB.
    const metadata = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key-${i}`, '\u0001'.repeat(500)]));
    const invoice = await openInvoice(world, merchant, { amountMlx: 10_000n, metadata });
    const base = Date.now();
    for (let i = 0; i < 50; i += 1) await record(invoice, new Date(base + i), `dep-${i}`, 1n, 'settled');
    const { invoice: paid } = await record(invoice, new Date(base + 60), 'dep-last', 10_000n, 'settled');
    expect(paid.payments.size).toBe(51);
    const [event] = (await world.store.readStream(`invoice-${invoice.invoiceId}`)).slice(-1);
    if (!event) throw new Error('no event');
    const before = (await world.store.readAll({ maxCount: 10_000 })).length;
    const job = { streamId: event.streamId, revision: event.revision.toString(), position: event.position.toString() };
    const fanOut = fanOutWebhookJob(job, {
      store: world.store,
      clock: { now: () => new Date() },
      mode: 'sandbox',
      publicUrl: TEST_PUBLIC_URL,
    });
    await expect(fanOut).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(fanOut).rejects.toThrow(/longer than 65536/);
    expect((await world.store.readAll({ maxCount: 10_000 })).length).toBe(before);
  });
});
