/**
 * Test support for the purchase specs (not exported from index.ts): drives purchases over the
 * wallet specs' MemoryLedger as the handlers do over the store, with the atomic multi-stream
 * append the credit and the refunds need. Every step's events reach the log through JSON.
 */
import { AppError } from '../src/shared/errors.js';
import { SYSTEM_WALLET_IDS } from '../src/wallet/events.js';
import type { WalletEvent } from '../src/wallet/events.js';
import { availableMlx } from '../src/wallet/state.js';
import type { MemoryLedger } from './wallet-fixtures.js';
import {
  type CreditRequest,
  type PurchaseCommand,
  type ReturnRequest,
  decidePurchase,
  planPurchaseCredit,
  planPurchaseReturn,
  purchaseCreditTransfer,
  purchaseCreditedEvent,
  purchaseHoldUntil,
  purchaseReserveLossEvent,
  purchaseReturnEvent,
  purchaseReturnTransfer,
} from '../src/purchases/decider.js';
import { type PurchaseEvent, purchaseStream, toPurchaseEvent } from '../src/purchases/events.js';
import { type PurchaseState, evolvePurchase, initialPurchaseState } from '../src/purchases/state.js';
import { decideTransfer } from './wallet-rules.js';

export type Step = { ok: true; moved: boolean } | { ok: false; error: AppError };

export class PurchaseLedger {
  private readonly purchases = new Map<string, PurchaseState>();
  /** `holdMs`: how long credited MLX may not be sent (PURCHASE_HOLD_HOURS); none by default. */
  constructor(
    readonly ledger: MemoryLedger,
    private readonly holdMs = 0,
  ) {}

  state(orderId: string): PurchaseState {
    return this.purchases.get(orderId) ?? initialPurchaseState();
  }

  private appendPurchase(orderId: string, events: PurchaseEvent[]): void {
    let state = this.state(orderId);
    for (const event of events) {
      const recorded = { streamId: purchaseStream(orderId), type: event.type, data: JSON.parse(JSON.stringify(event.data)) as unknown };
      this.ledger.log.push({ ...recorded, position: BigInt(this.ledger.log.length + 1) });
      const read = toPurchaseEvent(recorded);
      if (!read) throw new Error(`purchase event did not survive the wire: ${event.type}`);
      state = evolvePurchase(state, read);
    }
    this.purchases.set(orderId, state);
  }

  private attempt(fn: () => boolean): Step {
    try {
      return { ok: true, moved: fn() };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    }
  }

  command(command: PurchaseCommand): Step {
    return this.attempt(() => {
      const { events } = decidePurchase(this.state(command.data.orderId), command, this.ledger.now());
      this.appendPurchase(command.data.orderId, events);
      return false;
    });
  }

  /** A transfer decided on both wallets, then its wallet events and the purchase event appended together. */
  private transferWith(
    payer: string,
    payee: string,
    command: Parameters<typeof decideTransfer>[0],
    orderId: string,
    events: PurchaseEvent[],
  ): boolean {
    const decision = decideTransfer(command, this.ledger.state(payer), this.ledger.state(payee), this.ledger.now());
    if (decision.payerEvents.length === 0) return false;
    this.ledger.append(payer, decision.payerEvents as WalletEvent[], this.ledger.eventCount(payer));
    this.ledger.append(payee, decision.payeeEvents as WalletEvent[], this.ledger.eventCount(payee));
    this.appendPurchase(orderId, events);
    return true;
  }

  credit(orderId: string, request: CreditRequest): Step {
    return this.attempt(() => {
      const outcome = planPurchaseCredit(this.state(orderId), request);
      if (outcome.kind === 'alreadyCredited') return false;
      const { plan } = outcome;
      const address = this.ledger.state(plan.buyerUserId).wallet?.address ?? '';
      const now = this.ledger.now();
      const event = purchaseCreditedEvent(plan, plan.transferId, now);
      const transfer = purchaseCreditTransfer(plan, address, purchaseHoldUntil(now, this.holdMs));
      return this.transferWith(SYSTEM_WALLET_IDS.reserve, plan.buyerUserId, transfer, orderId, [event]);
    });
  }

  giveBack(orderId: string, request: ReturnRequest): Step {
    return this.attempt(() => {
      const buyer = this.state(orderId).order?.buyerUserId;
      const available = buyer === undefined ? 0n : availableMlx(this.ledger.state(buyer));
      const outcome = planPurchaseReturn(this.state(orderId), request, available);
      if (outcome.kind === 'alreadyRecorded') return false;
      const { plan } = outcome;
      const now = this.ledger.now();
      const loss = purchaseReserveLossEvent(plan, now);
      const events = loss ? [purchaseReturnEvent(plan, now), loss] : [purchaseReturnEvent(plan, now)];
      if (plan.mlxReturned === 0n) {
        this.appendPurchase(orderId, events);
        return false;
      }
      const reserve = this.ledger.state(SYSTEM_WALLET_IDS.reserve).wallet?.address ?? '';
      return this.transferWith(plan.buyerUserId, SYSTEM_WALLET_IDS.reserve, purchaseReturnTransfer(plan, reserve), orderId, events);
    });
  }
}
