// Proves the invoice rule of the ledger audit (issue 27, ADR 080): an invoice paid from a Quern balance, with its transfer to the merchant, audits clean and counts in the figures; a transfer of another amount or to another wallet, a balance payment with no transfer, a transfer that no invoice records, and an invoice created twice are each named. Paid from the millix network, recorded stages that match the merchant's deposits audit clean, a stable deposit not recorded yet is counted as lag, and a settlement with no stable deposit, a deposit of another amount, address or wallet, one deposit settled twice, an address the index gives to no or another invoice, and a seen or failed stage with no such deposit are each named.
import { describe, expect, it } from 'vitest';
import { auditLedger, type LedgerRecord } from '../audit/ledger.js';
import { deriveAddress } from '../wallet/address.js';
import { SYSTEM_WALLET_IDS, type WalletEvent } from '../wallet/events.js';
import { MemoryLedger, NOW, expectOk, testAddress } from '../../test/wallet-fixtures.js';
import { decideTransfer } from '../../test/wallet-rules.js';
import { type InvoiceEvent, type InvoiceStatus, invoiceStream } from './events.js';
import { invoiceAddressStream } from './handlers.js';

const INVOICE_ID = `in_${'c'.repeat(32)}`;
const OTHER_INVOICE_ID = `in_${'d'.repeat(32)}`;
/** Another address of the merchant's wallet (testAddress(2)), as createInvoice derives one. */
const INVOICE_ADDRESS = deriveAddress(testAddress(2), new Uint8Array(20).fill(7));
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
    address: INVOICE_ADDRESS,
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

/** The index handlers.ts writes beside InvoiceCreated: the address belongs to the invoice. */
const indexRecord = (invoiceId = INVOICE_ID, address = INVOICE_ADDRESS): LedgerRecord => ({
  streamId: invoiceAddressStream(address),
  type: 'InvoiceAddressAssigned',
  data: { address, invoiceId },
});

const codesOf = (records: LedgerRecord[]) => auditLedger(records).violations.map((violation) => violation.code);

describe('the invoice audit', () => {
  it('given an invoice paid from a balance with its transfer, then no violation and the figures count it', () => {
    const ledger = ledgerWithShopper();
    payFromBalance(ledger, 'pay-1', 'merchant', 7_000n);
    const audit = auditLedger([...ledger.log, invoiceRecord(created), invoiceRecord(settled('pay-1'))]);
    expect(audit.violations).toEqual([]);
    expect(audit.invoices).toEqual({
      invoices: 1,
      paidFromNetworkMlx: 0n,
      paidFromBalanceMlx: 7_000n,
      depositsNotRecorded: 0,
      depositsNotRecordedMlx: 0n,
      refunds: 0,
      refundedMlx: 0n,
      refundsAwaitingClaim: 0,
    });
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
    // The address index beside the invoices is read as the index, not as an invoice stream.
    expect(codesOf([...ledger.log, invoiceRecord(created), indexRecord()])).toEqual([]);
    const broken = { ...indexRecord(), data: { invoiceId: INVOICE_ID } };
    expect(codesOf([...ledger.log, invoiceRecord(created), broken])).toEqual(['malformedInvoiceEvent']);
  });
});

/** A deposit from outside to `toAddress` of the wallet, received then left open, confirmed or rejected. */
function deposit(
  ledger: MemoryLedger,
  depositId: string,
  amountMlx: bigint,
  outcome: 'open' | 'confirmed' | 'rejected',
  toAddress = INVOICE_ADDRESS,
): void {
  const networkTransactionHash = depositId.split(':')[0] as string;
  const received = { depositId, networkTransactionHash, fromAddress: testAddress(40), amountMlx, toAddress };
  expectOk(ledger.execute('merchant', { type: 'ReceiveDeposit', data: received }));
  if (outcome === 'confirmed') expectOk(ledger.execute('merchant', { type: 'ConfirmDeposit', data: { depositId } }));
  if (outcome === 'rejected')
    expectOk(ledger.execute('merchant', { type: 'RejectDeposit', data: { depositId, reason: 'networkInvalidated' } }));
}

/** The status fields every payment event carries; the audit reads none of them. */
const leading = (previousStatus: InvoiceStatus, status: InvoiceStatus) => ({ merchantUserId: 'merchant', previousStatus, status });
const seen = (paymentId: string, amountMlx: string, invoiceId = INVOICE_ID): InvoiceEvent => ({
  type: 'InvoicePaymentSeen',
  data: { invoiceId, paymentId, route: 'network', amountMlx, seenAt: at, ...leading('open', 'processing') },
});
const settledFromNetwork = (paymentId: string, amountMlx: string, invoiceId = INVOICE_ID): InvoiceEvent => ({
  type: 'InvoicePaymentSettled',
  data: { invoiceId, paymentId, route: 'network', amountMlx, settledAt: at, ...leading('processing', 'partially_paid') },
});
const failed = (paymentId: string): InvoiceEvent => ({
  type: 'InvoicePaymentFailed',
  data: { invoiceId: INVOICE_ID, paymentId, failedAt: at, ...leading('processing', 'open') },
});

/** The merchant's ledger with the invoice and its index, then `events` recorded on the invoice. */
const withInvoice = (ledger: MemoryLedger, ...events: InvoiceEvent[]): LedgerRecord[] => [
  ...ledger.log,
  invoiceRecord(created),
  indexRecord(),
  ...events.map((event) => invoiceRecord(event)),
];

