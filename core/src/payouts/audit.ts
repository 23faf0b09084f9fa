/**
 * The payout part of the ledger audit (ADR 033), fed by the wallet audit like the checkout part:
 *
 * - every transfer with a `payout` reference matches exactly one PayoutRequested (same transfer
 *   id, payer = the merchant, amount, fee, address), and every PayoutRequested names such a
 *   transfer;
 * - a payout lands on its own stream, its transfer id is the payout's, and each payout id once.
 *
 * Conservation needs nothing new: the transfers are ordinary sends (fee 1000, internal or external).
 */
import type { PayoutTransferReference } from '../wallet/events.js';
import { PAYOUT_STREAM_PREFIX, payoutStream, payoutTransferId, toPayoutEvent } from './events.js';

export type PayoutViolationCode = 'malformedPayoutEvent' | 'payoutStreamMismatch' | 'payoutRequestedTwice' | 'payoutTransferMismatch';

interface Where {
  streamId?: string;
  transferId?: string;
  position?: string;
}
export type PayoutReport = (code: PayoutViolationCode, message: string, where?: Where) => void;

export interface PayoutReferencedTransfer {
  reference: PayoutTransferReference;
  payerWalletId: string;
  toAddress: string;
  payeeWalletId: string | undefined;
  amountMlx: bigint;
  feeMlx: bigint;
}

export interface PayoutFigures {
  payouts: number;
  payoutMlx: bigint;
}

export interface PayoutAuditor {
  addPayoutRecord(record: { streamId: string; type: string; data: unknown }, where: Where): void;
  addReferencedTransfer(transferId: string, transfer: PayoutReferencedTransfer): void;
  finalCheck(report: PayoutReport): void;
  figures(): PayoutFigures;
}

export const isPayoutStream = (streamId: string): boolean => streamId.startsWith(PAYOUT_STREAM_PREFIX);

interface PayoutClaim {
  payoutId: string;
  payerWalletId: string;
  toAddress: string;
  payeeWalletId: string | undefined;
  amountMlx: bigint;
  feeMlx: bigint;
}

export function createPayoutAuditor(report: PayoutReport): PayoutAuditor {
  const payoutIds = new Set<string>();
  const claims = new Map<string, PayoutClaim>();
  const transfers = new Map<string, PayoutReferencedTransfer>();
  const figures: PayoutFigures = { payouts: 0, payoutMlx: 0n };

  return {
    addPayoutRecord(record, where) {
      const event = toPayoutEvent(record);
      if (!event) return report('malformedPayoutEvent', `${record.type} on ${record.streamId} is not a well-formed payout event`, where);
      const d = event.data;
      const w = { ...where, transferId: d.transferId };
      if (record.streamId !== payoutStream(d.payoutId))
        return report('payoutStreamMismatch', `payout ${d.payoutId} appended to ${record.streamId}`, w);
      if (payoutIds.has(d.payoutId)) return report('payoutRequestedTwice', `payout ${d.payoutId} requested more than once`, w);
      payoutIds.add(d.payoutId);
      if (d.transferId !== payoutTransferId(d.payoutId))
        return report('payoutTransferMismatch', `payout ${d.payoutId} names transfer ${d.transferId}`, w);
      figures.payouts += 1;
      figures.payoutMlx += BigInt(d.mlx);
      claims.set(d.transferId, {
        payoutId: d.payoutId,
        payerWalletId: d.merchantUserId,
        toAddress: d.toAddress,
        payeeWalletId: d.toWalletId,
        amountMlx: BigInt(d.mlx),
        feeMlx: BigInt(d.feeMlx),
      });
    },
    addReferencedTransfer(transferId, transfer) {
      transfers.set(transferId, transfer);
    },
    finalCheck(finalReport) {
      for (const [transferId, t] of transfers) {
        const c = claims.get(transferId);
        const matches =
          c !== undefined &&
          c.payoutId === t.reference.payoutId &&
          c.payerWalletId === t.payerWalletId &&
          c.toAddress === t.toAddress &&
          c.payeeWalletId === t.payeeWalletId &&
          c.amountMlx === t.amountMlx &&
          c.feeMlx === t.feeMlx;
        if (!matches) finalReport('payoutTransferMismatch', `payout transfer ${transferId} matches no payout`, { transferId });
      }
      for (const [transferId, c] of claims)
        if (!transfers.has(transferId))
          finalReport('payoutTransferMismatch', `payout ${c.payoutId} names transfer ${transferId}, which was never made`, { transferId });
    },
    figures: () => ({ ...figures }),
  };
}
