/**
 * Wallet command handlers: load a wallet stream, decide, append with the exact expected
 * revision, and decide again on a lost race (bounded). The only I/O is through the ports, so
 * the api, the settlement worker and the CLI tools share them.
 */
import type { Clock } from '../shared/clock.js';
import type { KeyedSerializer } from '../shared/keyed-serializer.js';
import { AppError } from '../shared/errors.js';
import { WrongExpectedRevisionError, type EventStore, type ExpectedRevision, type StreamAppend } from '../shared/ports/event-store.js';
import { createAddress, type MillixNetwork } from './address.js';
import type { WalletCommand } from './commands.js';
import type { Recipient, SendCommandInput } from './contracts.js';
import { decide, decideTransfer, type TransferDecision, type WalletDecision } from './decider.js';
import type { ReceiveDeposit, ReserveTransfer } from './commands.js';
import {
  DEPOSIT_CLAIMED_EVENT,
  SYSTEM_WALLET_IDS,
  depositClaimStream,
  toWalletEvent,
  walletStream,
  type TransferVoidReason,
  type WalletEvent,
  type WalletKind,
} from './events.js';
import type { PayeeDirectory } from './payee-directory.js';
import { evolve, initialWalletState, type OutgoingTransfer, type WalletState } from './state.js';
import { SNAPSHOT_EVERY_EVENTS, WALLET_SNAPSHOT_EVENT, fromWalletSnapshot, toWalletSnapshot, walletSnapshotStream } from './snapshot.js';

export interface WalletDeps {
  store: EventStore;
  clock: Clock;
  /** A fresh UUID per call. */
  newId: () => string;
  /** 20 random bytes: the key identifier of a new wallet's address. */
  newKeyIdentifier: () => Uint8Array;
  network: MillixNetwork;
  /** Who a username or e-mail names (identity implements it, ADR 067). */
  payees: PayeeDirectory;
  /** Queues commands per wallet within this process (see createKeyedSerializer); optional. */
  serialize?: KeyedSerializer;
  /** Folded wallet states kept between commands; used only together with `serialize`. */
  stateCache?: WalletStateCache;
  /** Events between wallet snapshots (ADR 020); 0 turns snapshots off. Default SNAPSHOT_EVERY_EVENTS. */
  snapshotEveryEvents?: number;
  /** How long bought MLX may not be sent or paid out (PURCHASE_HOLD_HOURS, ADR 047); read by the purchase handlers. */
  purchaseHoldMs?: number;
  /**
   * Record sends between Quern wallets as two phases (a reservation settled by the settlement job)
   * instead of settling them at once (ADR 019). For a deployment with a settlement delay, where
   * sends are meant to be seen pending for a while; default false.
   */
  twoPhaseInternalSends?: boolean;
}

type LoadDeps = Pick<WalletDeps, 'store' | 'snapshotEveryEvents'>;

interface CachedWallet {
  state: WalletState;
  revision: bigint;
  /** eventCount of the newest snapshot known to exist (0: none). */
  snapshotAt?: number;
  /**
   * Events this process appended after `revision` (the last of them at `revision` + length), not
   * yet folded: they are folded when the next command takes the entry, so a state handed to the
   * caller of the command that appended them stays as it was decided on.
   */
  appended?: WalletEvent[];
}

/**
 * Keeps each wallet's folded state and revision in memory, so a command does not fold the whole
 * stream (a send would otherwise cost O(history)). A command decides on the cached state without
 * reading the stream first (ADR 022): the append's expected revision is what proves the state was
 * current, and a refusal is only answered after a read confirms it. Safe only under the per-wallet
 * serializer: one command at a time mutates an entry. Bounded; the least recently used wallet is
 * dropped first.
 */
export class WalletStateCache {
  readonly #entries = new Map<string, CachedWallet>();
  constructor(readonly maxWallets = 10_000) {}

  take(walletId: string): CachedWallet | undefined {
    const entry = this.#entries.get(walletId);
    if (entry) {
      this.#entries.delete(walletId);
      this.#entries.set(walletId, entry);
    }
    return entry;
  }

