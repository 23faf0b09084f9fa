/**
 * Test support for the checkout specs (not exported from index.ts): pays checkouts over the
 * wallet specs' MemoryLedger as payCheckout does over the store, with the transfer and
 * CheckoutPaid appended together. Every CheckoutPaid reaches the log through JSON.
 */
import { AppError } from '../src/shared/errors.js';
import type { WalletEvent } from '../src/wallet/events.js';
import { transferRefusalOf } from '../src/wallet/refusals.js';
import type { MemoryLedger } from './wallet-fixtures.js';
import { type CartLine, cartDigest, cartTotalMlx, checkoutIntentId } from '../src/checkout/cart.js';
import { checkoutPaidEvent, checkoutTransfer, decideCheckout } from '../src/checkout/decider.js';
import { checkoutStream, toCheckoutEvent } from '../src/checkout/events.js';
import { type CheckoutState, evolveCheckout, initialCheckoutState } from '../src/checkout/state.js';
import { decideTransfer } from './wallet-rules.js';

export type CheckoutStep =
  | { kind: 'paid'; orderId: string; paidNow: boolean }
  | { kind: 'insufficientFunds'; debitMlx: bigint }
  | { kind: 'refused'; error: AppError };

export class CheckoutLedger {
  private readonly intents = new Map<string, CheckoutState>();
  /** The checkout decisions' clock, apart from the ledger's, so a test can step past the repeat window. */
  private clockMs = Date.parse('2026-03-01T00:00:00.000Z');
  constructor(readonly ledger: MemoryLedger) {}

  advance(ms: number): void {
    this.clockMs += ms;
  }

  state(intentId: string): CheckoutState {
    return this.intents.get(intentId) ?? initialCheckoutState();
  }

  intentIds(): string[] {
    return [...this.intents.keys()];
  }

  pay(shopperUserId: string, merchantUserId: string, cart: CartLine[], usdPerMlx?: string): CheckoutStep {
    const priceMlx = cartTotalMlx(cart);
    const intentId = checkoutIntentId({ shopperUserId, merchantUserId, priceMlx, cart });
    const now = new Date(this.clockMs);
    try {
      const facts = {
        intentId,
        shopperUserId,
        merchantUserId,
        mlx: priceMlx,
        cartDigest: cartDigest(cart),
        ...(usdPerMlx ? { usdPerMlx } : {}),
      };
      const outcome = decideCheckout(this.state(intentId), facts, now);
      if (outcome.kind === 'alreadyPaid') return { kind: 'paid', orderId: outcome.payment.orderId, paidNow: false };
      const { plan } = outcome;
      const address = this.ledger.state(merchantUserId).wallet?.address ?? '';
      const payer = this.ledger.state(shopperUserId);
      const decision = decideTransfer(checkoutTransfer(plan, address), payer, this.ledger.state(merchantUserId), now);
      if (decision.payerEvents.length === 0) throw new Error('a new checkout order found its transfer made already');
      this.ledger.append(shopperUserId, decision.payerEvents as WalletEvent[], this.ledger.eventCount(shopperUserId));
      this.ledger.append(merchantUserId, decision.payeeEvents as WalletEvent[], this.ledger.eventCount(merchantUserId));
      const event = checkoutPaidEvent(plan, decision.transferId, now);
      const recorded = { streamId: checkoutStream(intentId), type: event.type, data: JSON.parse(JSON.stringify(event.data)) as unknown };
      this.ledger.log.push({ ...recorded, position: BigInt(this.ledger.log.length + 1) });
      const read = toCheckoutEvent(recorded);
      if (!read) throw new Error('CheckoutPaid did not survive the wire');
      this.intents.set(intentId, evolveCheckout(this.state(intentId), read));
      return { kind: 'paid', orderId: plan.orderId, paidNow: true };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const refusal = transferRefusalOf(error);
      if (refusal?.kind === 'insufficientFunds') return { kind: 'insufficientFunds', debitMlx: refusal.shortMlx };
      return { kind: 'refused', error };
    }
  }
}
