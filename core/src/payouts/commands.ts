/**
 * Payout commands (ADR 033): what the payout handler asks the decider to do. The recipient is
 * resolved and the payout id made (from the Idempotency-Key) before deciding, so the decision
 * needs no I/O. Amounts are bigint here.
 */

/** A payout from the merchant's wallet to `toAddress` (a Quern wallet when `toWalletId` is set). */
export type RequestPayout = {
  type: 'RequestPayout';
  data: {
    payoutId: string;
    merchantUserId: string;
    /** The recipient as the request named it (trimmed). */
    to: string;
    toAddress: string;
    toWalletId?: string;
    amountMlx: bigint;
  };
};