  put(walletId: string, entry: CachedWallet): void {
    this.#entries.delete(walletId);
    this.#entries.set(walletId, entry);
    if (this.#entries.size > this.maxWallets) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  drop(walletId: string): void {
    this.#entries.delete(walletId);
  }

  /**
   * The address of a cached wallet, readable outside the wallet's queue: an address never changes
   * once the wallet is open, so even an entry a command is about to advance has the right one.
   */
  addressOf(walletId: string): string | undefined {
    return this.#entries.get(walletId)?.state.wallet?.address;
  }
}

/** Sends racing on one wallet decide again this many times before answering "busy". */
const APPEND_ATTEMPTS_MAX = 8;

/** One stream per address, claimed with "no stream": two wallets can never share an address. */
export const addressStream = (address: string): string => `address-${address}`;

/**
 * The newest snapshot of a wallet, found without a backward read: the snapshot stream is probed
 * at revisions 0, 1, 3, 7, ... until one is missing, then bisected (2·log2(snapshots) one-event
 * reads). Undefined when there is none or the newest is unreadable (then the stream is folded).
 */
async function newestSnapshot(deps: LoadDeps, walletId: string): Promise<{ state: WalletState; revision: bigint } | undefined> {
  const stream = walletSnapshotStream(walletId);
  const at = async (revision: bigint) => (await deps.store.readStream(stream, { fromRevision: revision, maxCount: 1 }))[0];
  let found = await at(0n);
  if (!found) return undefined;
  let low = 0n;
  let high = 1n;
  for (let probe = await at(high); probe; probe = await at(high)) {
    found = probe;
    low = high;
    high = high * 2n + 1n;
  }
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    const probe = await at(middle);
    if (probe) {
      found = probe;
      low = middle;
    } else high = middle;
  }
  return fromWalletSnapshot(found.data);
}

/** Folds records onto a state, failing loudly on an event the fold cannot read. */
function foldRecords(walletId: string, state: WalletState, records: Array<{ type: string; data: unknown; revision: bigint }>): WalletState {
  let next = state;
  for (const record of records) {
    const event = toWalletEvent(record);
    if (!event) throw new Error(`Unreadable ${record.type} at ${walletStream(walletId)}@${record.revision}`);
    next = evolve(next, event);
  }
  return next;
}

/** Events read per page while folding a stream: memory stays bounded however long the stream is. */
const FOLD_PAGE_EVENTS = 5_000;

/**
 * Folds the stream's events from `fromRevision` onto `state`, a page at a time, saving snapshots
 * along the way. Returns the state, the last revision folded (undefined when there was none) and
 * the eventCount the newest snapshot covers.
 */
async function foldFrom(
  deps: LoadDeps,
  walletId: string,
  start: { state: WalletState; fromRevision: bigint; snapshotAt: number },
): Promise<{ state: WalletState; lastRevision: bigint | undefined; snapshotAt: number }> {
  let { state, fromRevision, snapshotAt } = start;
  let lastRevision: bigint | undefined;
  for (;;) {
    const page = await deps.store.readStream(walletStream(walletId), { fromRevision, maxCount: FOLD_PAGE_EVENTS });
    state = foldRecords(walletId, state, page);
    const last = page[page.length - 1];
    if (last) {
      lastRevision = last.revision;
      fromRevision = last.revision + 1n;
    }
    snapshotAt = maybeSnapshot(deps, walletId, state, snapshotAt);
    if (page.length < FOLD_PAGE_EVENTS) return { state, lastRevision, snapshotAt };
  }
}

/**
 * A wallet's state from its newest snapshot and the events after it, or from the whole stream
 * when there is no usable snapshot. `snapshotAt` is the eventCount the snapshot covers (0: none).
 */
