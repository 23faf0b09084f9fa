/**
 * The settlement job: phase two of a send (ADR 005, ADR 010). It reads the payer's stream first
 * and does nothing when the transfer is already posted or voided, so a stalled re-run, a second
 * enqueue or a job re-derived after a Redis loss settles nothing twice.
 *
 * - Internal payee (the reservation names a Quern wallet): settleInternalTransfer from core
 *   credits the payee (idempotent by transfer id) and posts, or voids when it cannot credit.
 * - External payee: submit the millix transaction (idempotent by transfer id in every adapter),
 *   record its hash in the job, then look at its status until it is stable (post with the hash),
 *   rejected (void 'networkRejected'), or the bounded wait ran out (void 'expired').
 */
import type { KeyedSerializer } from '@quern/core';
import type { TransferTermsBook, WalletStateCache } from '@quern/core/wallet';
import type { Clock, EventStore } from '@quern/core';
import { isAppError } from '@quern/core';
import {
  executeWalletCommand,
  isMillixNetworkError,
  loadWallet,
  readWallet,
  outgoingTransfer,
  settleInternalTransfer,
  type MillixNetworkPort,
  type OutgoingTransfer,
  type PostTransfer,
  type TransferVoidReason,
  type VoidTransfer,
} from '@quern/core/wallet';
import { UnrecoverableError } from 'bullmq';
import { parsePayload } from '../job/parse-payload.js';
import type { Logger } from '@quern/core';
import { settlementJobData, type SettlementJobData, type SettlementProgress } from './payload.js';
import { nextPollAtMs, waitIsOver, type NetworkWait, type ResumableJob } from '../job/resumable.js';

export interface SettlementDeps {
  /** The process's per-wallet command queue, shared with the api (see createKeyedSerializer). */
  serialize?: KeyedSerializer;
  stateCache?: WalletStateCache;
  store: EventStore;
  /** The reference kinds' terms the wallet folds and decides under (ADR 077). */
  transferTerms: TransferTermsBook;
  clock: Clock;
  network: Pick<MillixNetworkPort, 'send' | 'transactionStatus'>;
  logger: Logger;
  /** Earliest settlement after the reservation (0: at once), so a send can be seen pending. */
  settlementDelayMs: number;
  /** How long an external send may stay unconfirmed on the network before it is voided. */
  wait: NetworkWait;
}

export type SettlementResult =
  | { outcome: 'posted'; transactionHash?: string }
  | { outcome: 'voided'; reason: TransferVoidReason }
  /** The log already holds the outcome: a re-run, a concurrent run, or a re-derived job. */
  | { outcome: 'already-settled'; status: 'posted' | 'voided' };

export async function settleTransfer(job: ResumableJob, deps: SettlementDeps): Promise<SettlementResult> {
  const data = parsePayload(settlementJobData, job.data);
  const payer = (await readWallet(deps, data.payerWalletId)).state;
  const transfer = outgoingTransfer(payer, data.transferId);
  // The job comes from a TransferReserved in this very stream; if it is not there, no retry can find it.
  if (!payer.wallet || !transfer)
    throw new UnrecoverableError(`Transfer ${data.transferId} is not reserved in wallet-${data.payerWalletId}`);
  if (transfer.status !== 'reserved') return { outcome: 'already-settled', status: transfer.status };

  const nowMs = deps.clock.now().getTime();
  const notBeforeMs = settleNotBeforeMs(data.reservedAt, nowMs, deps.settlementDelayMs);
  if (nowMs < notBeforeMs) return job.runAgainAt(notBeforeMs);

  if (transfer.toWalletId !== undefined) {
    // Store failures and lost races (CONCURRENCY) are thrown: BullMQ retries them with backoff.
    const status = await settleInternalTransfer(deps, data.payerWalletId, data.transferId);
    if (status === 'posted') return { outcome: 'posted' };
    // The reason the void recorded (a closed payee, one that cannot take credits, ...).
    const voided = outgoingTransfer((await readWallet(deps, data.payerWalletId)).state, data.transferId);
    const reason = voided?.voidReason ?? 'recipientCannotReceive';
    deps.logger.info(
      `[settlement] voided transfer ${data.transferId} of wallet ${data.payerWalletId} (${reason}: wallet ${transfer.toWalletId})`,
    );
    return { outcome: 'voided', reason };
  }
  return settleExternal(job, data, payer.wallet.address, transfer, deps);
}

/**
 * The delay counts from the reservation, so a job re-derived long after it (a Redis loss, a
 * worker outage) settles at once. A reservation time in the future (clock skew between
 * processes) or unreadable cannot stretch the delay beyond settlementDelayMs from now.
 */
