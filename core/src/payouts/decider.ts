/**
 * The pure payout decision (ADR 033): a payout is a send from the merchant's wallet under the
 * send's rules (the wallet decider: fee 1000, never overdrawn, not to oneself), recorded by
 * PayoutRequested on its own stream. The wallet decides whether the send may go; this decides what
 * the payout records and which transfer carries it.
 */
import type { ReserveTransfer } from '../wallet/commands.js';
import { SEND_FEE_MLX, mlxToWire } from '../wallet/money.js';
import type { RequestPayout } from './commands.js';
import { type PayoutRequested, payoutTransferId } from './events.js';

export interface PayoutDecision {
  /** Opens `payout-<id>`, appended with 'no_stream' in the same atomic append as the send. */
  requested: PayoutRequested;
  /** The send that carries the payout, fee included. */
  transfer: ReserveTransfer;
}

export function decidePayout(command: RequestPayout, now: Date): PayoutDecision {
  const { payoutId, merchantUserId, to, toAddress, toWalletId, amountMlx } = command.data;
  const transferId = payoutTransferId(payoutId);
  const payee = toWalletId !== undefined ? { toWalletId } : {};
  return {
    requested: {
      type: 'PayoutRequested',
      data: {
        payoutId,
        merchantUserId,
        to,
        toAddress,
        ...payee,
        mlx: mlxToWire(amountMlx),
        feeMlx: mlxToWire(SEND_FEE_MLX),
        transferId,
        requestedAt: now.toISOString(),
      },
    },
    transfer: {
      type: 'ReserveTransfer',
      data: { transferId, toAddress, ...payee, amountMlx, feeMlx: SEND_FEE_MLX, reference: { kind: 'payout', payoutId } },
    },
  };
}