export async function loadWallet(
  deps: LoadDeps,
  walletId: string,
): Promise<{ state: WalletState; revision: ExpectedRevision; snapshotAt: number }> {
  const snapshot = deps.snapshotEveryEvents === 0 ? undefined : await newestSnapshot(deps, walletId);
  const folded = await foldFrom(deps, walletId, {
    state: snapshot?.state ?? initialWalletState(),
    fromRevision: snapshot ? snapshot.revision + 1n : 0n,
    snapshotAt: snapshot?.state.eventCount ?? 0,
  });
  const revision: ExpectedRevision = folded.lastRevision ?? snapshot?.revision ?? 'no_stream';
  return { state: folded.state, revision, snapshotAt: folded.snapshotAt };
}

/**
 * Saves a snapshot when SNAPSHOT_EVERY_EVENTS (or the configured count) events were folded since
 * the last one; returns the eventCount now covered. The state is copied at once (evolve mutates
 * it later); the append is not awaited: a snapshot that fails to save only costs time later.
 */
function maybeSnapshot(deps: LoadDeps, walletId: string, state: WalletState, snapshotAt: number): number {
  const every = deps.snapshotEveryEvents ?? SNAPSHOT_EVERY_EVENTS;
  if (every <= 0 || state.eventCount - snapshotAt < every) return snapshotAt;
  const data = toWalletSnapshot(state);
  if (!data) return snapshotAt;
  void deps.store.append(walletSnapshotStream(walletId), [{ type: WALLET_SNAPSHOT_EVENT, data }], 'any').catch(() => undefined);
  return state.eventCount;
}

export interface Executed {
  decision: WalletDecision;
  /** The wallet before the decision; valid until the next command on this wallet (it may be cached). */
  state: WalletState;
  /** Log position of the last event appended; undefined when the decision appended nothing. */
  position?: bigint;
}

/** Loads, decides and appends one command, deciding again when another writer got there first. */
export function executeWalletCommand(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents'>,
  walletId: string,
  command: WalletCommand,
): Promise<Executed> {
  // A deposit is recorded with its claim stream, whoever records it.
  if (command.type === 'ReceiveDeposit') return executeDepositReceipt(deps, walletId, command);
  if (!deps.serialize) return executeOnce(deps, walletId, command, undefined);
  return deps.serialize(walletStream(walletId), () => executeOnce(deps, walletId, command, deps.stateCache));
}

/** executeWalletCommand with other streams appended atomically beside the wallet's events (ADR 033). */
export function executeWalletCommandWith(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents'>,
  walletId: string,
  command: WalletCommand,
  companion: WalletCommandCompanion,
): Promise<Executed> {
  if (!deps.serialize) return executeOnce(deps, walletId, command, undefined, companion);
  return deps.serialize(walletStream(walletId), () => executeOnce(deps, walletId, command, deps.stateCache, companion));
}

/**
 * The wallet's current state for a decision made outside a command (which transfer to settle):
 * through the cache when there is one, so the read does not fold the whole stream. The state is
 * valid until the next command on this wallet.
 */
export function readWallet(
  deps: Pick<WalletDeps, 'store' | 'serialize' | 'stateCache' | 'snapshotEveryEvents'>,
  walletId: string,
): Promise<{ state: WalletState }> {
  const cache = deps.stateCache;
  if (!deps.serialize || !cache) return loadWallet(deps, walletId);
  return deps.serialize(walletStream(walletId), () => loadForCommand(deps, walletId, cache));
}

/**
 * How a command reads its wallet: `cached` trusts the cached state (plus what this process
 * appended since) without reading the stream; `current` also reads what other writers appended.
 */
type LoadMode = 'cached' | 'current';

interface LoadedWallet {
  state: WalletState;
  revision: ExpectedRevision;
  /** True when the stream was read to its end just now; false when only the cache was used. */
  current: boolean;
}

