/**
 * The deposit-confirmation job: a deposit seen on the network (DepositReceived) is not spendable
 * until the network marks its transaction stable. The job looks at the transaction's status until
 * it is stable (ConfirmDeposit), rejected (RejectDeposit 'networkInvalidated'), or the bounded
 * wait ran out (RejectDeposit 'expired'). It reads the wallet's stream first and does nothing for
 * a deposit already settled, so re-runs and re-derived jobs are harmless.
 */
import type { KeyedSerializer } from '@quern/core';
import type { TransferTermsBook, WalletStateCache } from '@quern/core/wallet';
import type { Clock, EventStore } from '@quern/core';
import { isAppError } from '@quern/core';
import {
  executeWalletCommand,
  loadWallet,
  type ConfirmDeposit,
  type DepositRejectReason,
  type RejectDeposit,
  type MillixNetworkPort,
} from '@quern/core/wallet';
import { UnrecoverableError } from 'bullmq';
import { parsePayload } from '../job/parse-payload.js';
import type { Logger } from '@quern/core';
import { nextPollAtMs, waitIsOver, type NetworkWait, type ResumableJob } from '../job/resumable.js';
import { depositConfirmationJobData, type DepositConfirmationJobData } from './payload.js';

export interface DepositConfirmationDeps {
  /** The process's per-wallet command queue, shared with the api (see createKeyedSerializer). */
  serialize?: KeyedSerializer;
  stateCache?: WalletStateCache;
  store: EventStore;
  /** The reference kinds' terms the wallet folds and decides under (ADR 077). */
  transferTerms: TransferTermsBook;
  clock: Clock;
  network: Pick<MillixNetworkPort, 'transactionStatus'>;
  logger: Logger;
  /** How long a deposit may stay unconfirmed on the network before it is rejected as expired. */
  wait: NetworkWait;
}

export type DepositConfirmationResult =
  | { outcome: 'confirmed' }
  | { outcome: 'rejected'; reason: DepositRejectReason }
  /** The log already holds the outcome: a re-run, a concurrent run, or a re-derived job. */
  | { outcome: 'already-settled'; status: 'confirmed' | 'rejected' };

export async function confirmDeposit(job: ResumableJob, deps: DepositConfirmationDeps): Promise<DepositConfirmationResult> {
  const data = parsePayload(depositConfirmationJobData, job.data);
  const deposit = (await loadWallet(deps, data.walletId)).state.deposits.get(data.depositId);
  // The job comes from a DepositReceived in this very stream; if it is not there, no retry can find it.
  if (!deposit) throw new UnrecoverableError(`Deposit ${data.depositId} is not in wallet-${data.walletId}`);
  if (deposit.status !== 'received') return { outcome: 'already-settled', status: deposit.status };

  // The wait starts at the first run (recorded before the first look, so retries keep the deadline).
  let progress = data.progress;
  if (progress === undefined) {
    progress = { waitingSinceMs: deps.clock.now().getTime(), polls: 0 };
    await job.updateData({ ...data, progress });
  }
  // An unreachable network is thrown: BullMQ retries with backoff. Rejecting a deposit because
  // Quern could not ask about it would drop MLX that did arrive.
  const status = await deps.network.transactionStatus(deposit.networkTransactionHash);
  if (status === 'stable') return conclude(deps, data, { type: 'ConfirmDeposit', data: { depositId: data.depositId } });
  if (status === 'rejected')
    return conclude(deps, data, { type: 'RejectDeposit', data: { depositId: data.depositId, reason: 'networkInvalidated' } });
  const nowMs = deps.clock.now().getTime();
  if (waitIsOver(progress, nowMs, deps.wait)) {
    deps.logger.error(
      `[deposits] deposit ${data.depositId} of wallet ${data.walletId} still ${status} on the network after ${deps.wait.waitMs} ms; rejecting it as expired`,
    );
    return conclude(deps, data, { type: 'RejectDeposit', data: { depositId: data.depositId, reason: 'expired' } });
  }
  const nextAtMs = nextPollAtMs(progress, nowMs, deps.wait);
  await job.updateData({ ...data, progress: { ...progress, polls: progress.polls + 1 } });
  return job.runAgainAt(nextAtMs);
}

/**
 * Appends the confirmation or rejection. A run that finds the outcome already recorded (no
 * events for a repeat, CONFLICT for the opposite outcome) reports what the log holds.
 */
async function conclude(
  deps: DepositConfirmationDeps,
  data: DepositConfirmationJobData,
  command: ConfirmDeposit | RejectDeposit,
): Promise<DepositConfirmationResult> {
  try {
    const executed = await executeWalletCommand(deps, data.walletId, command);
    if (executed.decision.events.length === 0)
      return { outcome: 'already-settled', status: command.type === 'ConfirmDeposit' ? 'confirmed' : 'rejected' };
  } catch (error) {
    if (!(isAppError(error) && error.code === 'CONFLICT')) throw error;
    const now = (await loadWallet(deps, data.walletId)).state.deposits.get(data.depositId);
    if (!now || now.status === 'received') throw error;
    return { outcome: 'already-settled', status: now.status };
  }
  return command.type === 'ConfirmDeposit' ? { outcome: 'confirmed' } : { outcome: 'rejected', reason: command.data.reason };
}
