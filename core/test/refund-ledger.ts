/**
 * Test support for the refund and payout specs (not exported from index.ts): refunds and payouts
 * over the wallet specs' MemoryLedger as createRefund and createPayout do over the store. A refund
 * is decided on its order's stream as folded from the log and appended only when that stream
 * still has the revision it was decided on (the store's expected revision), so a refund decided
 * on a stale stream is decided again. Every event reaches the log through JSON.
 */
import { checkoutStream, parseCheckoutOrderId, toCheckoutEvent } from '../src/checkout/events.js';
import { payoutStream, payoutTransferId, type PayoutRequested } from '../src/payouts/events.js';
import { AppError } from '../src/shared/errors.js';
import type { WalletEvent } from '../src/wallet/events.js';
import { SEND_FEE_MLX, mlxToWire } from '../src/wallet/money.js';
import type { MemoryLedger } from './wallet-fixtures.js';
import { checkoutRefundedEvent, decideRefund, type RefundPlan, refundTransfer } from '../src/refunds/decider.js';
import { toRefundEvent } from '../src/refunds/events.js';
import { evolveOrderStream, initialOrderStreamState, type OrderStreamState } from '../src/refunds/state.js';
import { decideTransfer } from './wallet-rules.js';

export type MoneyStep = { kind: 'done'; mlx: bigint } | { kind: 'repeat' } | { kind: 'refused'; error: AppError } | { kind: 'stale' };

export class RefundLedger {
  private readonly answered = new Map<string, bigint>();
  constructor(readonly ledger: MemoryLedger) {}

  /** An order's checkout stream folded from the log, and its event count (the revision). */
  orderStream(orderId: string): { state: OrderStreamState; count: number } {
    const intentId = parseCheckoutOrderId(orderId)?.intentId as string;
    let state = initialOrderStreamState();
    let count = 0;
    for (const record of this.ledger.log) {
      if (record.streamId !== checkoutStream(intentId)) continue;
      const event = toCheckoutEvent(record) ?? toRefundEvent(record);
      if (!event) throw new Error(`unreadable ${record.type}`);
      state = evolveOrderStream(state, event);
      count += 1;
    }
    return { state, count };
  }

  /** Decides a refund on the order's stream as it is now (to be appended later, maybe after others). */
  decide(merchantUserId: string, orderId: string, key: string, amountMlx?: bigint): { plan: RefundPlan; count: number } | AppError {
    const { state, count } = this.orderStream(orderId);
    try {
      const outcome = decideRefund(state, { refundId: refundIdOf(merchantUserId, key), orderId, merchantUserId, amountMlx });
      if (outcome.kind === 'alreadyRefunded') throw new Error('decide: the key was answered already');
      return { plan: outcome.plan, count };
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  }

  /** Appends a decided refund when its order's stream is still at `count` events; 'stale' otherwise. */
  append(decided: { plan: RefundPlan; count: number }): MoneyStep {
    const { plan, count } = decided;
    if (this.orderStream(plan.orderId).count !== count) return { kind: 'stale' };
    const now = this.ledger.now();
    const merchant = this.ledger.state(plan.merchantUserId);
    const shopper = this.ledger.state(plan.shopperUserId);
    try {
      const decision = decideTransfer(refundTransfer(plan, shopper.wallet?.address ?? ''), merchant, shopper, now);
      if (decision.payerEvents.length === 0) throw new Error('a new refund found its transfer made already');
      this.ledger.append(plan.merchantUserId, decision.payerEvents as WalletEvent[], this.ledger.eventCount(plan.merchantUserId));
      this.ledger.append(plan.shopperUserId, decision.payeeEvents as WalletEvent[], this.ledger.eventCount(plan.shopperUserId));
    } catch (error) {
      if (error instanceof AppError) return { kind: 'refused', error };
      throw error;
    }
    const event = checkoutRefundedEvent(plan, now);
    const intentId = parseCheckoutOrderId(plan.orderId)?.intentId as string;
    this.push(checkoutStream(intentId), event.type, event.data);
    this.answered.set(plan.refundId, plan.mlx);
    return { kind: 'done', mlx: plan.mlx };
  }

  /** What createRefund does: a repeat of a key answers, otherwise decide and append (again when stale). */
  refund(merchantUserId: string, orderId: string, key: string, amountMlx?: bigint): MoneyStep {
    if (this.answered.has(refundIdOf(merchantUserId, key))) return { kind: 'repeat' };
    for (;;) {
      const decided = this.decide(merchantUserId, orderId, key, amountMlx);
      if (decided instanceof AppError) return { kind: 'refused', error: decided };
      const step = this.append(decided);
      if (step.kind !== 'stale') return step;
    }
  }

  /**
   * What createPayout does: to a Quern wallet, settled in one append with PayoutRequested; to an
   * external address, a reservation with PayoutRequested (settled or voided later by the caller).
   */
  payout(merchantUserId: string, to: { walletId: string } | { address: string }, amountMlx: bigint, key: string): MoneyStep {
    const payoutId = `po_${key.padStart(32, '0')}`;
    if (this.answered.has(payoutId)) return { kind: 'repeat' };
    const transferId = payoutTransferId(payoutId);
    const now = this.ledger.now();
    const toWalletId = 'walletId' in to ? to.walletId : undefined;
    const toAddress = 'walletId' in to ? (this.ledger.state(to.walletId).wallet?.address ?? '') : to.address;
    const command = {
      type: 'ReserveTransfer' as const,
      data: {
        transferId,
        toAddress,
        ...(toWalletId !== undefined ? { toWalletId } : {}),
        amountMlx,
        feeMlx: SEND_FEE_MLX,
        reference: { kind: 'payout' as const, payoutId },
      },
    };
    try {
      if (toWalletId !== undefined) {
        const decision = decideTransfer(command, this.ledger.state(merchantUserId), this.ledger.state(toWalletId), now);
        this.ledger.append(merchantUserId, decision.payerEvents as WalletEvent[], this.ledger.eventCount(merchantUserId));
        this.ledger.append(toWalletId, decision.payeeEvents as WalletEvent[], this.ledger.eventCount(toWalletId));
      } else {
        const outcome = this.ledger.execute(merchantUserId, command);
        if (!outcome.ok) throw outcome.error;
      }
    } catch (error) {
      if (error instanceof AppError) return { kind: 'refused', error };
      throw error;
    }
    const event: PayoutRequested = {
      type: 'PayoutRequested',
      data: {
        payoutId,
        merchantUserId,
        to: toAddress,
        toAddress,
        ...(toWalletId !== undefined ? { toWalletId } : {}),
        mlx: mlxToWire(amountMlx),
        feeMlx: mlxToWire(SEND_FEE_MLX),
        transferId,
        requestedAt: now.toISOString(),
      },
    };
    this.push(payoutStream(payoutId), event.type, event.data);
    this.answered.set(payoutId, amountMlx);
    return { kind: 'done', mlx: amountMlx };
  }

  private push(streamId: string, type: string, data: unknown): void {
    this.ledger.log.push({
      streamId,
      type,
      data: JSON.parse(JSON.stringify(data)) as unknown,
      position: BigInt(this.ledger.log.length + 1),
    });
  }
}

/** A refund id per merchant and key, as idempotencyDigest makes it (any 32 hex digits do here). */
function refundIdOf(merchantUserId: string, key: string): string {
  let hex = '';
  for (const char of `${merchantUserId}:${key}`) hex += char.charCodeAt(0).toString(16).padStart(2, '0');
  return `re_${hex.padStart(32, '0').slice(-32)}`;
}