/** The wallet as the command sees it: from the cache (caught up to the stream's end in `current` mode), or loaded afresh. */
async function loadForCommand(
  deps: LoadDeps,
  walletId: string,
  cache: WalletStateCache | undefined,
  mode: LoadMode = 'current',
): Promise<LoadedWallet> {
  const cached = cache?.take(walletId);
  if (!cached) {
    const loaded = await loadWallet(deps, walletId);
    if (cache && typeof loaded.revision === 'bigint')
      cache.put(walletId, { state: loaded.state, revision: loaded.revision, snapshotAt: loaded.snapshotAt });
    return { state: loaded.state, revision: loaded.revision, current: true };
  }
  try {
    if (cached.appended) {
      // This process appended these under the entry's revision: folding them costs no read.
      cached.state = foldEvents(cached.state, cached.appended);
      cached.revision += BigInt(cached.appended.length);
      cached.appended = undefined;
      cached.snapshotAt = maybeSnapshot(deps, walletId, cached.state, cached.snapshotAt ?? 0);
    }
    if (mode === 'current') {
      const folded = await foldFrom(deps, walletId, {
        state: cached.state,
        fromRevision: cached.revision + 1n,
        snapshotAt: cached.snapshotAt ?? 0,
      });
      cached.state = folded.state;
      cached.revision = folded.lastRevision ?? cached.revision;
      cached.snapshotAt = folded.snapshotAt;
    }
  } catch (error) {
    cache?.drop(walletId);
    throw error;
  }
  return { state: cached.state, revision: cached.revision as ExpectedRevision, current: mode === 'current' };
}

function foldEvents(state: WalletState, events: WalletEvent[]): WalletState {
  let next = state;
  for (const event of events) next = evolve(next, event);
  return next;
}

/**
 * After a successful append of `events` decided on `loaded`: the cache entry (when the wallet
 * has one) takes them, to be folded by the next command, so that command need not read them back.
 */
function rememberAppended(cache: WalletStateCache | undefined, walletId: string, loaded: LoadedWallet, events: WalletEvent[]): void {
  const entry = cache?.take(walletId);
  if (!entry) return;
  // The entry must still be the one the decision was made on; otherwise let the next read decide.
  if (entry.state !== loaded.state || entry.revision !== loaded.revision || entry.appended) cache?.drop(walletId);
  else entry.appended = events;
}

/**
 * Whether a refusal decided on `loaded` wallets may be stale: decided on the cache alone, it is
 * only answered after the streams were read (another process may have funded the wallet).
 */
const mayBeStale = (error: unknown, ...loaded: LoadedWallet[]) => error instanceof AppError && loaded.some((wallet) => !wallet.current);

/** Runs a decider; undefined when it refused on cached state only, which is to be decided again on current state. */
function decideOrRecheck<T>(decideNow: () => T, ...loaded: LoadedWallet[]): T | undefined {
  try {
    return decideNow();
  } catch (error) {
    if (!mayBeStale(error, ...loaded)) throw error;
    return undefined;
  }
}

/** An append whose outcome is unknown leaves the cache unusable for these wallets. */
function forget(cache: WalletStateCache | undefined, ...walletIds: string[]): void {
  for (const walletId of walletIds) cache?.drop(walletId);
}

async function executeOnce(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'snapshotEveryEvents'>,
  walletId: string,
  command: WalletCommand,
  cache: WalletStateCache | undefined,
  companion?: WalletCommandCompanion,
): Promise<Executed> {
  let mode: LoadMode = 'cached';
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadForCommand(deps, walletId, cache, mode);
    const { state, revision } = loaded;
    const decision = decideOrRecheck(() => decide(command, state, deps.clock.now()), loaded);
    if (!decision) {
      mode = 'current';
      continue;
    }
    if (decision.events.length === 0) return { decision, state };
    const extra = companion?.(decision) ?? [];
    try {
      const position =
        extra.length === 0
          ? (await deps.store.append(walletStream(walletId), decision.events, revision)).position
          : (
              await deps.store.appendToStreams([
                { streamId: walletStream(walletId), events: decision.events, expectedRevision: revision },
                ...extra,
              ])
            ).at(-1)?.position;
      rememberAppended(cache, walletId, loaded, decision.events);
      return { decision, state, position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) {
        forget(cache, walletId);
        throw error;
      }
      if (extra.some((append) => append.streamId === error.streamId)) throw error;
      mode = 'current';
      if (attempt >= APPEND_ATTEMPTS_MAX) throw new AppError('CONCURRENCY', 'errors:busy');
    }
  }
}

