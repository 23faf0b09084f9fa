/**
 * The payout rule of the ledger audit (ADR 033, run by core/src/audit/, ADR 067):
 *
 * - every transfer with a `payout` reference matches exactly one PayoutRequested (same transfer
 *   id, payer = the merchant, amount, fee, address), and every PayoutRequested names such a
 *   transfer (the transfer-claim auditor, configured here);
 * - a payout lands on its own stream, its transfer id is the payout's, and each payout id once.
 *
 * Conservation needs nothing new: the transfers are ordinary sends (fee 1000, internal or external).
 */
import type { CapabilityAuditRule } from '../shared/audit-rule.js';
import { type PayoutTransferReference, isPayoutReference } from './transfer-reference.js';
import { PAYOUT_STREAM_PREFIX, payoutStream, payoutTransferId, toPayoutEvent } from './events.js';

export type PayoutViolationCode = 'malformedPayoutEvent' | 'payoutStreamMismatch' | 'payoutRequestedTwice' | 'payoutTransferMismatch';

export interface PayoutFigures {
  payouts: number;
  payoutMlx: bigint;
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

export const payoutAuditRule: CapabilityAuditRule<PayoutViolationCode, PayoutClaim, PayoutTransferReference, PayoutFigures> = {
  describe: (f, mlx) => [`payouts: ${f.payouts} (${mlx(f.payoutMlx)} sent from merchant wallets)`],
  readsRecord: (record) => isPayoutStream(record.streamId),
  transfers: {
    mismatch: 'payoutTransferMismatch',
    isOwnReference: isPayoutReference,
    matches: (c, t) =>
      c.payoutId === t.reference.payoutId &&
      c.payerWalletId === t.payerWalletId &&
      c.toAddress === t.toAddress &&
      c.payeeWalletId === t.payeeWalletId &&
      c.amountMlx === t.amountMlx &&
      c.feeMlx === t.feeMlx,
    unmatchedMessage: (transferId) => `payout transfer ${transferId} matches no payout`,
    neverMadeMessage: (transferId, c) => `payout ${c.payoutId} names transfer ${transferId}, which was never made`,
  },
  start(report, claims) {
    const payoutIds = new Set<string>();
    const figures: PayoutFigures = { payouts: 0, payoutMlx: 0n };
    return {
      addRecord(record, where) {
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
        // A payout's transfer id is derived from its id, checked once above: no second claim can name it.
        claims.claim(d.transferId, {
          payoutId: d.payoutId,
          payerWalletId: d.merchantUserId,
          toAddress: d.toAddress,
          payeeWalletId: d.toWalletId,
          amountMlx: BigInt(d.mlx),
          feeMlx: BigInt(d.feeMlx),
        });
      },
      figures: () => ({ ...figures }),
    };
  },
};
