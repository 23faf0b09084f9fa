// Proves the refund and payout audits: clean histories pass with their figures, and each forged history is reported (a refund transfer without its CheckoutRefunded and the reverse, a refund above what was paid, a refund id twice, a refund on another order's stream or of an unpaid order, a payout transfer without its PayoutRequested, a PayoutRequested of another amount, a payout id twice, a malformed event).
import { describe, expect, it } from 'vitest';
import { CheckoutLedger } from '../../test/checkout-ledger.js';
import { type LedgerRecord, auditLedger } from '../audit/ledger.js';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import { MemoryLedger, testAddress } from '../../test/wallet-fixtures.js';
import { RefundLedger } from '../../test/refund-ledger.js';

const cart = [{ name: 'Tea', priceMlx: 40_000n, quantity: 2n }];

function history() {
  const ledger = new MemoryLedger();
  ledger.bootstrap(10_000_000_000n, 1_000_000_000n);
  ledger.open('shopper', 'user', testAddress(1), 'shopper');
  ledger.open('merchant', 'user', testAddress(2), 'merchant');
  ledger.transfer(SYSTEM_WALLET_IDS.reserve, 'shopper', 1_000_000n, 'fund');
  const step = new CheckoutLedger(ledger).pay('shopper', 'merchant', cart);
  if (step.kind !== 'paid') throw new Error('expected a payment');
  const money = new RefundLedger(ledger);
  expect(money.refund('merchant', step.orderId, 'k1', 30_000n).kind).toBe('done');
  expect(money.refund('merchant', step.orderId, 'k2', 20_000n).kind).toBe('done');
  expect(money.payout('merchant', { walletId: 'shopper' }, 5_000n, 'a').kind).toBe('done');
  expect(money.payout('shopper', { address: testAddress(77) }, 7_000n, 'b').kind).toBe('done');
  ledger.settle('shopper', `payout-po_${'b'.padStart(32, '0')}`);
  return { log: ledger.log, orderId: step.orderId };
}

const codes = (log: LedgerRecord[]) => auditLedger(log).violations.map((v) => v.code);
const data = (r: LedgerRecord) => r.data as Record<string, unknown>;
const isType = (type: string) => (r: LedgerRecord) => r.type === type;
const withData = (log: LedgerRecord[], pick: (r: LedgerRecord) => boolean, change: Record<string, unknown>, nth = 0): LedgerRecord[] => {
  let seen = -1;
  return log.map((r) => (pick(r) && ++seen === nth ? { ...r, data: { ...data(r), ...change } } : r));
};
const hasReference = (kind: string) => (r: LedgerRecord) => (data(r).reference as { kind?: string } | undefined)?.kind === kind;

describe('refund audit', () => {
  it('given refunds up to what was paid and payouts, when audited, then nothing is reported and the figures count them', () => {
    const audit = auditLedger(history().log);
    expect(audit.violations).toEqual([]);
    expect(audit.refunds).toEqual({ refunds: 2, refundedMlx: 50_000n });
    expect(audit.payouts).toEqual({ payouts: 2, payoutMlx: 12_000n });
  });

  it('given a refund transfer without its CheckoutRefunded, or CheckoutRefunded without its transfer, then both are mismatches', () => {
    const { log } = history();
    const [first] = log.filter(isType('CheckoutRefunded'));
    expect(codes(log.filter((r) => r !== first))).toEqual(['refundTransferMismatch']);
    const noTransfer = log.filter((r) => !(r.streamId.startsWith('wallet-') && hasReference('checkoutRefund')(r)));
    expect(codes(noTransfer)).toEqual(['refundTransferMismatch', 'refundTransferMismatch']);
  });

  it('given CheckoutRefunded claiming more than its transfer moved, then the order is refunded above what was paid and the transfer matches nothing', () => {
    const forged = withData(history().log, isType('CheckoutRefunded'), { mlx: '60001' }, 0);
    expect(codes(forged)).toEqual(['refundAbovePaid', 'refundTransferMismatch']);
  });

  it('given a refund id twice, a refund on another stream, or a malformed refund, then each is reported', () => {
    const { log } = history();
    const refunds = log.filter(isType('CheckoutRefunded'));
    const second = refunds[1] as LedgerRecord;
    const repeated = withData(log, (r) => r === second, { refundId: data(refunds[0] as LedgerRecord).refundId });
    expect(codes(repeated)).toContain('refundedTwice');
    const elsewhere = log.map((r) => (r === second ? { ...r, streamId: `checkout-${'f'.repeat(32)}` } : r));
    expect(codes(elsewhere)).toContain('refundStreamMismatch');
    const malformed = withData(log, (r) => r === second, { mlx: '-5' });
    expect(codes(malformed)).toContain('malformedRefundEvent');
  });

  it('given a refund of an order never paid, then it is reported', () => {
    const { log } = history();
    expect(codes(log.filter((r) => r.type !== 'CheckoutPaid'))).toContain('refundWithoutPayment');
  });
});

describe('payout audit', () => {
  it('given a payout transfer without its PayoutRequested, or PayoutRequested without its transfer, then both are mismatches', () => {
    const { log } = history();
    const [first] = log.filter(isType('PayoutRequested'));
    expect(codes(log.filter((r) => r !== first))).toEqual(['payoutTransferMismatch']);
  });

  it('given PayoutRequested of another amount or fee, then its transfer matches no payout', () => {
    const { log } = history();
    expect(codes(withData(log, isType('PayoutRequested'), { mlx: '5001' }))).toEqual(['payoutTransferMismatch']);
    expect(codes(withData(log, isType('PayoutRequested'), { feeMlx: '0' }, 1))).toEqual(['payoutTransferMismatch']);
  });

  it('given a payout requested twice, on another stream, or malformed, then each is reported', () => {
    const { log } = history();
    const [first] = log.filter(isType('PayoutRequested'));
    expect(codes([...log, first as LedgerRecord])).toContain('payoutRequestedTwice');
    expect(codes(log.map((r) => (r === first ? { ...r, streamId: `payout-po_${'c'.repeat(32)}` } : r)))).toContain('payoutStreamMismatch');
    expect(codes(withData(log, isType('PayoutRequested'), { payoutId: 'nope' }))).toContain('malformedPayoutEvent');
  });
});