describe('the invoice audit of payments from the millix network', () => {
  it('given deposits recorded stage by stage, one not recorded yet and one to the own address, then no violation and the lag is a figure', () => {
    const ledger = ledgerWithShopper();
    deposit(ledger, 'tx1:0', 4_000n, 'confirmed');
    deposit(ledger, 'tx2:0', 500n, 'rejected');
    deposit(ledger, 'tx3:0', 3_000n, 'confirmed');
    deposit(ledger, 'tx4:0', 900n, 'confirmed', testAddress(2));
    deposit(ledger, 'tx5:0', 100n, 'open');
    const records = withInvoice(ledger, seen('tx1:0', '4000'), settledFromNetwork('tx1:0', '4000'), seen('tx2:0', '500'), failed('tx2:0'));
    const audit = auditLedger([...records, invoiceRecord(seen('tx5:0', '100'))]);
    expect(audit.violations).toEqual([]);
    expect(audit.invoices).toEqual({
      invoices: 1,
      paidFromNetworkMlx: 4_000n,
      paidFromBalanceMlx: 0n,
      depositsNotRecorded: 1,
      depositsNotRecordedMlx: 3_000n,
      refunds: 0,
      refundedMlx: 0n,
      refundsAwaitingClaim: 0,
    });
    expect(auditLedger([...records, invoiceRecord(settledFromNetwork('tx3:0', '3000'))]).invoices).toMatchObject({
      paidFromNetworkMlx: 7_000n,
      depositsNotRecorded: 0,
    });
  });

  it('given a network settlement with no deposit, or with one only received or rejected, then invoicePaymentWithoutDeposit', () => {
    const ledger = ledgerWithShopper();
    deposit(ledger, 'tx1:0', 4_000n, 'open');
    deposit(ledger, 'tx2:0', 4_000n, 'rejected');
    for (const paymentId of ['never:0', 'tx1:0', 'tx2:0'])
      expect(codesOf(withInvoice(ledger, settledFromNetwork(paymentId, '4000')))).toEqual(['invoicePaymentWithoutDeposit']);
  });

  it("given a settled deposit of another amount, to another address, or in another wallet than the invoice's merchant's, then invoiceDepositMismatch", () => {
    const ledger = ledgerWithShopper();
    deposit(ledger, 'tx1:0', 4_000n, 'confirmed');
    deposit(ledger, 'tx2:0', 4_000n, 'confirmed', testAddress(2));
    expect(codesOf(withInvoice(ledger, settledFromNetwork('tx1:0', '4001')))).toEqual(['invoiceDepositMismatch']);
    expect(codesOf(withInvoice(ledger, settledFromNetwork('tx2:0', '4000')))).toEqual(['invoiceDepositMismatch']);
    const othersInvoice = invoiceRecord({ ...created, data: { ...created.data, merchantUserId: 'other' } } as InvoiceEvent);
    expect(codesOf([...ledger.log, othersInvoice, indexRecord(), invoiceRecord(settledFromNetwork('tx1:0', '4000'))])).toEqual([
      'invoiceDepositMismatch',
    ]);
  });

  it('given one deposit settled twice on an invoice, or on a second invoice, then invoiceDepositCreditedTwice', () => {
    const ledger = ledgerWithShopper();
    deposit(ledger, 'tx1:0', 4_000n, 'confirmed');
    const twice = withInvoice(ledger, settledFromNetwork('tx1:0', '4000'), settledFromNetwork('tx1:0', '4000'));
    expect(codesOf(twice)).toEqual(['invoiceDepositCreditedTwice']);
    const second = { ...created, data: { ...created.data, invoiceId: OTHER_INVOICE_ID } } as InvoiceEvent;
    const onTwo = [
      ...withInvoice(ledger, settledFromNetwork('tx1:0', '4000')),
      invoiceRecord(second, invoiceStream(OTHER_INVOICE_ID)),
      invoiceRecord(settledFromNetwork('tx1:0', '4000', OTHER_INVOICE_ID), invoiceStream(OTHER_INVOICE_ID)),
    ];
    expect(codesOf(onTwo)).toEqual(['invoiceDepositCreditedTwice']);
  });

  it('given a settled deposit at an address the index gives to no invoice or another, then invoiceAddressNotIndexed', () => {
    const ledger = ledgerWithShopper();
    deposit(ledger, 'tx1:0', 4_000n, 'confirmed');
    const settlement = invoiceRecord(settledFromNetwork('tx1:0', '4000'));
    expect(codesOf([...ledger.log, invoiceRecord(created), settlement])).toEqual(['invoiceAddressNotIndexed']);
    expect(codesOf([...ledger.log, invoiceRecord(created), indexRecord(OTHER_INVOICE_ID), settlement])).toEqual([
      'invoiceAddressNotIndexed',
    ]);
  });

  it('given a stage seen with no deposit or of another amount, or failed on a deposit not rejected, then each is named', () => {
    const ledger = ledgerWithShopper();
    deposit(ledger, 'tx1:0', 4_000n, 'confirmed');
    deposit(ledger, 'tx2:0', 600n, 'open');
    expect(codesOf(withInvoice(ledger, seen('never:0', '4000')))).toEqual(['invoicePaymentWithoutDeposit']);
    expect(codesOf(withInvoice(ledger, seen('tx2:0', '601')))).toEqual(['invoiceDepositMismatch']);
    expect(codesOf(withInvoice(ledger, seen('tx2:0', '600'), failed('tx2:0')))).toEqual(['invoicePaymentWithoutDeposit']);
    expect(codesOf(withInvoice(ledger, seen('tx1:0', '4000'), failed('tx1:0')))).toEqual(['invoicePaymentWithoutDeposit']);
  });
});
