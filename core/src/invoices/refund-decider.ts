/**
 * Pure decisions on an invoice's refunds (ADR 087). The merchant refunds at most what reached the
 * invoice and is stable, less what earlier refunds hold; the payer claims a refund once, and the
 * merchant may cancel it only while it is unclaimed. No MLX moves here: the claim's payout does.
 */
import { assertNever } from '../shared/assert.js';
import { AppError, RefusalError } from '../shared/errors.js';
import { mlxToWire } from '../wallet/money.js';
import type { InvoiceRefundCommand } from './commands.js';
import { INVOICE_REFUND_ID_PATTERN, type InvoiceRefundEvent } from './events.js';
import { type InvoiceState, refundableMlx } from './state.js';

/** A refund event as decided: the merchant and statuses are added by the invoice's decider. */
export type DecidedRefundEvent = InvoiceRefundEvent extends infer E
  ? E extends { type: infer T; data: infer D }
    ? { type: T; data: Omit<D, 'status' | 'previousStatus' | 'merchantUserId'> }
    : never
  : never;

export const invoiceRefundNotFound = () => new AppError('NOT_FOUND', 'errors:invoiceRefundNotFound');

export type InvoiceRefundRefusalReason = 'nothingToRefund' | 'alreadyClaimed' | 'canceled';
const refusal = (reason: InvoiceRefundRefusalReason, messageKey: string) => new RefusalError(reason, 'CONFLICT', messageKey);

export function decideInvoiceRefund(state: InvoiceState, command: InvoiceRefundCommand, at: string): DecidedRefundEvent[] {
  const { invoiceId } = state;
  switch (command.type) {
    case 'CreateInvoiceRefund': {
      const { refundId, merchantUserId, amountMlx, failedRefundIds } = command.data;
      if (!INVOICE_REFUND_ID_PATTERN.test(refundId))
        throw new Error(`A refund id must match ${INVOICE_REFUND_ID_PATTERN}, not ${refundId}`);
      if (state.merchantUserId !== merchantUserId) throw new AppError('NOT_FOUND', 'errors:invoiceNotFound');
      // Refund ids come from an Idempotency-Key: a second decision for one is the first's retry.
      if (state.refunds.has(refundId)) return [];
      const refundable = refundableMlx(state, new Set(failedRefundIds));
      if (refundable === 0n) throw refusal('nothingToRefund', 'errors:invoiceNothingToRefund');
      const amount = amountMlx ?? refundable;
      if (amount <= 0n) throw new AppError('VALIDATION', 'errors:invalidAmount', { amount: 'errors:invalidAmount' });
      if (amount > refundable)
        throw new AppError(
          'VALIDATION',
          'errors:invoiceRefundTooLarge',
          { amount: 'errors:invoiceRefundTooLarge' },
          { refundable: mlxToWire(refundable) },
        );
      const notifyByEmail = state.terms.customerEmail !== undefined;
      return [{ type: 'InvoiceRefundCreated', data: { invoiceId, refundId, amountMlx: mlxToWire(amount), notifyByEmail, createdAt: at } }];
    }
    case 'ClaimInvoiceRefund': {
      const { refundId, payoutId, toAddress } = command.data;
      const refund = state.refunds.get(refundId);
      if (!refund) throw new AppError('NOT_FOUND', 'errors:refundClaimNotFound');
      if (refund.canceledAt !== undefined) throw refusal('canceled', 'errors:refundClaimCanceled');
      if (refund.claim) {
        if (refund.claim.payoutId === payoutId && refund.claim.toAddress === toAddress) return [];
        throw refusal('alreadyClaimed', 'errors:refundClaimUsed');
      }
      return [{ type: 'InvoiceRefundClaimed', data: { invoiceId, refundId, payoutId, toAddress, claimedAt: at } }];
    }
    case 'CancelInvoiceRefund': {
      const { refundId, merchantUserId } = command.data;
      if (state.merchantUserId !== merchantUserId) throw new AppError('NOT_FOUND', 'errors:invoiceNotFound');
      const refund = state.refunds.get(refundId);
      if (!refund) throw invoiceRefundNotFound();
      if (refund.canceledAt !== undefined) return [];
      if (refund.claim) throw refusal('alreadyClaimed', 'errors:invoiceRefundClaimed');
      return [{ type: 'InvoiceRefundCanceled', data: { invoiceId, refundId, canceledAt: at } }];
    }
    case 'RecordInvoiceRefundEmailSent': {
      const { refundId, messageId } = command.data;
      const refund = state.refunds.get(refundId);
      if (!refund) throw invoiceRefundNotFound();
      if (refund.emailedAt !== undefined) return [];
      return [{ type: 'InvoiceRefundEmailSent', data: { invoiceId, refundId, messageId, sentAt: at } }];
    }
    default:
      return assertNever(command);
  }
}
