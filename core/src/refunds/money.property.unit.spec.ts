// Proves that any interleaving of checkouts, refunds (partial, whole, repeated with one key, above what is left, decided on stale order streams and racing) and payouts (to Quern wallets and to external addresses, settled, voided, overdrawn) keeps every audit invariant, refunds included: no order is ever refunded more than it was paid, a refused refund or payout moves nothing, and a repeat of a key moves nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckoutLedger } from '../../test/checkout-ledger.js';
import type { CartLine } from '../checkout/cart.js';
import { createLedgerAuditor, type LedgerRecord } from '../audit/ledger.js';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import { availableMlx } from '../wallet/state.js';
import { expectOk, MemoryLedger, testAddress } from '../../test/wallet-fixtures.js';
import { RefundLedger } from '../../test/refund-ledger.js';
import { paymentOf, refundedMlxOf } from './state.js';

const USERS = ['user0', 'user1', 'user2'];
const SUPPLY_MLX = 10_000_000_000_000n;
const RESERVE_MLX = 1_000_000_000_000n;
const CARTS: CartLine[][] = [[{ name: 'Tea', priceMlx: 50_000n, quantity: 2n }], [{ name: 'Book', priceMlx: 700_000n, quantity: 1n }]];

type Op =
  | { kind: 'pay'; shopper: number; merchant: number; cart: number }
  | { kind: 'fund'; to: number; mlx: bigint }
  | { kind: 'refund'; order: number; share: number | undefined; key: number; asMerchant: boolean }
  | { kind: 'race'; order: number; shares: [number, number] }
  | { kind: 'payout'; from: number; to: number | 'external'; share: number }
  | { kind: 'settle'; void: boolean };

const user = fc.nat(USERS.length - 1);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), shopper: user, merchant: user, cart: fc.nat(CARTS.length - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('fund' as const), to: user, mlx: fc.bigInt(1n, 2_000_000n) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      order: fc.nat(20),
      // A share of what was paid, up to 130% (above what is left, often); undefined: everything left.
      share: fc.option(fc.integer({ min: 0, max: 130 }), { nil: undefined }),
      key: fc.nat(6),
      asMerchant: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('race' as const),
      order: fc.nat(20),
      shares: fc.tuple(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 })),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('payout' as const),
      from: user,
      to: fc.oneof(user, fc.constant('external' as const)),
      share: fc.integer({ min: 0, max: 120 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('settle' as const), void: fc.boolean() }) },
);

class Scenario {
  readonly ledger = new MemoryLedger();
  readonly checkouts = new CheckoutLedger(this.ledger);
  readonly money = new RefundLedger(this.ledger);
  private readonly auditor = createLedgerAuditor();
  private audited = 0;
  private sends = 0;
  private payouts = 0;
  private readonly orders: Array<{ orderId: string; merchant: string }> = [];
  private readonly pendingPayouts: Array<{ merchant: string; transferId: string }> = [];
  readonly reached = { refunded: 0, refusedAbove: 0, repeats: 0, stale: 0, paidOut: 0, external: 0, voided: 0 };

  constructor() {
    this.ledger.bootstrap(SUPPLY_MLX, RESERVE_MLX);
    USERS.forEach((id, i) => {
      this.ledger.open(id, 'user', testAddress(i + 1), id);
    });
  }

  private balances(): bigint[] {
    return USERS.map((id) => availableMlx(this.ledger.state(id)));
  }

