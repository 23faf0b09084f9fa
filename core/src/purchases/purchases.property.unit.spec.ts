// Proves that any interleaving of purchases (orders, approvals, declines and captures naming their approval or not, receipts, credits attempted again and again, by the buyer, by others, with wrong amounts), refunds and reversals (full, partial, repeated, after the buyer spent), and sends between buyers keeps every audit invariant, moves each order's MLX at most once, never takes back more than was credited, records every chargeback's shortfall as the reserve's loss, and never lets a send use bought MLX while it is held.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLedgerAuditor, type LedgerRecord } from '../audit/ledger.js';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import { parseExchangeRate } from '../wallet/money.js';
import { PurchaseHoldRefusal } from '../wallet/decider.js';
import { availableMlx, heldPurchasedMlx } from '../wallet/state.js';
import { MemoryLedger, testAddress } from '../../test/wallet-fixtures.js';
import { PurchaseLedger } from '../../test/purchase-ledger.js';
import type { PurchaseState } from './state.js';

const BUYERS = ['buyer0', 'buyer1', 'buyer2'];
const ORDERS = 3;
/** Bought MLX is held this long; the memory ledger's clock moves a second per decision. */
const HOLD_MS = 30_000;
const SUPPLY_MLX = 10_000_000_000_000n;
const RESERVE_MLX = 1_000_000_000_000n;
const parsed = parseExchangeRate('0.0000123');
if (!parsed.ok) throw new Error('rate');
const rate = parsed.rate;

type Op =
  | { kind: 'order'; order: number; buyer: number; usdCents: bigint }
  /** Order, approval and a completed capture in a row: the common path, so credits and refunds get exercised. */
  | { kind: 'checkout'; order: number; buyer: number; usdCents: bigint }
  | { kind: 'approve'; order: number; request: number }
  /** `answers`: the result names no approval (a webhook), the open one (the capture job), or the first one (a late re-run). */
  | { kind: 'decline'; order: number; answers: Answers }
  | { kind: 'capture'; order: number; otherAmount: boolean; answers: Answers }
  | { kind: 'receipt'; order: number }
  | { kind: 'credit'; order: number; asBuyer: number | undefined; mlxDelta: bigint }
  /** Gives back `percent` of the USD not yet returned (100: the rest, so full refunds happen), or `extraCents` more than that. */
  | { kind: 'return'; order: number; reversal: boolean; id: number; percent: bigint; extraCents: bigint }
  | { kind: 'spend'; from: number; to: number; share: number; afterHold?: boolean }
  | { kind: 'wait' };

type Answers = 'none' | 'open' | 'first';
const order = fc.nat(ORDERS - 1);
const answers = fc.constantFrom<Answers>('none', 'open', 'first');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      order,
      buyer: fc.nat(BUYERS.length - 1),
      usdCents: fc.bigInt(400n, 50_100n),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('checkout' as const),
      order,
      buyer: fc.nat(BUYERS.length - 1),
      usdCents: fc.bigInt(500n, 50_000n),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('approve' as const), order, request: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('decline' as const), order, answers }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('capture' as const), order, otherAmount: fc.boolean(), answers }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('receipt' as const), order }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('credit' as const),
      order,
      asBuyer: fc.option(fc.nat(BUYERS.length - 1), { nil: undefined }),
      mlxDelta: fc.constantFrom(0n, 0n, 0n, 1n, -1n),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('return' as const),
      order,
      reversal: fc.boolean(),
      id: fc.nat(3),
      percent: fc.constantFrom(100n, 100n, 50n, 33n, 1n),
      extraCents: fc.constantFrom(0n, 0n, 0n, 1n),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('spend' as const),
      from: fc.nat(BUYERS.length - 1),
      to: fc.nat(BUYERS.length - 1),
      share: fc.nat(100),
    }),
  },
  // Time passes beyond the hold on bought MLX; or it does and the buyer then sends all they have away.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wait' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('spend' as const),
      from: fc.nat(BUYERS.length - 1),
      to: fc.nat(BUYERS.length - 1),
      share: fc.constant(100),
      afterHold: fc.constant(true),
    }),
  },
);

