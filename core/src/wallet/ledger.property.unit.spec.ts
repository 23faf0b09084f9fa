// Proves that any interleaving of sends (two-step and one-append), retries, credits, posts, voids, races, deposits, external sends and wallet closes (ADR 042) among many wallets, with or without a network allocation, keeps every audit invariant (the network boundary of ADR 017 and the closed-wallet rules included) and every wallet stream's available balance at or above zero.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditLedger, createLedgerAuditor } from '../audit/ledger.js';
import type { LedgerRecord } from '../audit/ledger.js';
import type { BalanceSnapshot } from './events.js';
import { mlxToWire } from './money.js';
import type { ReserveTransfer } from './commands.js';
import type { TransferVoidReason } from './events.js';
import { SYSTEM_WALLET_IDS, toWalletEvent, walletStream } from './events.js';
import { MLX_TOTAL_SUPPLY } from './money.js';
import { availableMlx, isWalletClosed, isWalletEmpty } from './state.js';
import { ConcurrencyConflict, MemoryLedger, expectOk, testAddress } from '../../test/wallet-fixtures.js';
import { foldWallet } from '../../test/wallet-rules.js';

const USER_COUNT = 5;
const users = Array.from({ length: USER_COUNT }, (_, i) => `user${i}`);
/** Payers: the users and the reserve (which sells MLX to users). */
const payers = [...users, SYSTEM_WALLET_IDS.reserve];
const SUPPLY_MLX = 10_000_000_000n;
const RESERVE_MLX = 1_000_000_000n;
const CONCURRENCY_RETRIES_MAX = 3;
/** Scenarios and their length; the invariants are checked after every step of every scenario. */
const RUNS = 150;
const OPS_MAX = 60;

type Payee = { kind: 'user'; index: number } | { kind: 'external' } | { kind: 'missingWallet' } | { kind: 'feeAccount' };
type Op =
  | { kind: 'send'; payer: number; payee: Payee; amountMlx: bigint; keyed: boolean }
  /** Sends what is available minus the fee, plus a small delta: the boundary of "insufficient funds". */
  | { kind: 'sendRest'; payer: number; payee: Payee; deltaMlx: bigint }
  | { kind: 'retry'; pick: number; changeAmount: boolean }
  | { kind: 'credit' | 'post' | 'settle'; pick: number }
  | { kind: 'void'; pick: number; reason: TransferVoidReason }
  | { kind: 'deposit'; user: number; amountMlx: bigint }
  | { kind: 'confirm' | 'reject' | 'redeliver'; pick: number }
  | { kind: 'race'; payer: number; payees: [number, number]; amountsMlx: [bigint, bigint] }
  /** An internal send settled as the settlement worker now writes it: one append over both streams, in either order. */
  | { kind: 'sendOneAppend'; payer: number; payee: number; amountMlx: bigint; keyed: boolean; payeeFirst: boolean }
  /** CloseWallet on a user's wallet as it stands (ADR 042): closes only when it is empty. */
  | { kind: 'close'; user: number }
  /** Empties a user's wallet first (settles its sends, confirms its deposits, sends the rest to the reserve), then closes it. */
  | { kind: 'drainAndClose'; user: number };

const amountArb = fc.oneof(
  { weight: 6, arbitrary: fc.bigInt(1n, 50_000n) },
  { weight: 3, arbitrary: fc.bigInt(1n, 3_000_000n) },
  { weight: 1, arbitrary: fc.constantFrom(0n, -7n, MLX_TOTAL_SUPPLY, MLX_TOTAL_SUPPLY + 1n) },
);
const payeeArb: fc.Arbitrary<Payee> = fc.oneof(
  { weight: 6, arbitrary: fc.nat(USER_COUNT - 1).map((index) => ({ kind: 'user' as const, index })) },
  { weight: 3, arbitrary: fc.constant({ kind: 'external' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'missingWallet' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'feeAccount' as const }) },
);
const pick = fc.nat(1000);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      payer: fc.nat(payers.length - 1),
      payee: payeeArb,
      amountMlx: amountArb,
      keyed: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('sendRest' as const),
      payer: fc.nat(USER_COUNT - 1),
      payee: payeeArb,
      deltaMlx: fc.bigInt(-2n, 2n),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('retry' as const), pick, changeAmount: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('credit' as const, 'post' as const, 'settle' as const), pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('void' as const),
      pick,
      reason: fc.constantFrom<TransferVoidReason>('networkRejected', 'expired'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('deposit' as const), user: fc.nat(USER_COUNT - 1), amountMlx: fc.bigInt(1n, 200_000n) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('confirm' as const, 'reject' as const, 'redeliver' as const), pick }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('sendOneAppend' as const),
      payer: fc.nat(USER_COUNT - 1),
      payee: fc.nat(USER_COUNT - 1),
      amountMlx: amountArb,
      keyed: fc.boolean(),
      payeeFirst: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), user: fc.nat(USER_COUNT - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drainAndClose' as const), user: fc.nat(USER_COUNT - 1) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('race' as const),
      payer: fc.nat(USER_COUNT - 1),
      payees: fc.tuple(fc.nat(USER_COUNT - 1), fc.nat(USER_COUNT - 1)),
      amountsMlx: fc.tuple(fc.bigInt(1n, 900_000n), fc.bigInt(1n, 900_000n)),
    }),
  },
);