  apply(op: Op): void {
    switch (op.kind) {
      case 'pay': {
        const merchant = USERS[op.merchant] as string;
        const step = this.checkouts.pay(USERS[op.shopper] as string, merchant, CARTS[op.cart] as CartLine[]);
        if (step.kind === 'paid' && step.paidNow) this.orders.push({ orderId: step.orderId, merchant });
        return;
      }
      case 'fund':
        this.sends += 1;
        this.ledger.transfer(SYSTEM_WALLET_IDS.reserve, USERS[op.to] as string, op.mlx, `fund${this.sends}`);
        return;
      case 'refund': {
        const order = this.orders[op.order % Math.max(this.orders.length, 1)];
        if (!order) return;
        const { state } = this.money.orderStream(order.orderId);
        const paid = paymentOf(state, order.orderId)?.mlx ?? 0n;
        const left = paid - refundedMlxOf(state, order.orderId);
        const amount = op.share === undefined ? undefined : (paid * BigInt(op.share)) / 100n;
        // Another user than the merchant is answered as for an unknown order.
        const merchant = op.asMerchant ? order.merchant : (USERS.find((u) => u !== order.merchant) as string);
        const before = this.balances();
        const step = this.money.refund(merchant, order.orderId, `k${op.key}`, amount);
        if (step.kind === 'done') {
          this.reached.refunded += 1;
          expect(op.asMerchant).toBe(true);
          expect(step.mlx).toBe(amount ?? left);
          expect(step.mlx).toBeLessThanOrEqual(left);
          return;
        }
        expect(this.balances()).toEqual(before);
        if (step.kind === 'repeat') this.reached.repeats += 1;
        if (step.kind === 'refused') {
          if (!op.asMerchant) expect(step.error.messageKey).toBe('errors:checkoutOrderNotFound');
          else if (amount !== undefined && amount > left && left > 0n) {
            expect(step.error.messageKey).toBe('errors:refundAboveRemaining');
            this.reached.refusedAbove += 1;
          }
        }
        return;
      }
      case 'race': {
        // Two refunds decided on the same order stream; the second append finds it moved and decides again.
        const order = this.orders[op.order % Math.max(this.orders.length, 1)];
        if (!order) return;
        const key = `r${this.ledger.log.length}`;
        const paid = paymentOf(this.money.orderStream(order.orderId).state, order.orderId)?.mlx ?? 0n;
        const first = this.money.decide(order.merchant, order.orderId, `${key}a`, (paid * BigInt(op.shares[0])) / 100n || 1n);
        const second = this.money.decide(order.merchant, order.orderId, `${key}b`, (paid * BigInt(op.shares[1])) / 100n || 1n);
        if (first instanceof Error || second instanceof Error) return;
        const early = this.money.append(first);
        const late = this.money.append(second);
        if (early.kind === 'done') {
          expect(late.kind).toBe('stale');
          this.reached.stale += 1;
          this.money.refund(order.merchant, order.orderId, `${key}b`, second.plan.mlx);
        }
        return;
      }
      case 'payout': {
        const from = USERS[op.from] as string;
        const amount = ((availableMlx(this.ledger.state(from)) - 1000n) * BigInt(op.share)) / 100n;
        if (amount <= 0n) return;
        this.payouts += 1;
        const key = this.payouts.toString(16);
        const to = op.to === 'external' ? { address: testAddress(5000 + this.payouts) } : { walletId: USERS[op.to] as string };
        const before = this.balances();
        const step = this.money.payout(from, to, amount, key);
        if (step.kind !== 'done') {
          expect(this.balances()).toEqual(before);
          return;
        }
        this.reached.paidOut += 1;
        expect(before[op.from]! - this.balances()[op.from]!).toBe(amount + 1000n);
        if (op.to === 'external') {
          this.reached.external += 1;
          this.pendingPayouts.push({ merchant: from, transferId: `payout-po_${key.padStart(32, '0')}` });
        }
        // A repeat of the key moves nothing.
        expect(this.money.payout(from, to, amount, key).kind).toBe('repeat');
        return;
      }
      case 'settle': {
        const pending = this.pendingPayouts.shift();
        if (!pending) return;
        if (op.void) {
          this.reached.voided += 1;
          expectOk(
            this.ledger.execute(pending.merchant, {
              type: 'VoidTransfer',
              data: { transferId: pending.transferId, reason: 'networkRejected' },
            }),
          );
        } else this.ledger.settle(pending.merchant, pending.transferId);
        return;
      }
    }
  }

  check(): void {
    for (; this.audited < this.ledger.log.length; this.audited += 1) this.auditor.add(this.ledger.log[this.audited] as LedgerRecord);
    const audit = this.auditor.summary();
    expect(audit.violations).toEqual([]);
    expect(audit.ledgerTotalMlx).toBe(SUPPLY_MLX);
    for (const { orderId } of this.orders) {
      const { state } = this.money.orderStream(orderId);
      expect(refundedMlxOf(state, orderId)).toBeLessThanOrEqual(paymentOf(state, orderId)?.mlx ?? 0n);
    }
  }
}

describe('refund and payout properties', () => {
  it('given random histories of checkouts, refunds and payouts, when each step is applied, then the audit finds no violation and no order is refunded above what was paid', () => {
    const reached = { refunded: 0, refusedAbove: 0, repeats: 0, stale: 0, paidOut: 0, external: 0, voided: 0 };
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60, size: 'large' }), (ops) => {
        const scenario = new Scenario();
        for (const op of ops) {
          scenario.apply(op);
          scenario.check();
        }
        for (const key of Object.keys(reached) as (keyof typeof reached)[]) reached[key] += scenario.reached[key];
      }),
      { numRuns: 200 },
    );
    // The run must reach every outcome, or it proves little.
    for (const [outcome, count] of Object.entries(reached)) expect(count, outcome).toBeGreaterThan(5);
  }, 60_000);
});