export interface TransferExecuted {
  decision: TransferDecision;
  /** The payer before the decision (valid until the next command on the payer). */
  payer: WalletState;
  /** Log position of the last event appended; undefined when nothing was appended. */
  position?: bigint;
}

/**
 * A third stream appended in the same atomic call as a transfer (ADR 025): e.g. the purchase
 * stream's PurchaseCredited, under the revision its caller decided on. Called only when the
 * transfer decides new events, with that decision. When the store refuses the companion's
 * expected revision, executeTransfer rethrows the WrongExpectedRevisionError (naming the
 * companion's stream) instead of deciding again: only the caller can read that stream afresh.
 */
export type TransferCompanion = (decision: TransferDecision) => StreamAppend | StreamAppend[];

/** The companion's appends as a list (a refund adds its order's stream and its idempotency claim, ADR 033). */
const companionAppends = (extra: StreamAppend | StreamAppend[] | undefined): StreamAppend[] =>
  extra === undefined ? [] : Array.isArray(extra) ? extra : [extra];

/**
 * Extra streams appended in the same atomic call as one wallet command's events (a payout to an
 * external address: its PayoutRequested and idempotency claim beside the reservation, ADR 033).
 * Called only when the command decides new events; a refusal of a companion's expected revision
 * is rethrown, as for TransferCompanion.
 */
export type WalletCommandCompanion = (decision: WalletDecision) => StreamAppend[];

/**
 * A send between two Quern wallets, settled at once (ADR 019): decided on both wallets' states and
 * appended to both streams in one atomic append, each under the revision it was decided on. A
 * lost race on either stream decides again (bounded). Within this process both wallets' queues
 * are taken in a fixed order (sorted stream names), so A→B and B→A cannot wait on each other.
 */
export function executeTransfer(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents'>,
  payerWalletId: string,
  command: ReserveTransfer,
  companion?: TransferCompanion,
): Promise<TransferExecuted> {
  const payeeWalletId = command.data.toWalletId;
  if (payeeWalletId === undefined) throw new Error('executeTransfer: the payee must be a Quern wallet');
  const serialize = deps.serialize;
  if (!serialize) return transferOnce(deps, payerWalletId, payeeWalletId, command, undefined, companion);
  const run = () => transferOnce(deps, payerWalletId, payeeWalletId, command, deps.stateCache, companion);
  // A send to oneself takes one queue (the decider refuses it); nesting one key in itself would wait forever.
  if (payeeWalletId === payerWalletId) return serialize(walletStream(payerWalletId), run);
  const [first, second] = [walletStream(payerWalletId), walletStream(payeeWalletId)].sort() as [string, string];
  return serialize(first, () => serialize(second, run));
}

async function transferOnce(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'snapshotEveryEvents'>,
  payerWalletId: string,
  payeeWalletId: string,
  command: ReserveTransfer,
  cache: WalletStateCache | undefined,
  companion?: TransferCompanion,
): Promise<TransferExecuted> {
  let mode: LoadMode = 'cached';
  for (let attempt = 1; ; attempt++) {
    const payer = await loadForCommand(deps, payerWalletId, cache, mode);
    const payee = await loadForCommand(deps, payeeWalletId, cache, mode);
    const decision = decideOrRecheck(() => decideTransfer(command, payer.state, payee.state, deps.clock.now()), payer, payee);
    if (!decision) {
      mode = 'current';
      continue;
    }
    if (decision.payerEvents.length === 0) return { decision, payer: payer.state };
    const extra = companionAppends(companion?.(decision));
    try {
      const appended = await deps.store.appendToStreams([
        { streamId: walletStream(payerWalletId), events: decision.payerEvents, expectedRevision: payer.revision },
        { streamId: walletStream(payeeWalletId), events: decision.payeeEvents, expectedRevision: payee.revision },
        ...extra,
      ]);
      rememberAppended(cache, payerWalletId, payer, decision.payerEvents);
      rememberAppended(cache, payeeWalletId, payee, decision.payeeEvents);
      return { decision, payer: payer.state, position: appended[appended.length - 1]?.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) {
        forget(cache, payerWalletId, payeeWalletId);
        throw error;
      }
      // Nothing was appended and the wallets' caches still hold the revisions decided on; the
      // companion's stream moved, which only the caller can read again.
      if (extra.some((append) => append.streamId === error.streamId)) throw error;
      mode = 'current';
      if (attempt >= APPEND_ATTEMPTS_MAX) throw new AppError('CONCURRENCY', 'errors:busy');
    }
  }
}