export function settleNotBeforeMs(reservedAt: string, nowMs: number, settlementDelayMs: number): number {
  if (settlementDelayMs <= 0) return nowMs;
  const reservedAtMs = Date.parse(reservedAt);
  if (Number.isNaN(reservedAtMs)) return nowMs;
  return Math.min(reservedAtMs, nowMs) + settlementDelayMs;
}

async function settleExternal(
  job: ResumableJob,
  data: SettlementJobData,
  fromAddress: string,
  transfer: OutgoingTransfer,
  deps: SettlementDeps,
): Promise<SettlementResult> {
  let progress = data.progress;
  if (progress === undefined) {
    const submitted = await submit(data.transferId, fromAddress, transfer, deps);
    if ('refused' in submitted)
      return conclude(
        deps,
        data,
        { type: 'VoidTransfer', data: { transferId: data.transferId, reason: 'networkRejected' } },
        submitted.refused,
      );
    // Recorded before anything else can fail, so a retry resumes at the wait, not at the send.
    progress = { transactionHash: submitted.transactionHash, waitingSinceMs: deps.clock.now().getTime(), polls: 0 };
    await job.updateData({ ...data, progress });
  }
  return awaitStability(job, data, progress, deps);
}

/** Sends once per transfer id. A final refusal comes back as a value; `unavailable` is thrown (retried). */
async function submit(
  transferId: string,
  fromAddress: string,
  transfer: OutgoingTransfer,
  deps: SettlementDeps,
): Promise<{ transactionHash: string } | { refused: string }> {
  try {
    return await deps.network.send({
      transferId,
      fromAddress,
      toAddress: transfer.toAddress,
      amountMlx: transfer.amountMlx,
      feeMlx: transfer.feeMlx,
    });
  } catch (error) {
    if (isMillixNetworkError(error) && !error.retryable) return { refused: `${error.code}: ${error.message}` };
    throw error;
  }
}

async function awaitStability(
  job: ResumableJob,
  data: SettlementJobData,
  progress: SettlementProgress,
  deps: SettlementDeps,
): Promise<SettlementResult> {
  const { transferId } = data;
  const { transactionHash } = progress;
  // An unreachable network is thrown: BullMQ retries with backoff, then leaves the job failed with
  // the hold in place. Voiding without knowing the transaction's fate could release MLX that leave.
  const status = await deps.network.transactionStatus(transactionHash);
  if (status === 'stable')
    return conclude(deps, data, { type: 'PostTransfer', data: { transferId, networkTransactionHash: transactionHash } });
  if (status === 'rejected')
    return conclude(
      deps,
      data,
      { type: 'VoidTransfer', data: { transferId, reason: 'networkRejected' } },
      `transaction ${transactionHash} was rejected`,
    );
  const nowMs = deps.clock.now().getTime();
  if (waitIsOver(progress, nowMs, deps.wait)) {
    const why = `transaction ${transactionHash} still ${status} after ${deps.wait.waitMs} ms`;
    return conclude(deps, data, { type: 'VoidTransfer', data: { transferId, reason: 'expired' } }, why);
  }
  const nextAtMs = nextPollAtMs(progress, nowMs, deps.wait);
  await job.updateData({ ...data, progress: { ...progress, polls: progress.polls + 1 } });
  return job.runAgainAt(nextAtMs);
}

/**
 * Appends the post or the void. A run that finds the outcome already recorded (the decider
 * answers a repeated post or void with no events, and a post after a void with CONFLICT)
 * reports what the log holds, so two overlapping runs end with one outcome.
 */
async function conclude(
  deps: SettlementDeps,
  data: SettlementJobData,
  command: PostTransfer | VoidTransfer,
  why?: string,
): Promise<SettlementResult> {
  const { payerWalletId, transferId } = data;
  try {
    const executed = await executeWalletCommand(deps, payerWalletId, command);
    if (executed.decision.events.length === 0)
      return { outcome: 'already-settled', status: command.type === 'PostTransfer' ? 'posted' : 'voided' };
  } catch (error) {
    if (!(isAppError(error) && error.code === 'CONFLICT')) throw error;
    const now = outgoingTransfer((await loadWallet(deps, payerWalletId)).state, transferId);
    if (!now || now.status === 'reserved') throw error;
    return { outcome: 'already-settled', status: now.status };
  }
  if (command.type === 'PostTransfer') return { outcome: 'posted', transactionHash: command.data.networkTransactionHash };
  deps.logger.info(
    `[settlement] voided transfer ${transferId} of wallet ${payerWalletId} (${command.data.reason}${why ? `: ${why}` : ''})`,
  );
  return { outcome: 'voided', reason: command.data.reason };
}