/** Small picks choose the latest items, so steps often meet on the same transfer or deposit. */
function recent<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[items.length - 1 - (index % items.length)];
}

/** Across all runs: wallets closed, and reservations voided because their payee had closed (each must happen). */
const seen = { closes: 0, voidedRecipientClosed: 0 };

interface Sent {
  payer: string;
  command: ReserveTransfer;
  reservedId: string | undefined;
}

/** Runs one generated scenario, checking the invariants after every step. */
class Scenario {
  readonly ledger = new MemoryLedger();
  readonly sent: Sent[] = [];
  readonly transfers: Array<{ payer: string; transferId: string }> = [];
  readonly deposits: Array<{ user: string; depositId: string; networkTransactionHash: string; amountMlx: bigint }> = [];
  private counter = 0;
  private readonly auditor = createLedgerAuditor();
  private audited = 0;

  /**
   * `allocateNetwork`: the old set-up (the test fixtures' bootstrap) gives the network stream the
   * rest of genesis; `ensureSystemWallets` gives it nothing, so deposits take it below zero.
   */
  constructor(readonly allocateNetwork: boolean) {
    if (allocateNetwork) this.ledger.bootstrap(SUPPLY_MLX, RESERVE_MLX);
    else this.bootstrapAsEnsureSystemWallets();
    users.forEach((walletId, i) => {
      this.ledger.open(walletId, 'user', testAddress(i + 1), `owner-${walletId}`);
      this.ledger.transfer(SYSTEM_WALLET_IDS.reserve, walletId, 1_000_000n, `fund-${walletId}`);
    });
  }

  private bootstrapAsEnsureSystemWallets(): void {
    const kinds = ['genesis', 'reserve', 'fee', 'network'] as const;
    kinds.forEach((kind, i) => {
      this.ledger.open(SYSTEM_WALLET_IDS[kind], kind, testAddress(9001 + i));
    });
    expectOk(this.ledger.execute(SYSTEM_WALLET_IDS.genesis, { type: 'MintSupply', data: { amountMlx: SUPPLY_MLX } }));
    this.ledger.transfer(SYSTEM_WALLET_IDS.genesis, SYSTEM_WALLET_IDS.reserve, RESERVE_MLX, 'reserve-initial-funding');
  }

  private payeeOf(payee: Payee): { toAddress: string; toWalletId?: string } {
    if (payee.kind === 'user') return { toAddress: testAddress(payee.index + 1), toWalletId: users[payee.index] as string };
    if (payee.kind === 'external') return { toAddress: testAddress(500 + (this.counter % 7)) };
    if (payee.kind === 'missingWallet') return { toAddress: testAddress(700), toWalletId: 'no-such-wallet' };
    return { toAddress: testAddress(9003), toWalletId: SYSTEM_WALLET_IDS.fee };
  }

  send(payer: string, payee: Payee, amountMlx: bigint, keyed: boolean): void {
    this.counter += 1;
    const transferId = `t${this.counter}`;
    const command: ReserveTransfer = { type: 'ReserveTransfer', data: { transferId, ...this.payeeOf(payee), amountMlx, feeMlx: 1000n } };
    if (keyed) command.data.idempotencyKey = `key-${this.counter}`;
    const outcome = this.ledger.execute(payer, command);
    const reservedId = outcome.ok ? outcome.decision.transferId : undefined;
    if (outcome.ok) {
      expect(outcome.decision).toEqual({ events: [expect.objectContaining({ type: 'TransferReserved' })], transferId });
      this.transfers.push({ payer, transferId });
    }
    this.sent.push({ payer, command, reservedId });
  }