/**
 * Records a deposit together with its deposit id's claim stream, in one atomic append (ADR 020):
 * the claim keeps the id idempotent after the wallet's state has forgotten the settled deposit.
 * A claim that already exists means the deposit was recorded before: nothing is appended, or
 * CONFLICT when the claim names other details (the same output cannot pay twice).
 */
export function executeDepositReceipt(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents'>,
  walletId: string,
  command: ReceiveDeposit,
): Promise<Executed> {
  const run = () => depositReceiptOnce(deps, walletId, command, deps.serialize ? deps.stateCache : undefined);
  return deps.serialize ? deps.serialize(walletStream(walletId), run) : run();
}

async function depositReceiptOnce(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'snapshotEveryEvents'>,
  walletId: string,
  command: ReceiveDeposit,
  cache: WalletStateCache | undefined,
): Promise<Executed> {
  const claimStream = depositClaimStream(command.data.depositId);
  let mode: LoadMode = 'cached';
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadForCommand(deps, walletId, cache, mode);
    const { state, revision } = loaded;
    const decision = decideOrRecheck(() => decide(command, state, deps.clock.now()), loaded);
    if (!decision) {
      mode = 'current';
      continue;
    }
    const received = decision.events[0];
    if (received?.type !== 'DepositReceived') return { decision, state };
    const claim = {
      walletId,
      depositId: received.data.depositId,
      networkTransactionHash: received.data.networkTransactionHash,
      amountMlx: received.data.amountMlx,
    };
    try {
      const [appended] = await deps.store.appendToStreams([
        { streamId: walletStream(walletId), events: decision.events, expectedRevision: revision },
        { streamId: claimStream, events: [{ type: DEPOSIT_CLAIMED_EVENT, data: claim }], expectedRevision: 'no_stream' },
      ]);
      rememberAppended(cache, walletId, loaded, decision.events);
      return { decision, state, position: appended?.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) {
        forget(cache, walletId);
        throw error;
      }
      mode = 'current';
      if (error.streamId === claimStream) {
        const [existing] = await deps.store.readStream(claimStream, { maxCount: 1 });
        const same =
          existing?.data.walletId === claim.walletId &&
          existing.data.networkTransactionHash === claim.networkTransactionHash &&
          existing.data.amountMlx === claim.amountMlx;
        if (!same) throw new AppError('CONFLICT', 'errors:idempotencyConflict');
        return { decision: { events: [] }, state };
      }
      if (attempt >= APPEND_ATTEMPTS_MAX) throw new AppError('CONCURRENCY', 'errors:busy');
    }
  }
}

export function outgoingTransfer(state: WalletState, transferId: string): OutgoingTransfer | undefined {
  const transfer = state.transfers.get(transferId);
  return transfer?.direction === 'outgoing' ? transfer : undefined;
}

/** The wallet holding an address, strongly consistent (reads the address's claim stream). */
export async function findWalletIdByAddress(deps: Pick<WalletDeps, 'store'>, address: string): Promise<string | undefined> {
  const records = await deps.store.readStream(addressStream(address), { maxCount: 1 });
  const walletId = records[0]?.data.walletId;
  return typeof walletId === 'string' ? walletId : undefined;
}

async function openWallet(deps: WalletDeps, walletId: string, kind: WalletKind, ownerUserId?: string): Promise<string> {
  const existing = await loadWallet(deps, walletId);
  if (existing.state.wallet) return existing.state.wallet.address;
  const address = createAddress(deps.newKeyIdentifier(), deps.network);
  // Claim the address first: a crash after this leaves an unused claim, never two wallets on one address.
  await deps.store.append(addressStream(address), [{ type: 'WalletAddressAssigned', data: { address, walletId } }], 'no_stream');
  try {
    const opened = await executeWalletCommand(deps, walletId, { type: 'OpenWallet', data: { walletId, kind, address, ownerUserId } });
    return opened.state.wallet?.address ?? address;
  } catch (error) {
    // A concurrent open won; its wallet (and address) stand.
    const winner = await loadWallet(deps, walletId);
    if (winner.state.wallet) return winner.state.wallet.address;
    throw error;
  }
}

