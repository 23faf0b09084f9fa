/** The settlement's dispatch rule: an external send's reservation asks for its settlement. */
import { toWalletEvent, type WalletEvent } from '@quern/core/wallet';
import { typedRule } from '../job/dispatch-rule.js';
import { SETTLEMENT_JOB_NAME, SETTLEMENT_QUEUE, settlementJobId, settlementPayload } from './payload.js';

type WalletEventOf<T extends WalletEvent['type']> = Extract<WalletEvent, { type: T }>;

const settlementRequest = ({ data }: WalletEventOf<'TransferReserved'>) =>
  settlementPayload.parse({ payerWalletId: data.walletId, transferId: data.transferId, reservedAt: data.reservedAt });

/**
 * A send's settlement. The request is the reservation on the payer's stream; it is done when the
 * same stream posts or voids the transfer. Every wallet event names its wallet, so the payer is
 * read from the data, not parsed out of the stream name.
 */
export const settlementRule = typedRule<WalletEventOf<'TransferReserved'>, WalletEventOf<'TransferPosted' | 'TransferVoided'>>({
  read: toWalletEvent,
  request: 'TransferReserved',
  completions: ['TransferPosted', 'TransferVoided'],
  queue: SETTLEMENT_QUEUE,
  name: SETTLEMENT_JOB_NAME,
  jobId: (event) => settlementJobId(settlementRequest(event).transferId),
  payload: (event) => settlementRequest(event),
  matchCompletion: (event) => settlementJobId(event.data.transferId),
  // A transfer between Quern wallets recorded with its post and credit in the same atomic append
  // (ADR 019) is settled already; only external sends and older internal reservations need a job.
  needsJob: (event) => event.data.settledAtOnce !== true,
});