  retry(index: number, changeAmount: boolean): void {
    const keyed = this.sent.filter((s) => s.command.data.idempotencyKey !== undefined);
    const original = recent(keyed, index);
    if (!original) return;
    this.counter += 1;
    const amountMlx = changeAmount ? original.command.data.amountMlx + 1n : original.command.data.amountMlx;
    const command: ReserveTransfer = {
      type: 'ReserveTransfer',
      data: { ...original.command.data, transferId: `t${this.counter}`, amountMlx },
    };
    const outcome = this.ledger.execute(original.payer, command);
    // A closed wallet answers no retry: it sends nothing, ever (ADR 042).
    if (isWalletClosed(this.ledger.state(original.payer))) {
      expect(outcome.ok ? 'ok' : outcome.error.messageKey).toBe('errors:accountDeleted');
      return;
    }
    if (original.reservedId !== undefined) {
      // The first attempt was reserved: the retry answers with it and appends nothing, or is a conflict.
      if (changeAmount) expect(outcome.ok ? 'ok' : outcome.error.code).toBe('CONFLICT');
      else expect(outcome.ok && outcome.decision).toEqual({ events: [], transferId: original.reservedId });
      return;
    }
    // The first attempt was refused, so this one is a new attempt that may now be reserved.
    if (outcome.ok && outcome.decision.events.length > 0) {
      this.transfers.push({ payer: original.payer, transferId: command.data.transferId });
      this.sent.push({ payer: original.payer, command, reservedId: command.data.transferId });
    }
  }

  /** The worker's protocol decides what it may do; a step it would not take is skipped. */
  settleStep(kind: 'credit' | 'post' | 'settle' | 'void', index: number, reason: TransferVoidReason = 'expired'): void {
    const chosen = recent(this.transfers, index);
    if (!chosen) return;
    const { payer, transferId } = chosen;
    const transfer = this.ledger.state(payer).transfers.get(transferId);
    if (transfer?.direction !== 'outgoing') throw new Error(`lost transfer ${transferId}`);
    const internal = transfer.toWalletId !== undefined;
    const credited = internal && this.ledger.state(transfer.toWalletId ?? '').transfers.has(transferId);
    if (kind === 'settle') {
      this.ledger.settle(payer, transferId);
      return;
    }
    if (kind === 'credit') {
      if (internal && transfer.status === 'reserved') this.ledger.credit(payer, transferId);
      return;
    }
    if (kind === 'post') {
      if (internal && !credited) return;
      const data = internal ? { transferId } : { transferId, networkTransactionHash: `tx${transferId}` };
      const outcome = this.ledger.execute(payer, { type: 'PostTransfer', data });
      if (transfer.status === 'posted') expect(outcome.ok && outcome.decision.events).toEqual([]);
      if (transfer.status === 'voided') expect(outcome.ok ? 'ok' : outcome.error.code).toBe('CONFLICT');
      return;
    }
    if (credited) return;
    const outcome = this.ledger.execute(payer, { type: 'VoidTransfer', data: { transferId, reason } });
    if (transfer.status === 'posted') expect(outcome.ok ? 'ok' : outcome.error.code).toBe('CONFLICT');
    else expectOk(outcome);
  }

  deposit(user: string, amountMlx: bigint): void {
    this.counter += 1;
    const deposit = { user, depositId: `n${this.counter}:0`, networkTransactionHash: `n${this.counter}`, amountMlx };
    expectOk(this.ledger.execute(user, { type: 'ReceiveDeposit', data: { ...deposit, fromAddress: testAddress(600) } }));
    this.deposits.push(deposit);
  }

