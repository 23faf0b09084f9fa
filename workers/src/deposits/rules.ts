/** The deposit confirmation's dispatch rule. */
import { toWalletEvent, type WalletEvent } from '@quern/core/wallet';
import { typedRule } from '../job/dispatch-rule.js';
import {
  DEPOSIT_CONFIRMATION_JOB_NAME,
  DEPOSIT_CONFIRMATION_QUEUE,
  depositConfirmationJobId,
  depositConfirmationPayload,
} from './payload.js';

type WalletEventOf<T extends WalletEvent['type']> = Extract<WalletEvent, { type: T }>;

const depositRequest = ({ data }: WalletEventOf<'DepositReceived'>) =>
  depositConfirmationPayload.parse({ walletId: data.walletId, depositId: data.depositId });

/** A deposit seen on the network waits for stability; it is done when confirmed or rejected. */
export const depositConfirmationRule = typedRule<WalletEventOf<'DepositReceived'>, WalletEventOf<'DepositConfirmed' | 'DepositRejected'>>({
  read: toWalletEvent,
  request: 'DepositReceived',
  completions: ['DepositConfirmed', 'DepositRejected'],
  queue: DEPOSIT_CONFIRMATION_QUEUE,
  name: DEPOSIT_CONFIRMATION_JOB_NAME,
  jobId: (event) => {
    const { walletId, depositId } = depositRequest(event);
    return depositConfirmationJobId(walletId, depositId);
  },
  payload: (event) => depositRequest(event),
  matchCompletion: ({ data }) => depositConfirmationJobId(data.walletId, data.depositId),
});