/** A user's wallet has the user's id; opening is idempotent. Returns the wallet's address. */
export function openUserWallet(deps: WalletDeps, userId: string): Promise<string> {
  return openWallet(deps, userId, 'user', userId);
}

export interface SystemSetup {
  supplyMlx: bigint;
  reserveFundingMlx: bigint;
}

/** The reserve's funding is one transfer with a fixed id, so every start after the first finds it done. */
const RESERVE_FUNDING_TRANSFER_ID = 'reserve-initial-funding';

/**
 * First start: opens genesis, reserve, fee and network accounts, mints the supply into genesis
 * and funds the reserve from genesis. Every step is idempotent, so it runs on every start.
 */
export async function ensureSystemWallets(deps: WalletDeps, setup: SystemSetup): Promise<void> {
  for (const kind of ['genesis', 'reserve', 'fee', 'network'] as const) await openWallet(deps, SYSTEM_WALLET_IDS[kind], kind);
  const genesis = (await loadWallet(deps, SYSTEM_WALLET_IDS.genesis)).state;
  if (genesis.mintedMlx === 0n)
    await executeWalletCommand(deps, SYSTEM_WALLET_IDS.genesis, { type: 'MintSupply', data: { amountMlx: setup.supplyMlx } });
  if (setup.reserveFundingMlx <= 0n) return;
  const reserve = (await loadWallet(deps, SYSTEM_WALLET_IDS.reserve)).state;
  // Settled at once (ADR 019); on a log where it was recorded as two phases, the key answers and
  // the settlement below finishes it if it was left half done.
  await executeTransfer(deps, SYSTEM_WALLET_IDS.genesis, {
    type: 'ReserveTransfer',
    data: {
      transferId: RESERVE_FUNDING_TRANSFER_ID,
      idempotencyKey: RESERVE_FUNDING_TRANSFER_ID,
      toAddress: reserve.wallet?.address ?? '',
      toWalletId: SYSTEM_WALLET_IDS.reserve,
      amountMlx: setup.reserveFundingMlx,
      feeMlx: 1000n,
    },
  });
  await settleInternalTransfer(deps, SYSTEM_WALLET_IDS.genesis, RESERVE_FUNDING_TRANSFER_ID);
}

/** Turns what the send form named into an address, and the Quern wallet behind it if any. */
export async function resolveRecipient(deps: WalletDeps, recipient: Recipient): Promise<{ toAddress: string; toWalletId?: string }> {
  if (recipient.kind === 'address') {
    const toWalletId = await findWalletIdByAddress(deps, recipient.address);
    return toWalletId ? { toAddress: recipient.address, toWalletId } : { toAddress: recipient.address };
  }
  const userId =
    recipient.kind === 'username'
      ? await deps.payees.userIdByUsername(recipient.username)
      : // An address its owner never proved is refused, not resolved (ADR 046).
        await deps.payees.payeeByEmail(recipient.email);
  if (!userId) throw new AppError('NOT_FOUND', 'errors:unknownRecipient', { to: 'errors:unknownRecipient' });
  // A payee paid before is in the state cache: its address costs no read (ADR 021).
  const address = deps.stateCache?.addressOf(userId) ?? (await walletAddressOf(deps, userId));
  if (!address) throw new AppError('NOT_FOUND', 'errors:unknownRecipient', { to: 'errors:unknownRecipient' });
  return { toAddress: address, toWalletId: userId };
}

/**
 * A wallet's address from its first event (WalletOpened is always first), so resolving a
 * recipient costs one read however long the payee's history is.
 */