  depositStep(kind: 'confirm' | 'reject' | 'redeliver', index: number): void {
    const deposit = recent(this.deposits, index);
    if (!deposit) return;
    const status = this.ledger.state(deposit.user).deposits.get(deposit.depositId)?.status;
    if (kind === 'redeliver') {
      const data = {
        depositId: deposit.depositId,
        networkTransactionHash: deposit.networkTransactionHash,
        fromAddress: testAddress(600),
        amountMlx: deposit.amountMlx,
      };
      expect(expectOk(this.ledger.execute(deposit.user, { type: 'ReceiveDeposit', data })).events).toEqual([]);
      return;
    }
    const command =
      kind === 'confirm'
        ? ({ type: 'ConfirmDeposit', data: { depositId: deposit.depositId } } as const)
        : ({ type: 'RejectDeposit', data: { depositId: deposit.depositId, reason: 'networkInvalidated' } } as const);
    const outcome = this.ledger.execute(deposit.user, command);
    const settledOtherwise = status === (kind === 'confirm' ? 'rejected' : 'confirmed');
    expect(outcome.ok).toBe(!settledOtherwise);
  }

  /**
   * Reservation, post and credit as one append across payer and payee: the payer's two events
   * then the payee's credit, or the credit first. Refused reservations write nothing at all.
   */
  sendOneAppend(payer: string, payeeIndex: number, amountMlx: bigint, keyed: boolean, payeeFirst: boolean): void {
    this.counter += 1;
    const transferId = `t${this.counter}`;
    const payee = this.payeeOf({ kind: 'user', index: payeeIndex });
    const command: ReserveTransfer = { type: 'ReserveTransfer', data: { transferId, ...payee, amountMlx, feeMlx: 1000n } };
    if (keyed) command.data.idempotencyKey = `key-${this.counter}`;
    const expected = this.ledger.eventCount(payer);
    const decided = this.ledger.decideOn(this.ledger.state(payer), command);
    const reserves = decided.ok && decided.decision.events.length > 0;
    this.sent.push({ payer, command, reservedId: reserves ? transferId : undefined });
    if (!reserves) return;
    const payerWallet = this.ledger.state(payer).wallet;
    if (!payerWallet) throw new Error(`no wallet ${payer}`);
    // The one append is decided on both wallets: a closed payee refuses the credit, so nothing is written.
    const payeeState = this.ledger.state(payee.toWalletId as string);
    const creditDecided = this.ledger.decideOn(payeeState, {
      type: 'CreditTransfer',
      data: { transferId, fromWalletId: payer, fromAddress: payerWallet.address, amountMlx },
    });
    if (isWalletClosed(payeeState)) {
      expect(creditDecided.ok ? 'ok' : creditDecided.error.messageKey).toBe('errors:recipientClosed');
      const last = this.sent.at(-1);
      if (last) last.reservedId = undefined;
      return;
    }
    const credit = () =>
      expectOk(
        this.ledger.execute(payee.toWalletId as string, {
          type: 'CreditTransfer',
          data: { transferId, fromWalletId: payer, fromAddress: payerWallet.address, amountMlx },
        }),
      );
    if (payeeFirst) credit();
    this.ledger.append(payer, decided.decision.events, expected);
    expectOk(this.ledger.execute(payer, { type: 'PostTransfer', data: { transferId } }));
    if (!payeeFirst) credit();
    this.transfers.push({ payer, transferId });
  }

  /** Two sends decided on one snapshot: the second append must lose, then retry on fresh state. */
  race(payer: string, payees: [number, number], amountsMlx: [bigint, bigint]): void {
    const snapshotCount = this.ledger.eventCount(payer);
    const snapshot = this.ledger.state(payer);
    const commands = payees.map((p, i) => {
      this.counter += 1;
      const data = {
        transferId: `t${this.counter}`,
        ...this.payeeOf({ kind: 'user', index: p }),
        amountMlx: amountsMlx[i] ?? 1n,
        feeMlx: 1000n,
      };
      return { type: 'ReserveTransfer' as const, data };
    });
    const decisions = commands.map((command) => this.ledger.decideOn(snapshot, command));
    decisions.forEach((decided, i) => {
      const command = commands[i];
      if (!decided.ok || decided.decision.events.length === 0 || !command) return;
      let attempt = decided.decision;
      let expected = snapshotCount;
      for (let tries = 0; tries <= CONCURRENCY_RETRIES_MAX; tries += 1) {
        try {
          this.ledger.append(payer, attempt.events, expected);
          this.transfers.push({ payer, transferId: command.data.transferId });
          return;
        } catch (error) {
          if (!(error instanceof ConcurrencyConflict)) throw error;
          expected = this.ledger.eventCount(payer);
          const again = this.ledger.decideOn(this.ledger.state(payer), command);
          if (!again.ok || again.decision.events.length === 0) return;
          attempt = again.decision;
        }
      }
      throw new Error('a retry on fresh state must not conflict again in a single-threaded test');
    });
  }

