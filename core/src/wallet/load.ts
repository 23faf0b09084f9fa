/**
 * How a wallet command gets its wallet's state: from the per-process cache (ADR 022) when the
 * wallet has an entry, otherwise from its newest snapshot (ADR 020) and the events after it,
 * folded with the wallet's stream model. The command pipeline decides on what this answers.
 */
import { type StreamModel, type StreamState, foldEvents, foldRecorded, strictParser } from '../shared/command-handler.js';
import type { EventStore, ExpectedRevision } from '../shared/ports/event-store.js';
import { type WalletEvent, toWalletEvent, walletStream } from './events.js';
import { SNAPSHOT_EVERY_EVENTS, WALLET_SNAPSHOT_EVENT, fromWalletSnapshot, toWalletSnapshot, walletSnapshotStream } from './snapshot.js';
import { type WalletState, evolve, initialWalletState } from './state.js';
import type { TransferTermsBook } from './transfer-terms.js';

/** What loading needs: the store, the reference kinds' terms, and the events between snapshots (0: none; see WalletDeps). */
export interface LoadDeps {
  store: EventStore;
  transferTerms: TransferTermsBook;
  snapshotEveryEvents?: number;
}

export interface CachedWallet {
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

const models = new WeakMap<TransferTermsBook, StreamModel<WalletState, WalletEvent>>();

/**
 * A wallet stream as the pipeline reads it: every event parsed with its schema, none skipped, and
 * folded under the book's terms. One model per book (the composition root has one).
 */
export function walletModel(book: TransferTermsBook): StreamModel<WalletState, WalletEvent> {
  let model = models.get(book);
  if (model === undefined) {
    model = { initialState: initialWalletState, evolve: (state, event) => evolve(state, event, book), parse: strictParser(toWalletEvent) };
    models.set(book, model);
  }
  return model;
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
    state = foldRecorded(walletModel(deps.transferTerms), state, page);
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

/**
 * How a command reads its wallet: `cached` trusts the cached state (plus what this process
 * appended since) without reading the stream; `current` also reads what other writers appended.
 */
export type LoadMode = 'cached' | 'current';

export interface LoadedWallet {
  state: WalletState;
  revision: ExpectedRevision;
  /** True when the stream was read to its end just now; false when only the cache was used. */
  current: boolean;
}

/** The wallet as the command sees it: from the cache (caught up to the stream's end in `current` mode), or loaded afresh. */
export async function loadForCommand(
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
      cached.state = foldEvents(walletModel(deps.transferTerms), cached.state, cached.appended);
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

/**
 * After a successful append of `events` decided on `loaded`: the cache entry (when the wallet
 * has one) takes them, to be folded by the next command, so that command need not read them back.
 */
export function rememberAppended(
  cache: WalletStateCache | undefined,
  walletId: string,
  loaded: StreamState<WalletState>,
  events: WalletEvent[],
): void {
  const entry = cache?.take(walletId);
  if (!entry) return;
  // The entry must still be the one the decision was made on; otherwise let the next read decide.
  if (entry.state !== loaded.state || entry.revision !== loaded.revision || entry.appended) cache?.drop(walletId);
  else entry.appended = events;
}

/** An append whose outcome is unknown leaves the cache unusable for these wallets. */
export function forget(cache: WalletStateCache | undefined, ...walletIds: string[]): void {
  for (const walletId of walletIds) cache?.drop(walletId);
}
