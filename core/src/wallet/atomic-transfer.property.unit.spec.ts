// Proves, over random interleavings, that sends between Quern wallets settled in one atomic append (ADR 019) keep the ledger sound next to external and older two-phase sends: the audit finds nothing after every step, retries move nothing, stale decisions lose their race whole, and a snapshot of any wallet rebuilds the same state as its events.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { auditLedger } from '../audit/ledger.js';
import type { ReserveTransfer } from './commands.js';
import type { TransferDecision } from './decider.js';
import { SYSTEM_WALLET_IDS, toWalletEvent, walletStream } from './events.js';
import { fromWalletSnapshot, toWalletSnapshot } from './snapshot.js';
import type { WalletState } from './state.js';
import { MemoryLedger, testAddress } from '../../test/wallet-fixtures.js';
import { decideTransfer, evolve, foldWallet } from '../../test/wallet-rules.js';

const USERS = ['u0', 'u1', 'u2', 'u3'];
const FUNDS_MLX = 200_000n;

type Op =
  | { kind: 'atomic'; from: number; to: number; amountMlx: bigint; key?: number; stale: boolean }
  | { kind: 'retry'; index: number }
  | { kind: 'external'; from: number; amountMlx: bigint; settle: boolean }
  | { kind: 'twoPhase'; from: number; to: number; amountMlx: bigint }
  | { kind: 'settle'; index: number }
  | { kind: 'toFee'; from: number };

const user = fc.integer({ min: 0, max: USERS.length - 1 });
const amount = fc.oneof(fc.constant(1n), fc.constant(FUNDS_MLX), fc.bigInt({ min: 1n, max: 80_000n }));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('atomic' as const),
      from: user,
      to: user,
      amountMlx: amount,
      key: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      stale: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('retry' as const), index: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('external' as const), from: user, amountMlx: amount, settle: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('twoPhase' as const), from: user, to: user, amountMlx: amount }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const), index: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('toFee' as const), from: user }) },
);

interface Sent {
  command: ReserveTransfer;
  payer: string;
  transferId: string;
}

class Scenario {
  readonly ledger = new MemoryLedger();
  readonly sent: Sent[] = [];
  readonly reservations: Array<{ payer: string; transferId: string }> = [];
  /** States captured a step ago, to decide on stale data. */
  private stale = new Map<string, { state: WalletState; eventCount: number }>();
  private next = 0;

  constructor() {
    this.ledger.bootstrap(1_000_000_000n, 10_000_000n);
    USERS.forEach((id, i) => {
      this.ledger.open(id, 'user', testAddress(100 + i), `owner-${id}`);
      this.ledger.transfer(SYSTEM_WALLET_IDS.reserve, id, FUNDS_MLX, `fund-${id}`);
    });
  }

  private id(prefix: string): string {
    this.next += 1;
    return `${prefix}-${this.next}`;
  }

  private snapshotOf(walletId: string) {
    return { state: foldWallet(this.events(walletId)), eventCount: this.ledger.eventCount(walletId) };
  }

  events(walletId: string) {
    return this.ledger.log
      .filter((r) => r.streamId === walletStream(walletId))
      .map((r) => toWalletEvent(r))
      .filter((e) => e !== undefined);
  }

