// Proves the invoice handlers over an event store (in memory, with the port's expected-revision rule): a new invoice gets an address of the merchant's own millix wallet that the deposit watcher finds the merchant by and that leads back to the invoice, all in one atomic append, so a reused address creates nothing; and payments, expiry and void go through the pipeline to the statuses the decider gives.
import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../../test/memory-event-store.js';
import { testAddress } from '../../test/wallet-fixtures.js';
import { isSameWallet } from '../wallet/address.js';
import { findWalletIdByAddress } from '../wallet/handlers.js';
import { invoiceStream } from './events.js';
import { createInvoice, expireInvoice, findInvoiceIdByAddress, readInvoice, recordInvoicePayment, voidInvoice } from './handlers.js';
import { invoiceStatus } from './state.js';

const merchantAddress = testAddress(1);
let clockNow = new Date('2026-11-27T12:00:00.000Z');
let ids = 0;
const deps = (store: MemoryEventStore, base = () => new Uint8Array(20).map((_, i) => (ids * 7 + i) & 0xff)) => ({
  store,
  clock: { now: () => clockNow },
  newInvoiceId: () => `in_${(++ids).toString(16).padStart(32, '0')}`,
  newAddressBase: base,
});
const terms = { amountMlx: '5000', currency: 'MLX' as const, metadata: {}, expiresAt: '2026-11-27T12:15:00.000Z' };

describe('invoice handlers', () => {
  it("given a new invoice, then its address is the merchant wallet's, claimed for the merchant and indexed to the invoice", async () => {
    const store = new MemoryEventStore();
    const { invoice } = await createInvoice(deps(store), { merchantUserId: 'merchant', merchantAddress, terms });
    expect(invoice.address).not.toBe(merchantAddress);
    expect(isSameWallet(invoice.address, merchantAddress)).toBe(true);
    expect(await findWalletIdByAddress({ store }, invoice.address)).toBe('merchant');
    expect(await findInvoiceIdByAddress({ store }, invoice.address)).toBe(invoice.invoiceId);
    expect(await findInvoiceIdByAddress({ store }, merchantAddress)).toBeUndefined();
    expect(invoiceStatus(invoice)).toBe('open');
  });

  it('given an address already claimed, when an invoice would take it, then nothing of that invoice is recorded', async () => {
    const store = new MemoryEventStore();
    const sameBase = () => new Uint8Array(20).fill(3);
    await createInvoice(deps(store, sameBase), { merchantUserId: 'merchant', merchantAddress, terms });
    const next = `in_${(ids + 1).toString(16).padStart(32, '0')}`;
    await expect(createInvoice(deps(store, sameBase), { merchantUserId: 'merchant', merchantAddress, terms })).rejects.toThrow();
    expect(await store.readStream(invoiceStream(next), {})).toEqual([]);
  });

  it('given payments, the expiry and a void, then each goes through the pipeline once', async () => {
    const store = new MemoryEventStore();
    const { invoice } = await createInvoice(deps(store), { merchantUserId: 'merchant', merchantAddress, terms });
    const id = invoice.invoiceId;
    await recordInvoicePayment(deps(store), id, { paymentId: 'tx1:0', route: 'network', amountMlx: 2000n, stage: 'settled' });
    await recordInvoicePayment(deps(store), id, { paymentId: 'tx1:0', route: 'network', amountMlx: 2000n, stage: 'settled' });
    expect(invoiceStatus((await readInvoice({ store }, id)) ?? invoice)).toBe('partially_paid');
    await expect(voidInvoice(deps(store), id, 'merchant')).rejects.toMatchObject({ reason: 'hasPayments' });
    await expect(voidInvoice(deps(store), id, 'someone')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    clockNow = new Date('2026-11-27T12:15:00.000Z');
    expect(invoiceStatus((await expireInvoice(deps(store), id)).invoice)).toBe('expired');
    expect((await store.readStream(invoiceStream(id), {})).map((record) => record.type)).toEqual([
      'InvoiceCreated',
      'InvoicePaymentSettled',
      'InvoiceExpired',
    ]);
    await expect(readInvoice({ store }, 'in_nope')).resolves.toBeUndefined();
    await expect(expireInvoice(deps(store), 'in_nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