export async function walletAddressOf(deps: Pick<WalletDeps, 'store'>, walletId: string): Promise<string | undefined> {
  const [first] = await deps.store.readStream(walletStream(walletId), { maxCount: 1 });
  const opened = first ? toWalletEvent(first) : undefined;
  return opened?.type === 'WalletOpened' ? opened.data.address : undefined;
}

export interface SendResult {
  transferId: string;
  status: 'reserved' | 'posted' | 'voided';
  position?: bigint;
}

/**
 * A send. To another Quern wallet it is settled at once in one atomic append to both streams
 * (ADR 019). To an external address it is phase one: a reservation of amount + fee on the payer's
 * stream under optimistic concurrency, so the available balance never goes negative; the
 * settlement worker submits it to the network and posts or voids it.
 */
export async function sendMlx(
  deps: WalletDeps,
  payerWalletId: string,
  input: SendCommandInput,
  idempotencyKey?: string,
): Promise<SendResult> {
  const { toAddress, toWalletId } = await resolveRecipient(deps, input.to);
  const command: ReserveTransfer = {
    type: 'ReserveTransfer',
    data: { transferId: deps.newId(), idempotencyKey, toAddress, toWalletId, amountMlx: input.amount, feeMlx: input.fee },
  };
  if (toWalletId !== undefined && deps.twoPhaseInternalSends !== true) {
    const executed = await executeTransfer(deps, payerWalletId, command);
    const transferId = executed.decision.transferId;
    // A new transfer is posted by the append that recorded it; a retry reports what the log holds.
    const status = executed.position !== undefined ? 'posted' : (outgoingTransfer(executed.payer, transferId)?.status ?? 'posted');
    return { transferId, status, position: executed.position };
  }
  const executed = await executeWalletCommand(deps, payerWalletId, command);
  const transferId = executed.decision.transferId;
  if (!transferId) throw new Error('ReserveTransfer decided without a transfer id');
  const status = outgoingTransfer(executed.state, transferId)?.status ?? 'reserved';
  return { transferId, status, position: executed.position };
}

/** Why a payee's refused credit voids the reservation: its wallet was closed (ADR 042), or it cannot take one. */
export const voidReasonOf = (refusal: AppError): TransferVoidReason =>
  refusal.messageKey === 'errors:recipientClosed' ? 'recipientClosed' : 'recipientCannotReceive';

/**
 * Settles a transfer between Quern wallets: credits the payee (idempotent by transfer id), then
 * posts the payer's reservation; voids it when the payee cannot be credited. Safe to run again.
 */
export async function settleInternalTransfer(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache'>,
  payerWalletId: string,
  transferId: string,
): Promise<'posted' | 'voided'> {
  const payer = (await readWallet(deps, payerWalletId)).state;
  const transfer = outgoingTransfer(payer, transferId);
  if (!transfer) throw new AppError('NOT_FOUND', 'errors:notFound');
  if (transfer.status !== 'reserved') return transfer.status;
  if (!transfer.toWalletId) throw new Error(`Transfer ${transferId} is not internal`);
  try {
    await executeWalletCommand(deps, transfer.toWalletId, {
      type: 'CreditTransfer',
      data: { transferId, fromWalletId: payerWalletId, fromAddress: payer.wallet?.address ?? '', amountMlx: transfer.amountMlx },
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'CONCURRENCY') throw error;
    await executeWalletCommand(deps, payerWalletId, { type: 'VoidTransfer', data: { transferId, reason: voidReasonOf(error) } });
    return 'voided';
  }
  await executeWalletCommand(deps, payerWalletId, { type: 'PostTransfer', data: { transferId } });
  return 'posted';
}

/**
 * Closes a user's wallet for good (ADR 042, account deletion): decided on the current stream and
 * appended under its expected revision (deciding again on a lost race), so the wallet is closed
 * only if it was empty at that revision. Refused with CONFLICT errors:accountNotEmpty otherwise;
 * closing a closed wallet appends nothing and answers the same.
 */
export async function closeWallet(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents'>,
  walletId: string,
): Promise<{ closed: true }> {
  await executeWalletCommand(deps, walletId, { type: 'CloseWallet', data: { reason: 'accountDeleted' } });
  return { closed: true };
}
