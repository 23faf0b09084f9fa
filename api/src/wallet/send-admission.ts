/**
 * Back-pressure for sends, only against real overload (ADR 019). A user's send is refused with
 * 429 only when that user's own wallet has too many sends queued in this process, or when the
 * whole process has too many commands in flight; never because other users' sends are slow to
 * settle. The answer carries a Retry-After in seconds.
 */
import { AppError } from '@quern/core';

export interface SendAdmissionLimits {
  /**
   * Sends queued on one paying wallet in this process (they run one at a time on its stream).
   * 256 queued sends at ~1 ms of decision and a group-committed append each is a quarter of a
   * second of waiting; a client with more than that in flight from one wallet is looping.
   */
  perWalletMax: number;
  /**
   * Sends in flight in the whole process. Each holds a request, a decision and a pending append;
   * past this the event loop, not the ledger, is the bottleneck (a group commit takes at most 256
   * appends, ADR 002, so 4,096 is many batches deep) and queueing more only adds latency.
   */
  totalMax: number;
  /** What Retry-After says when refusing. */
  retryAfterSeconds: number;
}

export const DEFAULT_SEND_ADMISSION: SendAdmissionLimits = { perWalletMax: 256, totalMax: 4096, retryAfterSeconds: 1 };

export interface SendAdmission {
  /** Runs the send if the limits allow it now, else throws RATE_LIMITED with `retryAfterSeconds`. */
  run<T>(walletId: string, send: () => Promise<T>): Promise<T>;
  /** Sends in flight now (for tests and health). */
  inFlight(): number;
}

export function createSendAdmission(limits: SendAdmissionLimits = DEFAULT_SEND_ADMISSION): SendAdmission {
  const perWallet = new Map<string, number>();
  let total = 0;
  const refuse = (messageKey: string) => new AppError('RATE_LIMITED', messageKey, {}, { retryAfterSeconds: limits.retryAfterSeconds });
  return {
    async run(walletId, send) {
      const queued = perWallet.get(walletId) ?? 0;
      if (queued >= limits.perWalletMax) throw refuse('errors:tooManySendsInProgress');
      if (total >= limits.totalMax) throw refuse('errors:busy');
      perWallet.set(walletId, queued + 1);
      total += 1;
      try {
        return await send();
      } finally {
        total -= 1;
        const left = (perWallet.get(walletId) ?? 1) - 1;
        if (left === 0) perWallet.delete(walletId);
        else perWallet.set(walletId, left);
      }
    },
    inFlight: () => total,
  };
}