/** The approval a capture result names, as each kind of caller names it. */
function answered(state: PurchaseState, answers: Answers): { requestId?: string } {
  const requestId =
    answers === 'open' ? state.openCaptureRequest?.requestId : answers === 'first' ? [...state.captureRequestIds][0] : undefined;
  return requestId === undefined ? {} : { requestId };
}

class Scenario {
  readonly ledger = new MemoryLedger();
  // Bought MLX is held for 30 of the ledger's clock ticks (one a decision): sends meet it both held and free.
  readonly purchases = new PurchaseLedger(this.ledger, HOLD_MS);
  private readonly auditor = createLedgerAuditor();
  private audited = 0;
  private sends = 0;

  constructor() {
    this.ledger.bootstrap(SUPPLY_MLX, RESERVE_MLX);
    BUYERS.forEach((id, i) => {
      this.ledger.open(id, 'user', testAddress(i + 1), id);
    });
  }

  apply(op: Op): void {
    const orderId = `O${'order' in op ? op.order : 0}`;
    const state = this.purchases.state(orderId);
    switch (op.kind) {
      case 'order':
        this.purchases.command({
          type: 'OrderPurchase',
          data: {
            orderId,
            buyerUserId: BUYERS[op.buyer] as string,
            usdCents: op.usdCents,
            rate,
            reserveAvailableMlx: availableMlx(this.ledger.state(SYSTEM_WALLET_IDS.reserve)),
          },
        });
        return;
      case 'checkout':
        this.apply({ kind: 'order', order: op.order, buyer: op.buyer, usdCents: op.usdCents });
        this.apply({ kind: 'approve', order: op.order, request: 0 });
        this.apply({ kind: 'capture', order: op.order, otherAmount: false, answers: 'open' });
        return;
      case 'approve':
        this.purchases.command({ type: 'RequestCapture', data: { orderId, requestId: `${orderId}r${op.request}n${state.eventCount}` } });
        return;
      case 'decline':
        this.purchases.command({
          type: 'RecordCaptureResult',
          data: { orderId, ...answered(state, op.answers), result: { status: 'failed', issue: 'INSTRUMENT_DECLINED', description: '' } },
        });
        return;
      case 'capture': {
        const usdCents = (state.order?.usdCents ?? 500n) + (op.otherAmount ? 1n : 0n);
        this.purchases.command({
          type: 'RecordCaptureResult',
          data: { orderId, ...answered(state, op.answers), result: { status: 'completed', captureId: `C${orderId}`, usdCents } },
        });
        return;
      }
      case 'receipt':
        this.purchases.command({ type: 'RecordReceiptSent', data: { orderId, messageId: `<receipt-${orderId}@quern.test>` } });
        return;
      case 'credit': {
        const before = state.credit;
        const buyerUserId = op.asBuyer === undefined ? undefined : (BUYERS[op.asBuyer] as string);
        const mlx = state.order ? state.order.mlx + op.mlxDelta : undefined;
        const step = this.purchases.credit(orderId, { buyerUserId, mlx });
        if (step.ok && step.moved) this.moved.credits += 1;
        // A credit moves MLX only once per order, and only for its own buyer and amount.
        if (step.ok && step.moved) {
          expect(before).toBeUndefined();
          expect(op.mlxDelta).toBe(0n);
          if (buyerUserId !== undefined) expect(buyerUserId).toBe(state.order?.buyerUserId);
        }
        if (before) expect(step.ok && step.moved).toBe(false);
        return;
      }
      case 'return': {
        const kind = op.reversal ? 'reversal' : 'refund';
        const rest = (state.capture?.usdCents ?? 1000n) - state.returnedUsdCents;
        const share = (rest * op.percent) / 100n;
        const usdCents = (share > 0n ? share : 1n) + op.extraCents;
        const step = this.purchases.giveBack(orderId, { kind, captureId: `C${orderId}`, id: `${kind[0]}${op.id}`, usdCents });
        if (step.ok && step.moved) this.moved.returns += 1;
        return;
      }
      case 'wait':
        for (let tick = 0; tick <= HOLD_MS / 1000; tick++) this.ledger.now();
        return;
      case 'spend': {
        if (op.afterHold) this.apply({ kind: 'wait' });
        const from = BUYERS[op.from] as string;
        const to = BUYERS[op.to] as string;
        const amountMlx = ((availableMlx(this.ledger.state(from)) - 1000n) * BigInt(op.share)) / 100n;
        if (from === to || amountMlx <= 0n) return;
        this.sends += 1;
        const toAddress = this.ledger.state(to).wallet?.address ?? '';
        const transferId = `send${this.sends}`;
        const outcome = this.ledger.execute(from, {
          type: 'ReserveTransfer',
          data: { transferId, toAddress, toWalletId: to, amountMlx, feeMlx: 1000n },
        });
        const now = new Date(this.ledger.now().getTime() - 1000);
        const { heldMlx } = heldPurchasedMlx(this.ledger.state(from), now);
        if (!outcome.ok) {
          // Only the hold on bought MLX refuses a send of what is available, and only while it lasts.
          expect(outcome.error).toBeInstanceOf(PurchaseHoldRefusal);
          expect(heldMlx).toBeGreaterThan(0n);
          this.moved.heldSends += 1;
          return;
        }
        this.ledger.settle(from, transferId);
        // A send never dips into MLX still held: what stays available covers the hold.
        expect(availableMlx(this.ledger.state(from))).toBeGreaterThanOrEqual(heldMlx);
        return;
      }
    }
  }

