// Proves an invoice is paid from the millix network (issue 27): MLX sent to the invoice's own
// address on the simulated network reaches the merchant's wallet through the deposit watcher, and
// the dispatcher and workers record each deposit on the invoice, seen then settled: part of the
// amount makes it partially paid, the rest paid; a deposit to the merchant's own address asks for no
// invoice job; and the audit of the whole log stays clean, with both deposits matched as paid from the network.
import { invoiceAmounts, invoiceStatus, readInvoice } from '@quern/core/invoices';
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
  world = await openWalletWorld({ confirmDelayMs: 300 });
});
afterEach(async () => {
  await pipeline?.stop();
  pipeline = undefined;
  await world.dispose();
});

describe('invoices paid from the millix network', () => {
  it('given deposits to an invoice address, then the invoice goes partially paid, then paid, and the merchant holds the MLX', async () => {
    const merchant = await world.openUser();
    const invoice = await openInvoice(world, merchant);
    const log = captureLog();
    pipeline = startWalletPipeline({ world, redis, redisUrl: server.url, prefix: 'bull', logger: log.logger, watchDeposits: true });
    const statusNow = async () => {
      const now = await readInvoice(world.deps, invoice.invoiceId);
      return now && { status: invoiceStatus(now), ...invoiceAmounts(now) };
    };

    await world.network.deposit(invoice.address, 4_000n);
    await eventually(async () => (await statusNow())?.status === 'partially_paid', 15_000, 'the first deposit settles on the invoice');
    expect(await statusNow()).toMatchObject({ settledMlx: 4_000n, dueMlx: 6_000n });

    await world.network.deposit(invoice.address, 6_000n);
    await eventually(async () => (await statusNow())?.status === 'paid', 15_000, 'the second deposit pays it');
    const types = (await world.deps.store.readStream(`invoice-${invoice.invoiceId}`, {})).map((record) => record.type);
    expect(types.filter((type) => type === 'InvoicePaymentSettled')).toHaveLength(2);
    expect(types.filter((type) => type === 'InvoicePaymentSeen').length).toBeLessThanOrEqual(2);

    // The MLX are the merchant's, received at the invoice's address.
    const confirmed = await world.events(merchant.walletId, 'DepositConfirmed');
    expect(confirmed.map((record) => (record.data as { toAddress?: string }).toAddress)).toEqual([invoice.address, invoice.address]);

    // A deposit to the merchant's own address is no invoice's.
    await world.network.deposit(merchant.address, 1_000n);
    await eventually(async () => (await world.events(merchant.walletId, 'DepositConfirmed')).length === 3, 15_000, 'the own deposit');
    expect(await statusNow()).toMatchObject({ status: 'paid', settledMlx: 10_000n });
    const audit = await world.audit();
    expect(audit.violations).toEqual([]);
    // The audit matched both settlements with their confirmed deposits; the merchant's own deposit is no invoice's.
    expect(audit.invoices).toMatchObject({ paidFromNetworkMlx: 10_000n, depositsNotRecorded: 0 });
  });
});
