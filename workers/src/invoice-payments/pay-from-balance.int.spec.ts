// Proves 'Pay with Quern' over the real event store (issue 27): a Quern user pays what an invoice
// misses from their balance in one atomic append with the invoice's settled payment, so the invoice
// is paid and the audit matches the transfer to it; two payments at once pay once; a balance too
// small, an expired invoice and the merchant paying their own invoice are refused and record nothing.
import { invoiceAmounts, invoiceStatus, payInvoiceFromBalance, readInvoice } from '@quern/core/invoices';
import { InsufficientFundsRefusal, availableMlx, loadWallet } from '@quern/core/wallet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWalletWorld, type WalletWorld } from '../../test/settlement.js';
import { openInvoice } from '../../test/invoices.js';

let world: WalletWorld;
beforeEach(async () => {
  world = await openWalletWorld({ confirmDelayMs: 100 });
});
afterEach(async () => {
  await world.dispose();
});

const balanceOf = async (walletId: string) => availableMlx((await loadWallet(world.deps, walletId)).state);

describe('Pay with Quern', () => {
  it('given a funded user, when they pay an invoice from their balance, then it is paid once, the merchant holds the MLX and the audit is clean', async () => {
    const merchant = await world.openUser();
    const payer = await world.openUser(50_000n);
    const invoice = await openInvoice(world, merchant, { amountMlx: 7_000n });

    const results = await Promise.allSettled([
      payInvoiceFromBalance(world.deps, { invoiceId: invoice.invoiceId, payerUserId: payer.walletId }),
      payInvoiceFromBalance(world.deps, { invoiceId: invoice.invoiceId, payerUserId: payer.walletId }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((result) => result.status === 'rejected');
    expect(refused && 'reason' in refused ? refused.reason : undefined).toMatchObject({ reason: 'notPayable' });

    const now = await readInvoice(world.deps, invoice.invoiceId);
    expect(now && invoiceStatus(now)).toBe('paid');
    expect(now && invoiceAmounts(now)).toMatchObject({ settledMlx: 7_000n, overpaidMlx: 0n });
    expect(await balanceOf(payer.walletId)).toBe(43_000n);
    expect(await balanceOf(merchant.walletId)).toBe(7_000n);
    const audit = await world.audit();
    expect(audit.violations).toEqual([]);
    expect(audit.invoices).toMatchObject({ invoices: 1, paidFromBalanceMlx: 7_000n });
  });

  it('given too small a balance, an expired invoice or the merchant paying themselves, then refused and nothing recorded', async () => {
    const merchant = await world.openUser(10_000n);
    const poor = await world.openUser(1_000n);
    const invoice = await openInvoice(world, merchant, { amountMlx: 7_000n });
    await expect(payInvoiceFromBalance(world.deps, { invoiceId: invoice.invoiceId, payerUserId: poor.walletId })).rejects.toBeInstanceOf(
      InsufficientFundsRefusal,
    );
    await expect(payInvoiceFromBalance(world.deps, { invoiceId: invoice.invoiceId, payerUserId: merchant.walletId })).rejects.toMatchObject(
      {
        messageKey: 'errors:cannotSendToSelf',
      },
    );
    // Long enough to be created in time (an expiry already past is refused), short enough to pass.
    const expired = await openInvoice(world, merchant, { amountMlx: 7_000n, expiresInMs: 200 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const rich = await world.openUser(50_000n);
    await expect(payInvoiceFromBalance(world.deps, { invoiceId: expired.invoiceId, payerUserId: rich.walletId })).rejects.toMatchObject({
      reason: 'notPayable',
    });
    await expect(payInvoiceFromBalance(world.deps, { invoiceId: 'in_nope', payerUserId: rich.walletId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    for (const id of [invoice.invoiceId, expired.invoiceId]) {
      const types = (await world.deps.store.readStream(`invoice-${id}`, {})).map((record) => record.type);
      expect(types).toEqual(['InvoiceCreated']);
    }
    expect(await balanceOf(poor.walletId)).toBe(1_000n);
    expect((await world.audit()).violations).toEqual([]);
  });
});
