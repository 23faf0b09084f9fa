// Proves an invoice's expiry through the dispatcher and the workers (issue 27): with part of the
// amount in when its time is up, it expires with what arrived; a late deposit that completes it
// is still credited to the invoice, which is then paid and flagged as paid late; an invoice paid
// in time never expires; and the audit stays clean.
import { invoiceAmounts, invoiceStatus, isPaidLate, readInvoice } from '@quern/core/invoices';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { openWalletWorld, startWalletPipeline, type WalletPipeline, type WalletWorld } from '../../test/settlement.js';
import { captureLog, connectRedis, eventually } from '../../test/pipeline.js';
import { openInvoice } from '../../test/invoices.js';

let server: RedisServer;
let redis: Redis;
let world: WalletWorld;
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
  world = await openWalletWorld({ confirmDelayMs: 200 });
});
afterEach(async () => {
  await pipeline?.stop();
  pipeline = undefined;
  await world.dispose();
});

const now = async (invoiceId: string) => {
  const invoice = await readInvoice(world.deps, invoiceId);
  if (!invoice) throw new Error('no invoice');
  return { status: invoiceStatus(invoice), late: isPaidLate(invoice), ...invoiceAmounts(invoice) };
};

const start = () =>
  (pipeline = startWalletPipeline({
    world,
    redis,
    redisUrl: server.url,
    prefix: 'bull',
    logger: captureLog().logger,
    watchDeposits: true,
  }));

describe('invoice expiry', () => {
  it('given part of the amount when time is up, then expired with it; the rest arriving late pays it, flagged late', async () => {
    const invoice = await openInvoice(world, await world.openUser(), { expiresInMs: 2_500 });
    start();
    await world.network.deposit(invoice.address, 4_000n);
    await eventually(async () => (await now(invoice.invoiceId)).status === 'partially_paid', 10_000, 'the part settles in time');
    await eventually(async () => (await now(invoice.invoiceId)).status === 'expired', 10_000, 'the invoice expires');
    expect(await now(invoice.invoiceId)).toMatchObject({ settledMlx: 4_000n, dueMlx: 6_000n });

    await world.network.deposit(invoice.address, 6_000n);
    await eventually(async () => (await now(invoice.invoiceId)).status === 'paid', 10_000, 'the late rest pays it');
    expect(await now(invoice.invoiceId)).toMatchObject({ late: true, settledMlx: 10_000n });
    expect((await world.audit()).violations).toEqual([]);
  });

  it('given the whole amount in time, then paid, and the expiry records nothing', async () => {
    const invoice = await openInvoice(world, await world.openUser(), { expiresInMs: 2_000 });
    start();
    await world.network.deposit(invoice.address, 10_000n);
    await eventually(async () => (await now(invoice.invoiceId)).status === 'paid', 10_000, 'paid in time');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await now(invoice.invoiceId)).toMatchObject({ status: 'paid', late: false });
    const types = (await world.deps.store.readStream(`invoice-${invoice.invoiceId}`, {})).map((record) => record.type);
    expect(types).not.toContain('InvoiceExpired');
  });
});
