/**
 * The invoice rule of the ledger audit (issue 27, run by core/src/audit/, ADR 067, 080). An
 * invoice lands on its own stream and is created once. Its payments are checked by their route:
 *
 * - from a Quern balance: every transfer with an `invoicePayment` reference matches exactly one
 *   InvoicePaymentSettled (its payment id is the transfer's id: same invoice, payee = the
 *   invoice's merchant, the amount, no fee), and every such settlement names such a transfer;
 * - from the millix network: every stage recorded on an invoice names a deposit the ledger
 *   accepted at that stage, to the invoice's address, in its merchant's wallet, of that amount,
 *   and no deposit is settled twice (network-audit.ts). The deposits themselves are the wallet's:
 *   the ledger's own rules audit them.
 */
import type { AuditWhere, CapabilityAuditRule } from '../shared/audit-rule.js';
import { isInvoiceAddressStream, toInvoiceAddressAssignment } from './address-index.js';
import { isPayoutStream } from '../payouts/audit.js';
import { toPayoutEvent } from '../payouts/events.js';
import {
  INVOICE_ID_PATTERN,
  INVOICE_STREAM_PREFIX,
  type InvoiceEvent,
  type InvoiceRefundEvent,
  invoiceStream,
  toInvoiceEvent,
} from './events.js';
import { type RefundFigures, type RefundViolationCode, startRefundAudit } from './refund-audit.js';
import { type NetworkPaymentViolationCode, startNetworkPaymentAudit } from './network-audit.js';
import { type InvoicePaymentTransferReference, isInvoicePaymentReference } from './transfer-reference.js';

export type InvoiceViolationCode =
  | 'malformedInvoiceEvent'
  | 'invoiceStreamMismatch'
  | 'invoiceCreatedTwice'
  | 'invoiceTransferMismatch'
  | NetworkPaymentViolationCode
  | RefundViolationCode;

export interface InvoiceFigures extends RefundFigures {
  invoices: number;
  /** MLX settled on invoices from the millix network (deposits to their addresses). */
  paidFromNetworkMlx: bigint;
  /** MLX settled on invoices from Quern balances. */
  paidFromBalanceMlx: bigint;
  /**
   * Confirmed deposits to invoices' addresses that no invoice records as settled at the end of
   * the log: the invoice-payment job's lag (or a job that gave up). No violation: the MLX are in
   * the merchant's balance already; only the invoice's status waits.
   */
  depositsNotRecorded: number;
  depositsNotRecordedMlx: bigint;
}

/** An invoice's own stream (`invoice-in_…`), not the address index beside it (`invoice-address-…`, address-index.ts). */
export const isInvoiceStream = (streamId: string): boolean =>
  streamId.startsWith(INVOICE_STREAM_PREFIX) && INVOICE_ID_PATTERN.test(streamId.slice(INVOICE_STREAM_PREFIX.length));

interface InvoiceClaim {
  invoiceId: string;
  merchantUserId: string;
  amountMlx: bigint;
}

type PaymentEvent = Extract<InvoiceEvent, { type: 'InvoicePaymentSeen' | 'InvoicePaymentSettled' | 'InvoicePaymentFailed' }>;
const isRefundEvent = (event: InvoiceEvent): event is InvoiceRefundEvent => event.type.startsWith('InvoiceRefund');
const PAYMENT_STAGE = { InvoicePaymentSeen: 'seen', InvoicePaymentSettled: 'settled', InvoicePaymentFailed: 'failed' } as const;

