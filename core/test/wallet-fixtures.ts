/**
 * Test support for the wallet specs (not exported from index.ts): deterministic addresses, and an
 * in-memory ledger that does what the real handlers and settlement worker will do: load a
 * stream, decide, append with an expected revision, read events back through JSON (as the event
 * store returns them), and settle transfers by the worker's protocol.
 */
import { AppError } from '../src/shared/errors.js';
import type { MillixNetwork } from '../src/wallet/address.js';
import { createAddress } from '../src/wallet/address.js';
import type { LedgerRecord } from '../src/shared/audit-rule.js';
import type { WalletCommand } from '../src/wallet/commands.js';
import type { WalletDecision } from '../src/wallet/decider.js';
import type { WalletEvent, WalletKind } from '../src/wallet/events.js';
import { SYSTEM_WALLET_IDS, toWalletEvent, walletStream } from '../src/wallet/events.js';
import type { WalletState } from '../src/wallet/state.js';
import { initialWalletState } from '../src/wallet/state.js';
import { voidReasonOf } from '../src/wallet/handlers.js';
import { transferRefusalOf } from '../src/wallet/refusals.js';
import { decide, evolve } from './wallet-rules.js';

export const NOW = new Date('2026-01-02T03:04:05.000Z');

/** A valid address from a small number: distinct numbers give distinct key identifiers. */
export function testAddress(n: number, network: MillixNetwork = 'mainnet'): string {
  const bytes = new Uint8Array(20);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = (n * 37 + i * 11 + (n >> 8)) & 0xff;
  bytes[0] = n & 0xff;
  bytes[1] = (n >> 8) & 0xff;
  return createAddress(bytes, network);
}

/** Every command's result: the decision, or the domain error it was refused with. */
export type Outcome = { ok: true; decision: WalletDecision } | { ok: false; error: AppError };

export class ConcurrencyConflict extends Error {}

interface StreamEntry {
  state: WalletState;
  eventCount: number;
}

export class MemoryLedger {
  readonly log: LedgerRecord[] = [];
  private readonly streams = new Map<string, StreamEntry>();
  private position = 0n;
  private clockMs = NOW.getTime();

  now(): Date {
    this.clockMs += 1000;
    return new Date(this.clockMs);
  }

  state(walletId: string): WalletState {
    return this.streams.get(walletId)?.state ?? initialWalletState();
  }

  /** Appends only when the stream still has `expectedEventCount` events, as the store's expected revision does. */
  append(walletId: string, events: WalletEvent[], expectedEventCount: number): void {
    const entry = this.streams.get(walletId) ?? { state: initialWalletState(), eventCount: 0 };
    if (entry.eventCount !== expectedEventCount) throw new ConcurrencyConflict(walletId);
    let state = entry.state;
    for (const event of events) {
      // Through JSON and back, as every event read from the store arrives.
      const recorded = { streamId: walletStream(walletId), type: event.type, data: JSON.parse(JSON.stringify(event.data)) as unknown };
      this.position += 1n;
      this.log.push({ ...recorded, position: this.position });
      const read = toWalletEvent(recorded);
      if (!read) throw new Error(`event did not survive the wire: ${event.type}`);
      state = evolve(state, read);
    }
    this.streams.set(walletId, { state, eventCount: entry.eventCount + events.length });
  }

  /** Load, decide, append: what a command handler does. */
  execute(walletId: string, command: WalletCommand): Outcome {
    const expected = this.streams.get(walletId)?.eventCount ?? 0;
    const decided = this.decideOn(this.state(walletId), command);
    if (decided.ok && decided.decision.events.length > 0) this.append(walletId, decided.decision.events, expected);
    return decided;
  }

  /** Decides without appending, on any state (a stale snapshot, in race tests). */
  decideOn(state: WalletState, command: WalletCommand): Outcome {
    try {
      return { ok: true, decision: decide(command, state, this.now()) };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    }
  }

  eventCount(walletId: string): number {
    return this.streams.get(walletId)?.eventCount ?? 0;
  }

  walletIds(): string[] {
    return [...this.streams.keys()];
  }

  open(walletId: string, kind: WalletKind, address: string, ownerUserId?: string): void {
    const data = ownerUserId === undefined ? { walletId, kind, address } : { walletId, kind, address, ownerUserId };
    expectOk(this.execute(walletId, { type: 'OpenWallet', data }));
  }

  /**
   * The settlement worker's protocol for one transfer: credit the payee (internal) or submit to
   * the network (external), then post; void when the payee cannot be credited.
   */
  settle(payerWalletId: string, transferId: string): void {
    const transfer = this.state(payerWalletId).transfers.get(transferId);
    if (transfer?.direction !== 'outgoing' || transfer.status !== 'reserved') return;
    if (transfer.toWalletId === undefined) {
      expectOk(
        this.execute(payerWalletId, {
          type: 'PostTransfer',
          data: { transferId, networkTransactionHash: `tx${transferId.replace(/[^A-Za-z0-9]/g, '')}` },
        }),
      );
      return;
    }
    const credit = this.credit(payerWalletId, transferId);
    if (credit.ok) expectOk(this.execute(payerWalletId, { type: 'PostTransfer', data: { transferId } }));
  }

