/**
 * The audit of invoice refunds (ADR 087), part of the invoice rule: paid and refunded amounts add
 * up. At the end of the log, for each invoice:
 *
 * - every claimed refund names a payout that exists, of the merchant's wallet, of the refund's
 *   amount, and no payout carries two refunds (`invoiceRefundPayoutMismatch`);
 * - no refund is both claimed and canceled (`invoiceRefundClaimedAndCanceled`);
 * - what its refunds hold (each not canceled whose payout did not fail) is at most what reached the
 *   invoice and is stable (`invoiceRefundedBeyondPaid`).
 *
 * The payouts' own rule matches each payout with its transfer; this reads the transfer's outcome.
 */
import type { AuditReport, AuditWhere, LedgerOutcomes } from '../shared/audit-rule.js';
import type { PayoutRequested } from '../payouts/events.js';
import type { InvoiceRefundEvent } from './events.js';

export type RefundViolationCode = 'invoiceRefundPayoutMismatch' | 'invoiceRefundClaimedAndCanceled' | 'invoiceRefundedBeyondPaid';

export interface RefundFigures {
  refunds: number;
  /** MLX the payouts of claimed refunds delivered (posted). */
  refundedMlx: bigint;
  /** Refunds created and neither claimed nor canceled. */
  refundsAwaitingClaim: number;
}

interface RefundTrack {
  invoiceId: string;
  amountMlx: bigint;
  payoutId?: string;
  canceled: boolean;
  where: AuditWhere;
}

export function startRefundAudit(lookup: { merchantOf(invoiceId: string): string | undefined; settledMlx(invoiceId: string): bigint }) {
  const refunds = new Map<string, RefundTrack>();
  const payouts = new Map<string, PayoutRequested['data']>();
  // How the transfers ended, known once the log is read (finalCheck); the figures use it.
  let outcomes: LedgerOutcomes | undefined;
  return {
    addRefundEvent(event: InvoiceRefundEvent, where: AuditWhere): void {
      const { refundId } = event.data;
      switch (event.type) {
        case 'InvoiceRefundCreated':
          refunds.set(refundId, { invoiceId: event.data.invoiceId, amountMlx: BigInt(event.data.amountMlx), canceled: false, where });
          return;
        case 'InvoiceRefundClaimed': {
          const track = refunds.get(refundId);
          if (track) track.payoutId = event.data.payoutId;
          return;
        }
        case 'InvoiceRefundCanceled': {
          const track = refunds.get(refundId);
          if (track) track.canceled = true;
          return;
        }
        case 'InvoiceRefundEmailSent':
          return;
      }
    },
    addPayout(payout: PayoutRequested['data']): void {
      payouts.set(payout.payoutId, payout);
    },
    finalCheck(report: AuditReport<RefundViolationCode>, ledger: LedgerOutcomes): void {
      outcomes = ledger;
      const heldByInvoice = new Map<string, bigint>();
      const payoutsUsed = new Set<string>();
      for (const [refundId, track] of refunds) {
        const where = { ...track.where };
        if (track.payoutId !== undefined) {
          if (track.canceled) report('invoiceRefundClaimedAndCanceled', `refund ${refundId} was claimed and canceled`, where);
          const payout = payouts.get(track.payoutId);
          if (!payout) {
            report('invoiceRefundPayoutMismatch', `refund ${refundId} names payout ${track.payoutId}, which was never requested`, where);
          } else if (payout.merchantUserId !== lookup.merchantOf(track.invoiceId) || BigInt(payout.mlx) !== track.amountMlx) {
            report(
              'invoiceRefundPayoutMismatch',
              `refund ${refundId} and its payout ${track.payoutId} differ in merchant or amount`,
              where,
            );
          }
          if (payoutsUsed.has(track.payoutId))
            report('invoiceRefundPayoutMismatch', `payout ${track.payoutId} carries more than one refund`, where);
          payoutsUsed.add(track.payoutId);
          if (payout && ledger.transferStatus(payout.transferId) === 'voided') continue;
        }
        if (track.canceled) continue;
        heldByInvoice.set(track.invoiceId, (heldByInvoice.get(track.invoiceId) ?? 0n) + track.amountMlx);
      }
      for (const [invoiceId, held] of heldByInvoice) {
        const settled = lookup.settledMlx(invoiceId);
        if (held > settled)
          report('invoiceRefundedBeyondPaid', `invoice ${invoiceId} refunds ${held} MLX of ${settled} MLX received`, {
            streamId: `invoice-${invoiceId}`,
          });
      }
    },
    figures(): RefundFigures {
      let refundedMlx = 0n;
      let refundsAwaitingClaim = 0;
      for (const track of refunds.values()) {
        if (track.payoutId === undefined) {
          if (!track.canceled) refundsAwaitingClaim += 1;
          continue;
        }
        const payout = payouts.get(track.payoutId);
        if (payout && outcomes?.transferStatus(payout.transferId) === 'posted') refundedMlx += track.amountMlx;
      }
      return { refunds: refunds.size, refundedMlx, refundsAwaitingClaim };
    },
  };
}
