/**
 * The invoice rule of the ledger audit (issue 27, run by core/src/audit/, ADR 067): every transfer
 * with an `invoicePayment` reference matches exactly one InvoicePaymentSettled paid from a Quern
 * balance (its payment id is the transfer's id: same invoice, payee = the invoice's merchant, the
 * amount, no fee), and every such settlement names such a transfer; an invoice lands on its own
 * stream and is created once. Deposits to an invoice's address are the wallet's deposits: the
 * wallet's rules already audit them.
 */
import type { CapabilityAuditRule } from '../shared/audit-rule.js';
import { INVOICE_ID_PATTERN, INVOICE_STREAM_PREFIX, invoiceStream, toInvoiceEvent } from './events.js';
import { type InvoicePaymentTransferReference, isInvoicePaymentReference } from './transfer-reference.js';

export type InvoiceViolationCode = 'malformedInvoiceEvent' | 'invoiceStreamMismatch' | 'invoiceCreatedTwice' | 'invoiceTransferMismatch';

export interface InvoiceFigures {
  invoices: number;
  /** MLX settled on invoices from the millix network (deposits to their addresses). */
  paidFromNetworkMlx: bigint;
  /** MLX settled on invoices from Quern balances. */
  paidFromBalanceMlx: bigint;
}

/** An invoice's own stream (`invoice-in_…`), not the address index beside it (`invoice-address-…`, handlers.ts). */
export const isInvoiceStream = (streamId: string): boolean =>
  streamId.startsWith(INVOICE_STREAM_PREFIX) && INVOICE_ID_PATTERN.test(streamId.slice(INVOICE_STREAM_PREFIX.length));

interface InvoiceClaim {
  invoiceId: string;
  merchantUserId: string;
  amountMlx: bigint;
}

export const invoiceAuditRule: CapabilityAuditRule<InvoiceViolationCode, InvoiceClaim, InvoicePaymentTransferReference, InvoiceFigures> = {
  describe: (f, mlx) => [
    `invoices: ${f.invoices} (${mlx(f.paidFromNetworkMlx)} paid from the millix network, ${mlx(f.paidFromBalanceMlx)} from Quern balances)`,
  ],
  readsRecord: (record) => isInvoiceStream(record.streamId),
  transfers: {
    mismatch: 'invoiceTransferMismatch',
    isOwnReference: isInvoicePaymentReference,
    matches: (c, t) =>
      c.invoiceId === t.reference.invoiceId && c.merchantUserId === t.payeeWalletId && c.amountMlx === t.amountMlx && t.feeMlx === 0n,
    unmatchedMessage: (transferId) => `invoice payment transfer ${transferId} matches no invoice's settled payment`,
    neverMadeMessage: (transferId, c) => `invoice ${c.invoiceId} names transfer ${transferId}, which was never made`,
  },
  start(report, claims) {
    const merchants = new Map<string, string>();
    const figures: InvoiceFigures = { invoices: 0, paidFromNetworkMlx: 0n, paidFromBalanceMlx: 0n };
    return {
      addRecord(record, where) {
        const event = toInvoiceEvent(record);
        if (!event)
          return report('malformedInvoiceEvent', `${record.type} on ${record.streamId} is not a well-formed invoice event`, where);
        const { invoiceId } = event.data;
        if (record.streamId !== invoiceStream(invoiceId))
          return report('invoiceStreamMismatch', `invoice ${invoiceId} appended to ${record.streamId}`, where);
        if (event.type === 'InvoiceCreated') {
          if (merchants.has(invoiceId)) return report('invoiceCreatedTwice', `invoice ${invoiceId} created more than once`, where);
          merchants.set(invoiceId, event.data.merchantUserId);
          figures.invoices += 1;
          return;
        }
        if (event.type !== 'InvoicePaymentSettled') return;
        const amountMlx = BigInt(event.data.amountMlx);
        if (event.data.route === 'network') {
          figures.paidFromNetworkMlx += amountMlx;
          return;
        }
        figures.paidFromBalanceMlx += amountMlx;
        const { paymentId } = event.data;
        const w = { ...where, transferId: paymentId };
        if (claims.isClaimed(paymentId)) return report('invoiceTransferMismatch', `transfer ${paymentId} settles an invoice twice`, w);
        claims.claim(paymentId, { invoiceId, merchantUserId: merchants.get(invoiceId) ?? '', amountMlx });
      },
      figures: () => ({ ...figures }),
    };
  },
};
