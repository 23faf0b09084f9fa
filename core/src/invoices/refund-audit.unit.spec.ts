// Proves the invoice refund audit (ADR 087): refunds claimed with their payouts and within what reached the invoice audit clean and are counted; refunds holding more than was received, a claim naming no payout, a payout of another merchant or amount, one payout carrying two refunds, and a refund both claimed and canceled are each named; a refund whose payout failed holds nothing.
import { describe, expect, it } from 'vitest';
import type { PayoutRequested } from '../payouts/events.js';
import type { AuditWhere, LedgerOutcomes } from '../shared/audit-rule.js';
import type { InvoiceRefundEvent } from './events.js';
import { startRefundAudit } from './refund-audit.js';

const INVOICE = `in_${'a'.repeat(32)}`;
const refundId = (n: number): string => `ir_${n.toString(16).padStart(32, '0')}`;
const payoutId = (n: number): string => `po_${n.toString(16).padStart(32, '0')}`;
const status = { merchantUserId: 'merchant', status: 'paid', previousStatus: 'paid' } as const;
const at = '2026-11-28T10:00:00.000Z';

const createdRefund = (n: number, amountMlx: string): InvoiceRefundEvent => ({
  type: 'InvoiceRefundCreated',
  data: { invoiceId: INVOICE, refundId: refundId(n), amountMlx, notifyByEmail: false, createdAt: at, ...status },
});
const claimed = (n: number, payout: number): InvoiceRefundEvent => ({
  type: 'InvoiceRefundClaimed',
  data: { invoiceId: INVOICE, refundId: refundId(n), payoutId: payoutId(payout), toAddress: 'addr', claimedAt: at, ...status },
});
const canceled = (n: number): InvoiceRefundEvent => ({
  type: 'InvoiceRefundCanceled',
  data: { invoiceId: INVOICE, refundId: refundId(n), canceledAt: at, ...status },
});
const payout = (n: number, mlx: string, merchantUserId = 'merchant'): PayoutRequested['data'] => ({
  payoutId: payoutId(n),
  merchantUserId,
  to: 'addr',
  toAddress: 'addr',
  mlx,
  feeMlx: '1000',
  transferId: `payout-${payoutId(n)}`,
  requestedAt: at,
});

function run(
  events: InvoiceRefundEvent[],
  payouts: PayoutRequested['data'][],
  settledMlx = 7_000n,
  statusOf: LedgerOutcomes['transferStatus'] = () => 'posted',
) {
  const audit = startRefundAudit({ merchantOf: () => 'merchant', settledMlx: () => settledMlx });
  const where: AuditWhere = {};
  for (const event of events) audit.addRefundEvent(event, where);
  for (const p of payouts) audit.addPayout(p);
  const codes: string[] = [];
  audit.finalCheck((code) => codes.push(code), { transferStatus: statusOf });
  return { codes, figures: audit.figures() };
}

describe('the invoice refund audit', () => {
  it('given refunds claimed with their payouts within what was received, then no violation and the figures count them', () => {
    const { codes, figures } = run([createdRefund(1, '4000'), claimed(1, 1), createdRefund(2, '3000')], [payout(1, '4000')]);
    expect(codes).toEqual([]);
    expect(figures).toEqual({ refunds: 2, refundedMlx: 4_000n, refundsAwaitingClaim: 1 });
  });

  it('given refunds holding more than reached the invoice, then invoiceRefundedBeyondPaid; a canceled one or one whose payout failed holds nothing', () => {
    expect(run([createdRefund(1, '4000'), createdRefund(2, '3001')], []).codes).toEqual(['invoiceRefundedBeyondPaid']);
    expect(run([createdRefund(1, '4000'), createdRefund(2, '3001'), canceled(2)], []).codes).toEqual([]);
    const failedFirst = run(
      [createdRefund(1, '4000'), claimed(1, 1), createdRefund(2, '7000')],
      [payout(1, '4000')],
      7_000n,
      () => 'voided',
    );
    expect(failedFirst.codes).toEqual([]);
    expect(failedFirst.figures.refundedMlx).toBe(0n);
  });

  it('given a claim naming no payout, a payout of another amount or merchant, or one payout for two refunds, then invoiceRefundPayoutMismatch', () => {
    expect(run([createdRefund(1, '4000'), claimed(1, 1)], []).codes).toEqual(['invoiceRefundPayoutMismatch']);
    expect(run([createdRefund(1, '4000'), claimed(1, 1)], [payout(1, '3999')]).codes).toEqual(['invoiceRefundPayoutMismatch']);
    expect(run([createdRefund(1, '4000'), claimed(1, 1)], [payout(1, '4000', 'other')]).codes).toEqual(['invoiceRefundPayoutMismatch']);
    expect(run([createdRefund(1, '3000'), claimed(1, 1), createdRefund(2, '3000'), claimed(2, 1)], [payout(1, '3000')]).codes).toEqual([
      'invoiceRefundPayoutMismatch',
    ]);
  });

  it('given a refund both claimed and canceled, then invoiceRefundClaimedAndCanceled', () => {
    expect(run([createdRefund(1, '4000'), claimed(1, 1), canceled(1)], [payout(1, '4000')]).codes).toEqual([
      'invoiceRefundClaimedAndCanceled',
    ]);
  });
});
