// Proves the invoice rule of the ledger audit (issue 27): an invoice paid from a Quern balance, with its transfer to the merchant, audits clean and counts in the figures; a transfer of another amount or to another wallet, a balance payment with no transfer, a transfer that no invoice records, and an invoice created twice are each named.
import { describe, expect, it } from 'vitest';
import { auditLedger, type LedgerRecord } from '../audit/ledger.js';
import { SYSTEM_WALLET_IDS, type WalletEvent } from '../wallet/events.js';
import { MemoryLedger, NOW, testAddress } from '../../test/wallet-fixtures.js';
import { decideTransfer } from '../../test/wallet-rules.js';
import { type InvoiceEvent, invoiceStream } from './events.js';

const INVOICE_ID = `in_${'c'.repeat(32)}`;
const at = NOW.toISOString();

function ledgerWithShopper(): MemoryLedger {
  const ledger = new MemoryLedger();
  ledger.bootstrap(1_000_000_000n, 100_000_000n);
  ledger.open('shopper', 'user', testAddress(1), 'user-shopper');
  ledger.open('merchant', 'user', testAddress(2), 'user-merchant');
  ledger.open('other', 'user', testAddress(3), 'user-other');
  ledger.transfer(SYSTEM_WALLET_IDS.reserve, 'shopper', 50_000n, 'fund-shopper');
  return ledger;
}

const invoiceRecord = (event: InvoiceEvent, streamId = invoiceStream(INVOICE_ID)): LedgerRecord => ({
  streamId,
  type: event.type,
  data: event.data,
});
const created: InvoiceEvent = {
  type: 'InvoiceCreated',
  data: {
    invoiceId: INVOICE_ID,
    merchantUserId: 'merchant',
    address: testAddress(2),
    amountMlx: '7000',
    currency: 'MLX',
    metadata: {},
    expiresAt: new Date(NOW.getTime() + 900_000).toISOString(),
    createdAt: at,
  },
};
const settled = (paymentId: string, amountMlx = '7000'): InvoiceEvent => ({
  type: 'InvoicePaymentSettled',
  data: {
    invoiceId: INVOICE_ID,
    paymentId,
    route: 'quern',
    amountMlx,
    settledAt: at,
    merchantUserId: 'merchant',
    status: 'paid',
    previousStatus: 'open',
  },
});

/** The shopper pays `payee` from their balance with an invoicePayment transfer. */
function payFromBalance(ledger: MemoryLedger, transferId: string, payee: string, amountMlx: bigint): void {
  const toAddress = ledger.state(payee).wallet?.address ?? '';
  const decision = decideTransfer(
    {
      type: 'ReserveTransfer',
      data: {
        transferId,
        toAddress,
        toWalletId: payee,
        amountMlx,
        feeMlx: 0n,
        reference: { kind: 'invoicePayment', invoiceId: INVOICE_ID },
      },
    },
    ledger.state('shopper'),
    ledger.state(payee),
    ledger.now(),
  );
  ledger.append('shopper', decision.payerEvents as WalletEvent[], ledger.eventCount('shopper'));
  ledger.append(payee, decision.payeeEvents as WalletEvent[], ledger.eventCount(payee));
}

const codesOf = (records: LedgerRecord[]) => auditLedger(records).violations.map((violation) => violation.code);

describe('the invoice audit', () => {
  it('given an invoice paid from a balance with its transfer, then no violation and the figures count it', () => {
    const ledger = ledgerWithShopper();
    payFromBalance(ledger, 'pay-1', 'merchant', 7_000n);
    const audit = auditLedger([...ledger.log, invoiceRecord(created), invoiceRecord(settled('pay-1'))]);
    expect(audit.violations).toEqual([]);
    expect(audit.invoices).toEqual({ invoices: 1, paidFromNetworkMlx: 0n, paidFromBalanceMlx: 7_000n });
  });

  it('given a transfer of another amount or to another wallet, then invoiceTransferMismatch', () => {
    const short = ledgerWithShopper();
    payFromBalance(short, 'pay-1', 'merchant', 6_999n);
    expect(codesOf([...short.log, invoiceRecord(created), invoiceRecord(settled('pay-1'))])).toContain('invoiceTransferMismatch');
    const elsewhere = ledgerWithShopper();
    payFromBalance(elsewhere, 'pay-1', 'other', 7_000n);
    expect(codesOf([...elsewhere.log, invoiceRecord(created), invoiceRecord(settled('pay-1'))])).toContain('invoiceTransferMismatch');
  });

  it('given a balance payment with no transfer, or a transfer no invoice records, then invoiceTransferMismatch', () => {
    const ledger = ledgerWithShopper();
    expect(codesOf([...ledger.log, invoiceRecord(created), invoiceRecord(settled('never-made'))])).toEqual(['invoiceTransferMismatch']);
    payFromBalance(ledger, 'pay-1', 'merchant', 7_000n);
    expect(codesOf([...ledger.log, invoiceRecord(created)])).toEqual(['invoiceTransferMismatch']);
  });

  it('given an invoice created twice or on another stream, then each is named', () => {
    const ledger = ledgerWithShopper();
    expect(codesOf([...ledger.log, invoiceRecord(created), invoiceRecord(created)])).toEqual(['invoiceCreatedTwice']);
    expect(codesOf([...ledger.log, invoiceRecord(created, invoiceStream(`in_${'d'.repeat(32)}`))])).toEqual(['invoiceStreamMismatch']);
    expect(codesOf([...ledger.log, { streamId: invoiceStream(INVOICE_ID), type: 'InvoiceCreated', data: { invoiceId: 'x' } }])).toEqual([
      'malformedInvoiceEvent',
    ]);
    // The address index beside the invoices is not an invoice stream.
    const index = { streamId: `invoice-address-${testAddress(2)}`, type: 'InvoiceAddressAssigned', data: { invoiceId: INVOICE_ID } };
    expect(codesOf([...ledger.log, invoiceRecord(created), index])).toEqual([]);
  });
});