  /** CloseWallet: closes an empty wallet, answers a closed one with nothing, refuses any other. */
  close(user: string): void {
    const before = this.ledger.state(user);
    const wasClosed = isWalletClosed(before);
    const wasEmpty = isWalletEmpty(before);
    const outcome = this.ledger.execute(user, { type: 'CloseWallet', data: { reason: 'accountDeleted' } });
    if (wasClosed) expect(outcome.ok && outcome.decision.events).toEqual([]);
    else if (wasEmpty) {
      expect(outcome.ok && outcome.decision.events.map((e) => e.type)).toEqual(['WalletClosed']);
      seen.closes += 1;
    } else expect(outcome.ok ? 'ok' : outcome.error.messageKey).toBe('errors:accountNotEmpty');
  }

  /** What a user does before deleting the account: let sends finish, wait for deposits, send the rest away. */
  drainAndClose(user: string): void {
    for (const t of this.transfers) if (t.payer === user) this.ledger.settle(user, t.transferId);
    for (const d of this.deposits)
      if (d.user === user && this.ledger.state(user).deposits.get(d.depositId)?.status === 'received')
        expectOk(this.ledger.execute(user, { type: 'ConfirmDeposit', data: { depositId: d.depositId } }));
    const restMlx = availableMlx(this.ledger.state(user)) - 1000n;
    if (restMlx > 0n) {
      this.counter += 1;
      const transferId = `t${this.counter}`;
      const toAddress = this.ledger.state(SYSTEM_WALLET_IDS.reserve).wallet?.address ?? '';
      const data = { transferId, toAddress, toWalletId: SYSTEM_WALLET_IDS.reserve, amountMlx: restMlx, feeMlx: 1000n };
      const outcome = this.ledger.execute(user, { type: 'ReserveTransfer', data });
      if (outcome.ok && outcome.decision.events.length > 0) {
        this.transfers.push({ payer: user, transferId });
        this.ledger.settle(user, transferId);
      }
    }
    this.close(user);
  }

  apply(op: Op): void {
    switch (op.kind) {
      case 'send':
        this.send(payers[op.payer] as string, op.payee, op.amountMlx, op.keyed);
        return;
      case 'sendRest': {
        const payer = users[op.payer] as string;
        const restMlx = availableMlx(this.ledger.state(payer)) - 1000n + op.deltaMlx;
        this.send(payer, op.payee, restMlx, false);
        return;
      }
      case 'retry':
        this.retry(op.pick, op.changeAmount);
        return;
      case 'credit':
      case 'post':
      case 'settle':
        this.settleStep(op.kind, op.pick);
        return;
      case 'void':
        this.settleStep('void', op.pick, op.reason);
        return;
      case 'deposit':
        this.deposit(users[op.user] as string, op.amountMlx);
        return;
      case 'confirm':
      case 'reject':
      case 'redeliver':
        this.depositStep(op.kind, op.pick);
        return;
      case 'race':
        this.race(users[op.payer] as string, op.payees, op.amountsMlx);
        return;
      case 'sendOneAppend':
        this.sendOneAppend(users[op.payer] as string, op.payee, op.amountMlx, op.keyed, op.payeeFirst);
        return;
      case 'close':
        this.close(users[op.user] as string);
        return;
      case 'drainAndClose':
        this.drainAndClose(users[op.user] as string);
        return;
    }
  }