  /** How many credits and returns moved MLX: the run must reach them, or it proves little. */
  readonly moved = { credits: 0, returns: 0, heldSends: 0 };

  /** The reserve's losses as the purchase streams record them. */
  lostMlx(): bigint {
    let lost = 0n;
    for (let i = 0; i < ORDERS; i++) lost += this.purchases.state(`O${i}`).reserveLossMlx;
    return lost;
  }

  check(): void {
    for (; this.audited < this.ledger.log.length; this.audited += 1) this.auditor.add(this.ledger.log[this.audited] as LedgerRecord);
    const audit = this.auditor.summary();
    expect(audit.violations).toEqual([]);
    expect(audit.ledgerTotalMlx).toBe(SUPPLY_MLX);
    for (let i = 0; i < ORDERS; i++) {
      const s = this.purchases.state(`O${i}`);
      expect(s.returnedMlx).toBeLessThanOrEqual(s.credit?.mlx ?? 0n);
      if (s.credit && s.capture) expect(s.credit.mlx).toBe(s.order?.mlx);
      // A receipt is only ever recorded for a credited order.
      if (s.receipt) expect(s.credit).toBeDefined();
    }
    // Every chargeback's shortfall is the reserve's recorded loss: what reversals owed = taken back + lost.
    expect(audit.purchases.reserveLossMlx).toBe(this.lostMlx());
    // The reserve only ever sold and took back purchases: its balance is the funding minus what is out.
    expect(availableMlx(this.ledger.state(SYSTEM_WALLET_IDS.reserve))).toBe(
      RESERVE_MLX - audit.purchases.creditedMlx + audit.purchases.returnedMlx,
    );
  }
}

describe('purchase properties', () => {
  it('given random purchase histories, when each step is applied, then the audit (purchases included) finds no violation', () => {
    const reached = { credits: 0, returns: 0, heldSends: 0, losses: 0n };
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60, size: 'large' }), (ops) => {
        const scenario = new Scenario();
        for (const op of ops) {
          scenario.apply(op);
          scenario.check();
        }
        reached.credits += scenario.moved.credits;
        reached.returns += scenario.moved.returns;
        reached.heldSends += scenario.moved.heldSends;
        reached.losses += scenario.lostMlx();
      }),
      // 400 histories: the paths below are reached in about 1 of 3 (credits) and 1 of 8 (returns)
      // histories, so the thresholds sit at about half of what a run reaches, never at its edge.
      { numRuns: 400 },
    );
    expect(reached.credits).toBeGreaterThan(50);
    expect(reached.returns).toBeGreaterThan(20);
    expect(reached.heldSends).toBeGreaterThan(0);
    expect(reached.losses).toBeGreaterThan(0n);
  }, 60_000);
});