  /** The handler's protocol: decide on both states, append both streams only if neither moved. */
  private atomic(command: ReserveTransfer, payer: string, stale: boolean): TransferDecision | AppError | 'lost' {
    const payee = command.data.toWalletId as string;
    const seen = (id: string) => (stale ? (this.stale.get(id) ?? this.snapshotOf(id)) : this.snapshotOf(id));
    const [p, q] = [seen(payer), seen(payee)];
    let decision: TransferDecision;
    try {
      decision = decideTransfer(command, p.state, q.state, this.ledger.now());
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    if (decision.payerEvents.length === 0) return decision;
    if (this.ledger.eventCount(payer) !== p.eventCount || this.ledger.eventCount(payee) !== q.eventCount) return 'lost';
    this.ledger.append(payer, decision.payerEvents, p.eventCount);
    this.ledger.append(payee, decision.payeeEvents, q.eventCount);
    return decision;
  }

  run(op: Op): void {
    const before = new Map(USERS.map((id) => [id, this.snapshotOf(id)]));
    switch (op.kind) {
      case 'atomic': {
        const payer = USERS[op.from] as string;
        const payee = USERS[op.to] as string;
        const command: ReserveTransfer = {
          type: 'ReserveTransfer',
          data: {
            transferId: this.id('t'),
            toAddress: testAddress(100 + op.to),
            toWalletId: payee,
            amountMlx: op.amountMlx,
            feeMlx: 1000n,
            ...(op.key === undefined ? {} : { idempotencyKey: `${payer}-k${op.key}` }),
          },
        };
        const outcome = this.atomic(command, payer, op.stale);
        if (outcome instanceof AppError) {
          expect(['errors:insufficientFunds', 'errors:cannotSendToSelf', 'errors:idempotencyConflict']).toContain(outcome.messageKey);
        } else if (outcome !== 'lost') this.sent.push({ command, payer, transferId: outcome.transferId });
        break;
      }
      case 'retry': {
        const first = this.sent[op.index % Math.max(1, this.sent.length)];
        if (!first?.command.data.idempotencyKey) break;
        const counts = USERS.map((id) => this.ledger.eventCount(id));
        const again = this.atomic({ ...first.command, data: { ...first.command.data, transferId: this.id('t') } }, first.payer, false);
        // The same key and details: the first transfer, nothing appended (a later key reuse may have replaced it).
        if (again instanceof AppError) expect(again.messageKey).toBe('errors:idempotencyConflict');
        else if (again !== 'lost') {
          expect(again.payerEvents).toEqual([]);
          expect(USERS.map((id) => this.ledger.eventCount(id))).toEqual(counts);
        }
        break;
      }
      case 'external': {
        const payer = USERS[op.from] as string;
        const transferId = this.id('x');
        const outcome = this.ledger.execute(payer, {
          type: 'ReserveTransfer',
          data: { transferId, toAddress: testAddress(7), amountMlx: op.amountMlx, feeMlx: 1000n },
        });
        if (outcome.ok) {
          this.reservations.push({ payer, transferId });
          if (op.settle) this.ledger.settle(payer, transferId);
        }
        break;
      }
      case 'twoPhase': {
        // A reservation recorded the way internal sends were before ADR 019, settled later by a job.
        const payer = USERS[op.from] as string;
        const transferId = this.id('old');
        const outcome = this.ledger.execute(payer, {
          type: 'ReserveTransfer',
          data: { transferId, toAddress: testAddress(100 + op.to), toWalletId: USERS[op.to], amountMlx: op.amountMlx, feeMlx: 1000n },
        });
        if (outcome.ok) this.reservations.push({ payer, transferId });
        break;
      }
      case 'settle': {
        const r = this.reservations[op.index % Math.max(1, this.reservations.length)];
        if (r) this.ledger.settle(r.payer, r.transferId);
        break;
      }
      case 'toFee': {
        const payer = USERS[op.from] as string;
        const outcome = this.atomic(
          {
            type: 'ReserveTransfer',
            data: {
              transferId: this.id('f'),
              toAddress: testAddress(9003),
              toWalletId: SYSTEM_WALLET_IDS.fee,
              amountMlx: 1n,
              feeMlx: 1000n,
            },
          },
          payer,
          false,
        );
        expect(outcome instanceof AppError && outcome.messageKey).toBe('errors:recipientCannotReceive');
        break;
      }
    }
    this.stale = before;
  }
}

describe('atomic transfers, property', () => {
  it('given random sends of every kind, when each step is audited, then the ledger is sound after every step and all settles', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => {
        const scenario = new Scenario();
        for (const op of ops) {
          scenario.run(op);
          const audit = auditLedger(scenario.ledger.log);
          expect(audit.violations).toEqual([]);
        }
        for (const r of scenario.reservations) scenario.ledger.settle(r.payer, r.transferId);
        const audit = auditLedger(scenario.ledger.log);
        expect([audit.violations, audit.transfers.open, audit.inTransitMlx, audit.ledgerTotalMlx]).toEqual([[], 0, 0n, audit.mintedMlx]);
      }),
      { numRuns: 60 },
    );
  });

  it('given any wallet after random sends, when snapshotted (through JSON) and rebuilt, then it equals the fold, and so does folding on from it', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 2, maxLength: 40 }), fc.nat(), (ops, cut) => {
        const scenario = new Scenario();
        for (const op of ops) scenario.run(op);
        for (const id of USERS) {
          const events = scenario.events(id);
          const at = 1 + (cut % events.length);
          const data = JSON.parse(JSON.stringify(toWalletSnapshot(foldWallet(events.slice(0, at)))));
          const rebuilt = fromWalletSnapshot(data);
          expect(rebuilt?.revision).toBe(BigInt(at - 1));
          const resumed = events.slice(at).reduce(evolve, rebuilt?.state as WalletState);
          expect(resumed).toEqual(foldWallet(events));
        }
      }),
      { numRuns: 40 },
    );
  });
});