  /** Feeds the events appended since the last check, then checks the whole ledger as it stands. */
  checkInvariants(): void {
    for (; this.audited < this.ledger.log.length; this.audited += 1) this.auditor.add(this.ledger.log[this.audited] as LedgerRecord);
    const audit = this.auditor.summary();
    expect(audit.violations).toEqual([]);
    expect(audit.ledgerTotalMlx).toBe(SUPPLY_MLX);
    // The boundary figures, counted again from the wallets' own states: what they confirmed and what they posted outside.
    const crossed = this.crossedFromStates();
    expect([audit.boundary.inMlx, audit.boundary.outMlx]).toEqual([crossed.inMlx, crossed.outMlx]);
    const allocatedMlx = this.allocateNetwork ? this.ledger.state(SYSTEM_WALLET_IDS.network).postedBalanceMlx : 0n;
    expect(audit.boundary.allocatedMlx).toBe(allocatedMlx);
    expect(audit.networkBalanceMlx).toBe(allocatedMlx - crossed.inMlx + crossed.outMlx);
    for (const walletId of this.ledger.walletIds()) expect(availableMlx(this.ledger.state(walletId))).toBeGreaterThanOrEqual(0n);
    // What closed wallets hold, counted again from their states: only deposits recorded after closing.
    const closed = this.ledger
      .walletIds()
      .map((id) => this.ledger.state(id))
      .filter(isWalletClosed);
    const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
    expect(audit.closedWallets).toMatchObject({
      closed: closed.length,
      heldMlx: sum(closed.map((state) => state.postedBalanceMlx)),
      pendingMlx: sum(closed.map((state) => state.pendingCreditsMlx)),
    });
  }

  private crossedFromStates(): { inMlx: bigint; outMlx: bigint } {
    let inMlx = 0n;
    let outMlx = 0n;
    for (const walletId of this.ledger.walletIds()) {
      const state = this.ledger.state(walletId);
      for (const d of state.deposits.values()) if (d.status === 'confirmed') inMlx += d.amountMlx;
      for (const t of state.transfers.values())
        if (t.direction === 'outgoing' && t.toWalletId === undefined && t.status === 'posted') outMlx += t.amountMlx;
    }
    return { inMlx, outMlx };
  }

  /** Folding each stream afresh from the log gives the states the scenario kept incrementally. */
  checkReplay(): void {
    for (const walletId of this.ledger.walletIds()) {
      const events = this.ledger.log.filter((r) => r.streamId === walletStream(walletId)).map((r) => toWalletEvent(r));
      const replayed = foldWallet(events.map((e) => e ?? expect.unreachable('unreadable event')));
      const kept = this.ledger.state(walletId);
      expect([replayed.postedBalanceMlx, replayed.pendingDebitsMlx, replayed.pendingCreditsMlx]).toEqual([
        kept.postedBalanceMlx,
        kept.pendingDebitsMlx,
        kept.pendingCreditsMlx,
      ]);
      // The balance the decider stamped on the stream's last balance-changing event is the fold's.
      const stamped = [...events].reverse().find((e) => e && 'balanceAfter' in e.data)?.data as
        | { balanceAfter?: BalanceSnapshot }
        | undefined;
      if (stamped?.balanceAfter) {
        expect([stamped.balanceAfter.postedMlx, stamped.balanceAfter.heldMlx, stamped.balanceAfter.pendingCreditMlx]).toEqual([
          mlxToWire(kept.postedBalanceMlx),
          mlxToWire(kept.pendingDebitsMlx),
          mlxToWire(kept.pendingCreditsMlx),
        ]);
      }
    }
  }
}

describe('ledger properties', () => {
  it('given random interleavings of wallet commands, when each is applied, then the audit finds no violation and no available balance is negative', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(opArb, { minLength: 1, maxLength: OPS_MAX, size: 'large' }), (allocateNetwork, ops) => {
        const scenario = new Scenario(allocateNetwork);
        for (const op of ops) {
          scenario.apply(op);
          scenario.checkInvariants();
        }
        scenario.checkReplay();
        // Once the worker has settled everything, no hold and nothing in transit remains.
        for (const { payer, transferId } of scenario.transfers) scenario.ledger.settle(payer, transferId);
        const audit = auditLedger(scenario.ledger.log);
        expect([audit.violations, audit.pendingDebitsMlx, audit.inTransitMlx, audit.transfers.open]).toEqual([[], 0n, 0n, 0]);
        expect(audit.ledgerTotalMlx).toBe(SUPPLY_MLX);
        for (const record of scenario.ledger.log) {
          const event = toWalletEvent(record);
          if (event?.type === 'TransferVoided' && event.data.reason === 'recipientClosed') seen.voidedRecipientClosed += 1;
        }
      }),
      { numRuns: RUNS },
    );
    // The closing paths were exercised, not only generated.
    expect(seen.closes).toBeGreaterThan(0);
    expect(seen.voidedRecipientClosed).toBeGreaterThan(0);
  }, 60_000);
});
