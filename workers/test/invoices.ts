/**
 * Invoices in the wallet world (workers/test/settlement.ts), for the invoice jobs' specs: the
 * invoice handlers' deps over the world's store, and an invoice of a merchant opened in it.
 */
import { createInvoice, type InvoiceDeps, type InvoiceState } from '@quern/core/invoices';
import { randomBytes } from 'node:crypto';
import type { WalletWorld } from './settlement.js';

export const invoiceDepsOf = (world: WalletWorld): InvoiceDeps => ({
  store: world.store,
  clock: { now: () => new Date() },
  newInvoiceId: () => `in_${randomBytes(16).toString('hex')}`,
  newAddressBase: () => new Uint8Array(randomBytes(20)),
});

/** An invoice of `merchant` for `amountMlx`, expiring `expiresInMs` from now, at a fresh address of the merchant's wallet. */
export async function openInvoice(
  world: WalletWorld,
  merchant: { walletId: string; address: string },
  {
    amountMlx = 10_000n,
    expiresInMs = 900_000,
    metadata = {},
  }: { amountMlx?: bigint; expiresInMs?: number; metadata?: Record<string, string> } = {},
): Promise<InvoiceState> {
  const { invoice } = await createInvoice(invoiceDepsOf(world), {
    merchantUserId: merchant.walletId,
    merchantAddress: merchant.address,
    terms: { amountMlx: amountMlx.toString(), currency: 'MLX', metadata, expiresAt: new Date(Date.now() + expiresInMs).toISOString() },
  });
  return invoice;
}
