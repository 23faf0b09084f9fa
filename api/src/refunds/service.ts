/**
 * Refunds as the api offers them (ADR 033): `POST /api/v1/refunds` and `GET /api/v1/refunds/{id}`
 * for a merchant's key, and `refunds.create` for the merchant's payments page (session). Core
 * refunds once per Idempotency-Key; this service tells the wallet read models whose balances moved.
 */
import { AppError } from '@quern/core';
import { createRefund, readRefund, type RefundCreateInput, type RefundDeps, type RefundOutput } from '@quern/core/refunds';

export interface RefundServiceDeps {
  core: RefundDeps;
  /** Tells the wallet service a user's balance changed at this log position (read-your-writes). */
  noteWrite?: (userId: string, position: bigint) => void;
}

export type RefundService = ReturnType<typeof createRefundService>;

export function createRefundService(deps: RefundServiceDeps) {
  return {
    async create(merchantUserId: string, idempotencyKey: string, input: RefundCreateInput): Promise<RefundOutput> {
      const result = await createRefund(deps.core, {
        merchantUserId,
        idempotencyKey,
        orderId: input.order,
        ...(input.amount !== undefined ? { amountMlx: input.amount } : {}),
      });
      if (result.appended) {
        deps.noteWrite?.(merchantUserId, result.appended.position);
        deps.noteWrite?.(result.appended.shopperUserId, result.appended.position);
      }
      return result.refund;
    },

    /** A merchant's own refund; another merchant's answers exactly as an unknown one. */
    async get(merchantUserId: string, refundId: string): Promise<RefundOutput> {
      const refund = await readRefund(deps.core, merchantUserId, refundId);
      if (!refund) throw new AppError('NOT_FOUND', 'errors:refundNotFound');
      return refund;
    },
  };
}
