// Proves that any interleaving of checkouts (the same cart paid again and again, within and after the repeat window, by shoppers with and without enough MLX, to merchants and to themselves) and sends between users keeps every audit invariant (checkouts included), pays an intent at most once per window, moves exactly the price from shopper to merchant when it pays and nothing otherwise, and reports the exact MLX missing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLedgerAuditor, type LedgerRecord } from '../audit/ledger.js';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import { availableMlx } from '../wallet/state.js';
import { MemoryLedger, testAddress } from '../../test/wallet-fixtures.js';
import type { CartLine } from './cart.js';
import { CheckoutLedger } from '../../test/checkout-ledger.js';
import { CHECKOUT_REPEAT_WINDOW_MS } from './decider.js';

const USERS = ['user0', 'user1', 'user2', 'user3'];
const SUPPLY_MLX = 10_000_000_000_000n;
const RESERVE_MLX = 1_000_000_000_000n;
const CARTS: CartLine[][] = [
  [{ name: 'Tea', priceMlx: 50_000n, quantity: 2n }],
  [
    { name: 'Tea', priceMlx: 50_000n, quantity: 1n },
    { name: 'Cup', priceMlx: 125_000n, quantity: 3n },
  ],
  [{ name: 'Book', priceMlx: 2_000_000n, quantity: 1n }],
];

type Op =
  | { kind: 'pay'; shopper: number; merchant: number; cart: number; times: number }
  | { kind: 'later'; ms: number }
  | { kind: 'fund'; to: number; mlx: bigint }
  | { kind: 'spend'; from: number; to: number; share: number };

const user = fc.nat(USERS.length - 1);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      shopper: user,
      merchant: user,
      cart: fc.nat(CARTS.length - 1),
      times: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('later' as const), ms: fc.constantFrom(1000, 60_000, CHECKOUT_REPEAT_WINDOW_MS) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('fund' as const), to: user, mlx: fc.bigInt(1n, 3_000_000n) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('spend' as const), from: user, to: user, share: fc.nat(100) }) },
);

class Scenario {
  readonly ledger = new MemoryLedger();
  readonly checkouts = new CheckoutLedger(this.ledger);
  private readonly auditor = createLedgerAuditor();
  private audited = 0;
  private sends = 0;
  readonly reached = { paidNow: 0, repeats: 0, short: 0, self: 0 };
  /** Each intent's payments, with the checkout clock at the time. */
  private readonly paidAt = new Map<string, number[]>();
  private clockMs = 0;

  constructor() {
    this.ledger.bootstrap(SUPPLY_MLX, RESERVE_MLX);
    USERS.forEach((id, i) => {
      this.ledger.open(id, 'user', testAddress(i + 1), id);
    });
  }

  apply(op: Op): void {
    switch (op.kind) {
      case 'pay': {
        const shopper = USERS[op.shopper] as string;
        const merchant = USERS[op.merchant] as string;
        const cart = CARTS[op.cart] as CartLine[];
        const price = cart.reduce((sum, line) => sum + line.priceMlx * line.quantity, 0n);
        for (let i = 0; i < op.times; i++) {
          const before = { shopper: availableMlx(this.ledger.state(shopper)), merchant: availableMlx(this.ledger.state(merchant)) };
          const step = this.checkouts.pay(shopper, merchant, cart, '0.0000123');
          const after = { shopper: availableMlx(this.ledger.state(shopper)), merchant: availableMlx(this.ledger.state(merchant)) };
          if (step.kind === 'paid' && step.paidNow) {
            this.reached.paidNow += 1;
            expect(before.shopper - after.shopper).toBe(price);
            expect(after.merchant - before.merchant).toBe(price);
            const intentId = step.orderId.split('-')[0] as string;
            const times = this.paidAt.get(intentId) ?? [];
            // Once per window: a new payment of an intent comes a whole window after its last.
            const last = times[times.length - 1];
            if (last !== undefined) expect(this.clockMs - last).toBeGreaterThanOrEqual(CHECKOUT_REPEAT_WINDOW_MS);
            this.paidAt.set(intentId, [...times, this.clockMs]);
            continue;
          }
          expect(after).toEqual(before);
          if (step.kind === 'paid') this.reached.repeats += 1;
          if (step.kind === 'insufficientFunds') {
            this.reached.short += 1;
            expect(step.debitMlx).toBe(price - before.shopper);
            expect(step.debitMlx).toBeGreaterThan(0n);
          }
          if (step.kind === 'refused') {
            expect(shopper).toBe(merchant);
            expect(step.error.messageKey).toBe('errors:checkoutToSelf');
            this.reached.self += 1;
          }
        }
        return;
      }
      case 'later':
        this.checkouts.advance(op.ms);
        this.clockMs += op.ms;
        return;
      case 'fund':
        this.sends += 1;
        this.ledger.transfer(SYSTEM_WALLET_IDS.reserve, USERS[op.to] as string, op.mlx, `fund${this.sends}`);
        return;
      case 'spend': {
        const from = USERS[op.from] as string;
        const amountMlx = ((availableMlx(this.ledger.state(from)) - 1000n) * BigInt(op.share)) / 100n;
        if (op.from === op.to || amountMlx <= 0n) return;
        this.sends += 1;
        this.ledger.transfer(from, USERS[op.to] as string, amountMlx, `send${this.sends}`);
        return;
      }
    }
  }

  check(): void {
    for (; this.audited < this.ledger.log.length; this.audited += 1) this.auditor.add(this.ledger.log[this.audited] as LedgerRecord);
    const audit = this.auditor.summary();
    expect(audit.violations).toEqual([]);
    expect(audit.ledgerTotalMlx).toBe(SUPPLY_MLX);
    expect(audit.checkouts.paid).toBe(this.reached.paidNow);
  }
}

describe('checkout properties', () => {
  it('given random checkout histories, when each step is applied, then the audit finds no violation and each intent pays once per window', () => {
    const reached = { paidNow: 0, repeats: 0, short: 0, self: 0 };
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 50, size: 'large' }), (ops) => {
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
    expect(reached.paidNow).toBeGreaterThan(50);
    expect(reached.repeats).toBeGreaterThan(50);
    expect(reached.short).toBeGreaterThan(20);
    expect(reached.self).toBeGreaterThan(5);
  }, 60_000);
});
