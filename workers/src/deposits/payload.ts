/**
 * The deposit-confirmation job's data: which deposit of which wallet. The transaction hash and
 * amount are read from the wallet's stream (the authority), not carried in the job.
 */
import { DEPOSIT_ID_PATTERN, WALLET_ID_PATTERN } from '@quern/core/wallet';
import { z } from 'zod';
import { waitProgress } from '../job/resumable.js';

export const DEPOSIT_CONFIRMATION_QUEUE = 'deposit-confirmation';
export const DEPOSIT_CONFIRMATION_JOB_NAME = 'confirm-deposit';

/**
 * `deposit-<walletId>-<depositId>` with the deposit id's ':' written as '.': BullMQ refuses ':'
 * in job ids, and '.' occurs in neither id pattern, so the replacement is reversible. (The '-'
 * between the two ids could only be ambiguous if a deposit id began with the tail of a wallet
 * id; the watcher's deposit ids begin with a Base58 transaction hash, which has no '-'.)
 */
export const depositConfirmationJobId = (walletId: string, depositId: string): string =>
  `deposit-${walletId}-${depositId.replaceAll(':', '.')}`;

export const depositConfirmationPayload = z
  .object({ walletId: z.string().regex(WALLET_ID_PATTERN), depositId: z.string().regex(DEPOSIT_ID_PATTERN) })
  .strict();
export type DepositConfirmationPayload = z.infer<typeof depositConfirmationPayload>;

export const depositConfirmationJobData = depositConfirmationPayload.extend({ progress: waitProgress.optional() }).strict();
export type DepositConfirmationJobData = z.infer<typeof depositConfirmationJobData>;