  /** Step one of settling an internal transfer; voids the reservation when the payee cannot take it. */
  credit(payerWalletId: string, transferId: string): Outcome {
    const payer = this.state(payerWalletId);
    const transfer = payer.transfers.get(transferId);
    if (!payer.wallet || !transfer || transfer.direction !== 'outgoing' || transfer.toWalletId === undefined)
      throw new Error('credit: not an internal reservation');
    const outcome = this.execute(transfer.toWalletId, {
      type: 'CreditTransfer',
      data: { transferId, fromWalletId: payer.wallet.walletId, fromAddress: payer.wallet.address, amountMlx: transfer.amountMlx },
    });
    if (!outcome.ok && (outcome.error.code === 'NOT_FOUND' || outcome.error.code === 'FORBIDDEN')) {
      const reason = outcome.error.code === 'NOT_FOUND' ? 'recipientNotFound' : 'recipientCannotReceive';
      expectOk(this.execute(payerWalletId, { type: 'VoidTransfer', data: { transferId, reason } }));
    }
    // A payee closed since the reservation (ADR 042): the reservation is voided, as the handler's voidReasonOf does.
    if (!outcome.ok && transferRefusalOf(outcome.error)?.kind === 'recipientClosed')
      expectOk(this.execute(payerWalletId, { type: 'VoidTransfer', data: { transferId, reason: voidReasonOf(outcome.error) } }));
    return outcome;
  }

  /** Genesis, reserve, fee and network accounts, with `supplyMlx` minted and split between reserve and network. */
  bootstrap(supplyMlx: bigint, reserveMlx: bigint): void {
    this.open(SYSTEM_WALLET_IDS.genesis, 'genesis', testAddress(9001));
    this.open(SYSTEM_WALLET_IDS.reserve, 'reserve', testAddress(9002));
    this.open(SYSTEM_WALLET_IDS.fee, 'fee', testAddress(9003));
    this.open(SYSTEM_WALLET_IDS.network, 'network', testAddress(9004));
    expectOk(this.execute(SYSTEM_WALLET_IDS.genesis, { type: 'MintSupply', data: { amountMlx: supplyMlx } }));
    this.transfer(SYSTEM_WALLET_IDS.genesis, SYSTEM_WALLET_IDS.reserve, reserveMlx, 'bootstrap-reserve');
    const restMlx = this.state(SYSTEM_WALLET_IDS.genesis).postedBalanceMlx - 1000n;
    this.transfer(SYSTEM_WALLET_IDS.genesis, SYSTEM_WALLET_IDS.network, restMlx, 'bootstrap-network');
  }

  /** A whole internal send, reserved and settled. */
  transfer(fromWalletId: string, toWalletId: string, amountMlx: bigint, transferId: string): void {
    const toAddress = this.state(toWalletId).wallet?.address ?? testAddress(1);
    expectOk(
      this.execute(fromWalletId, { type: 'ReserveTransfer', data: { transferId, toAddress, toWalletId, amountMlx, feeMlx: 1000n } }),
    );
    this.settle(fromWalletId, transferId);
  }
}

export function expectOk(outcome: Outcome): WalletDecision {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code} ${outcome.error.messageKey}`);
  return outcome.decision;
}

/** Two user wallets the decider specs share. */
export const alice = { walletId: 'wallet-alice', address: testAddress(1) };
export const bob = { walletId: 'wallet-bob', address: testAddress(2) };

/** A wallet's WalletOpened: a user's wallet names its owner, a system account has none. */
export const opened = (w = alice, kind: WalletKind = 'user'): WalletEvent => ({
  type: 'WalletOpened',
  data:
    kind === 'user'
      ? { walletId: w.walletId, kind, address: w.address, ownerUserId: `user-${w.walletId}`, openedAt: NOW.toISOString() }
      : { walletId: w.walletId, kind, address: w.address, openedAt: NOW.toISOString() },
});

/** Money arriving in a wallet from a funder outside the test, as a credited transfer. */
export const credited = (amountMlx: bigint, transferId = 'funding', w = alice): WalletEvent => ({
  type: 'TransferCredited',
  data: {
    walletId: w.walletId,
    transferId,
    fromWalletId: 'wallet-funder',
    fromAddress: testAddress(99),
    toAddress: w.address,
    amountMlx: String(amountMlx),
    creditedAt: NOW.toISOString(),
  },
});
export { decide, decideTransfer, evolve, foldWallet } from './wallet-rules.js';
