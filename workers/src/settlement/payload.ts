/**
 * The settlement job's data. The dispatcher makes it from TransferReserved (ids and the time of
 * the reservation, nothing else: amounts and addresses are read from the payer's stream, which
 * is the authority). The job adds `progress` as it goes, so a retry resumes where it stopped.
 */
import { NETWORK_TRANSACTION_HASH_PATTERN, TRANSFER_ID_PATTERN, WALLET_ID_PATTERN } from '@quern/core/wallet';
import { z } from 'zod';
import { waitProgress } from '../job/resumable.js';

export const SETTLEMENT_QUEUE = 'settlement';
export const SETTLEMENT_JOB_NAME = 'settle-transfer';

/**
 * One job per transfer. Transfer ids are made by the server (a UUID per send, see sendMlx), so
 * they are unique across wallets; TRANSFER_ID_PATTERN has no ':', which BullMQ refuses in ids.
 */
export const settlementJobId = (transferId: string): string => `settle-${transferId}`;

export const settlementPayload = z
  .object({
    payerWalletId: z.string().regex(WALLET_ID_PATTERN),
    transferId: z.string().regex(TRANSFER_ID_PATTERN),
    /**
     * From TransferReserved: the settlement delay counts from it. Checked loosely (the event
     * schema allows any short text) because a time the job cannot read only skips the delay; it
     * must never keep a reservation from being settled.
     */
    reservedAt: z.string().min(1).max(40),
  })
  .strict();
export type SettlementPayload = z.infer<typeof settlementPayload>;

/**
 * Recorded once the network accepted the transaction: later runs only wait for it. The wait
 * starts there, not at the first run, so time spent retrying an unreachable network is not
 * counted against the confirmation.
 */
export const settlementProgress = waitProgress.extend({
  transactionHash: z.string().regex(NETWORK_TRANSACTION_HASH_PATTERN),
});
export type SettlementProgress = z.infer<typeof settlementProgress>;

export const settlementJobData = settlementPayload.extend({ progress: settlementProgress.optional() }).strict();
export type SettlementJobData = z.infer<typeof settlementJobData>;
