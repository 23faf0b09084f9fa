// Proves the wallet holds a referenced transfer to the terms its book gives the kind (ADR 077) and knows no kind itself: a kind the book lacks is refused; a kind only the book names (an invoice payment here) is decided by its terms (payer, payee, fee, settlement, hold) with no change to the wallet; and the fold reads a kind's effect on bought MLX from the book the state is folded under.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { refusal } from '../../test/refusal.js';
import { alice, bob, credited, NOW, opened } from '../../test/wallet-fixtures.js';
import type { ReserveTransfer } from './commands.js';
import { decide, decideTransfer } from './decider.js';
import { SYSTEM_WALLET_IDS, type WalletEvent } from './events.js';
import { foldWallet, heldPurchasedMlx } from './state.js';
import { transferReferenceId } from './transfer-reference.js';
import type { TransferTerms, TransferTermsBook } from './transfer-terms.js';

const invoicePayment: TransferTerms = {
  reference: z.object({ kind: z.literal('invoicePayment'), invoiceId: transferReferenceId }),
  payer: 'user',
  payee: 'user',
  fee: 'none',
  settlement: 'atOnce',
  purchaseHold: 'spends',
};
const withInvoices: TransferTermsBook = new Map([['invoicePayment', invoicePayment]]);
const empty: TransferTermsBook = new Map();

const payer = (book: TransferTermsBook) => foldWallet([opened(alice), credited(10_000n, 'own')], book);
const payee = (book: TransferTermsBook) => foldWallet([opened(bob)], book);
const pay = (data: Partial<ReserveTransfer['data']> = {}): ReserveTransfer => ({
  type: 'ReserveTransfer',
  data: {
    transferId: 't1',
    toAddress: bob.address,
    toWalletId: bob.walletId,
    amountMlx: 5000n,
    feeMlx: 0n,
    reference: { kind: 'invoicePayment', invoiceId: 'inv_1' },
    ...data,
  },
});
const later = new Date(NOW.getTime() + 1000);

describe("the wallet under its book's terms", () => {
  it('given a book without the kind, when a transfer of that kind is decided, then it is refused as an invalid request', () => {
    expect(refusal(() => decideTransfer(pay(), payer(empty), payee(empty), later, empty))).toMatchObject({
      messageKey: 'errors:invalidRequest',
    });
  });

  it('given a kind only the book names, when it is decided, then its terms decide it: accepted as stated, refused off-terms', () => {
    const decision = decideTransfer(pay(), payer(withInvoices), payee(withInvoices), later, withInvoices);
    expect(decision.payerEvents.map((event) => event.type)).toEqual(['TransferReserved', 'TransferPosted']);
    expect(decision.payeeEvents[0]?.data).toMatchObject({ reference: { kind: 'invoicePayment', invoiceId: 'inv_1' } });
    // Its fee is none: the send's fee is refused.
    expect(
      refusal(() => decideTransfer(pay({ feeMlx: 1000n }), payer(withInvoices), payee(withInvoices), later, withInvoices)),
    ).toMatchObject({
      messageKey: 'errors:invalidFee',
    });
    // Its fields are its schema's: a reference without the invoice is refused.
    const noInvoice = pay({ reference: { kind: 'invoicePayment' } });
    expect(refusal(() => decideTransfer(noInvoice, payer(withInvoices), payee(withInvoices), later, withInvoices))).toMatchObject({
      messageKey: 'errors:invalidRequest',
    });
    // Settled at once only: it may not wait for the settlement job.
    expect(refusal(() => decide(pay(), payer(withInvoices), later, withInvoices))).toMatchObject({ messageKey: 'errors:invalidRequest' });
  });

  it('given a kind whose payee must be a user, when it would pay the reserve, then it is forbidden', () => {
    const reserve = foldWallet([opened({ ...bob, walletId: SYSTEM_WALLET_IDS.reserve }, 'reserve')], withInvoices);
    const toReserve = pay({ toWalletId: SYSTEM_WALLET_IDS.reserve });
    expect(refusal(() => decideTransfer(toReserve, payer(withInvoices), reserve, later, withInvoices))).toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it('given a credit carrying a hold, when folded under a book whose kind starts holds and under one whose kind does not, then only the first holds it', () => {
    const bought: WalletEvent = {
      type: 'TransferCredited',
      data: {
        walletId: alice.walletId,
        transferId: 'bought-1',
        fromWalletId: SYSTEM_WALLET_IDS.reserve,
        fromAddress: bob.address,
        toAddress: alice.address,
        amountMlx: '50000',
        settledAtOnce: true,
        reference: { kind: 'voucher', orderId: 'ORDER1' },
        holdUntil: new Date(NOW.getTime() + 3_600_000).toISOString(),
        creditedAt: NOW.toISOString(),
      },
    };
    const starts: TransferTermsBook = new Map([['voucher', { ...invoicePayment, purchaseHold: 'starts' as const }]]);
    const events = [opened(alice), bought];
    expect(heldPurchasedMlx(foldWallet(events, starts), later).heldMlx).toBe(50_000n);
    expect(heldPurchasedMlx(foldWallet(events, withInvoices), later).heldMlx).toBe(0n);
  });
});
