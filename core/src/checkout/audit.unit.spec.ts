// Proves the checkout audit: a clean history passes with its figures, and each forged history is reported (a checkout transfer without its CheckoutPaid, a CheckoutPaid without its transfer or of another amount or payee, an order paid twice, a payment on the wrong stream or out of sequence, a malformed event).
import { describe, expect, it } from 'vitest';
import { type LedgerRecord, auditLedger } from '../audit/ledger.js';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import { MemoryLedger, testAddress } from '../../test/wallet-fixtures.js';
import { CheckoutLedger } from '../../test/checkout-ledger.js';

const cart = [{ name: 'Tea', priceMlx: 40_000n, quantity: 2n }];

function paidHistory() {
  const ledger = new MemoryLedger();
  ledger.bootstrap(10_000_000_000n, 1_000_000_000n);
  ledger.open('shopper', 'user', testAddress(1), 'shopper');
  ledger.open('merchant', 'user', testAddress(2), 'merchant');
  ledger.transfer(SYSTEM_WALLET_IDS.reserve, 'shopper', 1_000_000n, 'fund');
  const checkouts = new CheckoutLedger(ledger);
  const step = checkouts.pay('shopper', 'merchant', cart);
  if (step.kind !== 'paid') throw new Error('expected a payment');
  return { log: ledger.log, orderId: step.orderId };
}

const codes = (log: LedgerRecord[]) => auditLedger(log).violations.map((v) => v.code);
const isPaid = (r: LedgerRecord) => r.type === 'CheckoutPaid';
const paidData = (r: LedgerRecord) => r.data as Record<string, unknown>;

describe('checkout audit', () => {
  it('given a paid checkout, when audited, then nothing is reported and the figures count it', () => {
    const audit = auditLedger(paidHistory().log);
    expect(audit.violations).toEqual([]);
    expect(audit.checkouts).toEqual({ paid: 1, paidMlx: 80_000n });
  });

  it('given the transfer without its CheckoutPaid, or CheckoutPaid without its transfer, then both are mismatches', () => {
    const { log } = paidHistory();
    expect(codes(log.filter((r) => !isPaid(r)))).toEqual(['checkoutTransferMismatch']);
    const noTransfer = log.filter((r) => !(r.streamId.startsWith('wallet-') && (r.data as { reference?: unknown }).reference));
    expect(codes(noTransfer)).toEqual(['checkoutTransferMismatch']);
  });

  it('given CheckoutPaid claiming another amount or payee, then its transfer matches no payment', () => {
    const { log } = paidHistory();
    for (const forged of [{ mlx: '80001' }, { merchantUserId: 'shopper' }, { shopperUserId: 'merchant' }]) {
      const tampered = log.map((r) => (isPaid(r) ? { ...r, data: { ...paidData(r), ...forged } } : r));
      expect(codes(tampered), JSON.stringify(forged)).toContain('checkoutTransferMismatch');
    }
  });

  it('given an order paid twice, on the wrong stream, or out of sequence, then each is reported', () => {
    const { log, orderId } = paidHistory();
    const paid = log.find(isPaid) as LedgerRecord;
    expect(codes([...log, paid])).toContain('checkoutPaidTwice');
    expect(codes(log.map((r) => (isPaid(r) ? { ...r, streamId: 'checkout-ffffffffffffffffffffffffffffffff' } : r)))).toContain(
      'checkoutStreamMismatch',
    );
    const third = orderId.replace(/-1$/, '-3');
    expect(codes(log.map((r) => (isPaid(r) ? { ...r, data: { ...paidData(r), orderId: third } } : r)))).toContain('checkoutStreamMismatch');
    expect(codes([...log, { streamId: paid.streamId, type: 'CheckoutPaid', data: { orderId } }])).toContain('malformedCheckoutEvent');
  });
});