export const invoiceAuditRule: CapabilityAuditRule<InvoiceViolationCode, InvoiceClaim, InvoicePaymentTransferReference, InvoiceFigures> = {
  describe: (f, mlx) => [
    `invoices: ${f.invoices} (${mlx(f.paidFromNetworkMlx)} paid from the millix network, ${mlx(f.paidFromBalanceMlx)} from Quern balances)`,
    `invoice deposits not yet recorded on their invoice: ${f.depositsNotRecorded} (${mlx(f.depositsNotRecordedMlx)}, already in the merchants' balances)`,
    `invoice refunds: ${f.refunds} (${mlx(f.refundedMlx)} sent to payers, ${f.refundsAwaitingClaim} awaiting their claim)`,
  ],
  // Payout streams too: a claimed refund names its payout (refund-audit.ts); the payout rule audits the payout itself.
  readsRecord: (record) => isInvoiceStream(record.streamId) || isInvoiceAddressStream(record.streamId) || isPayoutStream(record.streamId),
  transfers: {
    mismatch: 'invoiceTransferMismatch',
    isOwnReference: isInvoicePaymentReference,
    matches: (c, t) =>
      c.invoiceId === t.reference.invoiceId && c.merchantUserId === t.payeeWalletId && c.amountMlx === t.amountMlx && t.feeMlx === 0n,
    unmatchedMessage: (transferId) => `invoice payment transfer ${transferId} matches no invoice's settled payment`,
    neverMadeMessage: (transferId, c) => `invoice ${c.invoiceId} names transfer ${transferId}, which was never made`,
  },
  start(report, claims) {
    const invoices = new Map<string, { merchantUserId: string; address: string }>();
    const network = startNetworkPaymentAudit({ invoice: (invoiceId) => invoices.get(invoiceId) });
    const figures = { invoices: 0, paidFromNetworkMlx: 0n, paidFromBalanceMlx: 0n };
    const settledByInvoice = new Map<string, bigint>();
    const refundAudit = startRefundAudit({
      merchantOf: (invoiceId) => invoices.get(invoiceId)?.merchantUserId,
      settledMlx: (invoiceId) => settledByInvoice.get(invoiceId) ?? 0n,
    });

    /** A balance payment settles at once with its transfer; it is never seen or failed (ADR 080). */
    function claimBalancePayment(invoiceId: string, transferId: string, amountMlx: bigint, where: AuditWhere): void {
      figures.paidFromBalanceMlx += amountMlx;
      if (claims.isClaimed(transferId)) {
        report('invoiceTransferMismatch', `transfer ${transferId} settles an invoice twice`, { ...where, transferId });
        return;
      }
      claims.claim(transferId, { invoiceId, merchantUserId: invoices.get(invoiceId)?.merchantUserId ?? '', amountMlx });
    }

    function addPayment(event: PaymentEvent, where: AuditWhere): void {
      const { invoiceId, paymentId } = event.data;
      const payment = { invoiceId, depositId: paymentId, stage: PAYMENT_STAGE[event.type], where: { ...where, depositId: paymentId } };
      if (event.type === 'InvoicePaymentFailed') {
        network.addPayment(payment, report);
        return;
      }
      const amountMlx = BigInt(event.data.amountMlx);
      if (event.type === 'InvoicePaymentSettled') settledByInvoice.set(invoiceId, (settledByInvoice.get(invoiceId) ?? 0n) + amountMlx);
      if (event.type === 'InvoicePaymentSettled' && event.data.route === 'quern') {
        claimBalancePayment(invoiceId, paymentId, amountMlx, where);
        return;
      }
      if (event.type === 'InvoicePaymentSettled') figures.paidFromNetworkMlx += amountMlx;
      network.addPayment({ ...payment, amountMlx }, report);
    }

    return {
      addRecord(record, where) {
        if (isPayoutStream(record.streamId)) {
          // Malformed payout events are the payout rule's to report.
          const payout = toPayoutEvent(record);
          if (payout) refundAudit.addPayout(payout.data);
          return;
        }
        if (isInvoiceAddressStream(record.streamId)) {
          const assigned = toInvoiceAddressAssignment(record);
          if (!assigned)
            return report('malformedInvoiceEvent', `${record.type} on ${record.streamId} is not a well-formed address assignment`, where);
          return network.addIndex(assigned.address, assigned.invoiceId);
        }
        const event = toInvoiceEvent(record);
        if (!event)
          return report('malformedInvoiceEvent', `${record.type} on ${record.streamId} is not a well-formed invoice event`, where);
        const { invoiceId } = event.data;
        if (record.streamId !== invoiceStream(invoiceId))
          return report('invoiceStreamMismatch', `invoice ${invoiceId} appended to ${record.streamId}`, where);
        if (event.type === 'InvoiceCreated') {
          if (invoices.has(invoiceId)) return report('invoiceCreatedTwice', `invoice ${invoiceId} created more than once`, where);
          invoices.set(invoiceId, { merchantUserId: event.data.merchantUserId, address: event.data.address });
          figures.invoices += 1;
          return;
        }
        if (event.type === 'InvoiceExpired' || event.type === 'InvoiceVoided') return;
        if (isRefundEvent(event)) return refundAudit.addRefundEvent(event, where);
        addPayment(event, where);
      },
      addDeposit: (deposit) => network.addDeposit(deposit),
      finalCheck(finalReport, ledger) {
        network.finalCheck(finalReport);
        refundAudit.finalCheck(finalReport, ledger);
      },
      figures() {
        const unrecorded = network.unrecorded();
        return { ...figures, ...refundAudit.figures(), depositsNotRecorded: unrecorded.deposits, depositsNotRecordedMlx: unrecorded.mlx };
      },
    };
  },
};
