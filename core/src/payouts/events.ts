/**
 * Payout events (issue 12): a merchant sent MLX from its wallet through the merchant API, under
 * the rules of a send (fee 1000, never overdrawn). `PayoutRequested` opens the payout's own
 * stream `payout-<payoutId>` in one atomic append with the wallet events of the send (wallet
 * reference kind 'payout'): to another Quern wallet the send is settled in that append; to an
 * external address it is a reservation that the settlement worker posts or voids later. So a
 * payout is completed when its transfer is posted (TransferPosted with the payout reference on
 * the merchant's wallet stream) and failed when it is voided (TransferVoided of its transfer id).
 */
import { z } from 'zod';

export const PAYOUT_STREAM_PREFIX = 'payout-';
export const payoutStream = (payoutId: string): string => `${PAYOUT_STREAM_PREFIX}${payoutId}`;

/** `po_` and 32 lower-case hex digits: a digest of the merchant and the request's Idempotency-Key. */
export const PAYOUT_ID_PATTERN = /^po_[0-9a-f]{32}$/;
/** The wallet transfer that carries a payout. */
export const payoutTransferId = (payoutId: string): string => `payout-${payoutId}`;
const PAYOUT_TRANSFER_ID_PATTERN = /^payout-(po_[0-9a-f]{32})$/;

/** The payout a transfer id belongs to, or undefined when it is not a payout's transfer. */
export const payoutIdOfTransfer = (transferId: string): string | undefined => PAYOUT_TRANSFER_ID_PATTERN.exec(transferId)?.[1];

export type PayoutRequested = {
  type: 'PayoutRequested';
  data: {
    payoutId: string;
    merchantUserId: string;
    /** The recipient as the request named it: an address, a username or an e-mail. */
    to: string;
    toAddress: string;
    /** Set when the recipient is a Quern wallet. */
    toWalletId?: string;
    mlx: string;
    feeMlx: string;
    transferId: string;
    requestedAt: string;
  };
};

export type PayoutEvent = PayoutRequested;

const amount = z.string().regex(/^[1-9][0-9]{0,19}$/);
const fee = z.string().regex(/^(0|[1-9][0-9]{0,19})$/);

const payoutRequestedData: z.ZodType<PayoutRequested['data']> = z.object({
  payoutId: z.string().regex(PAYOUT_ID_PATTERN),
  merchantUserId: z.string().min(1).max(200),
  // Sealed in the log when the recipient is a Quern account (ADR 042): the ciphertext of a
  // 320-character name is longer than the name.
  to: z.string().min(1).max(2000),
  toAddress: z.string().min(1).max(200),
  toWalletId: z.string().min(1).max(200).optional(),
  mlx: amount,
  feeMlx: fee,
  transferId: z.string().regex(PAYOUT_TRANSFER_ID_PATTERN),
  requestedAt: z.string().min(1).max(40),
});

export const isPayoutEventType = (type: string): type is PayoutEvent['type'] => type === 'PayoutRequested';

/** A recorded event as a PayoutEvent, or undefined when it is not one or has not its shape. */
export function toPayoutEvent(recorded: { type: string; data: unknown }): PayoutEvent | undefined {
  if (!isPayoutEventType(recorded.type)) return undefined;
  const parsed = payoutRequestedData.safeParse(recorded.data);
  return parsed.success ? { type: 'PayoutRequested', data: parsed.data } : undefined;
}
