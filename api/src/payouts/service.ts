/**
 * Payouts as the api offers them (ADR 033): `POST /api/v1/payouts` and `GET /api/v1/payouts/{id}`
 * for a merchant's key. Core pays out once per Idempotency-Key; this service tells the wallet read
 * models whose balances moved.
 */
import { AppError } from '@quern/core';
import { createPayout, readPayout, type PayoutCreateInput, type PayoutDeps, type PayoutOutput } from '@quern/core/payouts';

export interface PayoutServiceDeps {
  core: PayoutDeps;
  /** Tells the wallet service a user's balance changed at this log position (read-your-writes). */
  noteWrite?: (userId: string, position: bigint) => void;
}

export type PayoutService = ReturnType<typeof createPayoutService>;

export function createPayoutService(deps: PayoutServiceDeps) {
  return {
    async create(merchantUserId: string, idempotencyKey: string, input: PayoutCreateInput): Promise<PayoutOutput> {
      const result = await createPayout(deps.core, {
        merchantUserId,
        idempotencyKey,
        toText: input.to.text,
        recipient: input.to.recipient,
        amountMlx: input.amount,
      });
      if (result.appended) {
        deps.noteWrite?.(merchantUserId, result.appended.position);
        if (result.appended.toWalletId !== undefined) deps.noteWrite?.(result.appended.toWalletId, result.appended.position);
      }
      return result.payout;
    },

    /** A merchant's own payout, its status read now; another merchant's answers exactly as an unknown one. */
    async get(merchantUserId: string, payoutId: string): Promise<PayoutOutput> {
      const payout = await readPayout(deps.core, merchantUserId, payoutId);
      if (!payout) throw new AppError('NOT_FOUND', 'errors:payoutNotFound');
      return payout;
    },
  };
}
