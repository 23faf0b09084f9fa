/**
 * Wallet command handlers: load a wallet stream, decide, append with the exact expected
 * revision, and decide again on a lost race (bounded). The only I/O is through the ports, so
 * the api, the settlement worker and the CLI tools share them.
 */
import type { Clock } from '../shared/clock.js';
import type { KeyedSerializer } from '../shared/keyed-serializer.js';
import { AppError } from '../shared/errors.js';
import { WrongExpectedRevisionError, type EventStore, type ExpectedRevision } from '../shared/ports/event-store.js';
import { findUserIdByKey } from '../identity/handlers.js';
import { createAddress, type MillixNetwork } from './address.js';
import type { WalletCommand } from './commands.js';
import type { Recipient, SendCommandInput } from './contracts.js';
import { decide, type WalletDecision } from './decider.js';
import { SYSTEM_WALLET_IDS, toWalletEvent, walletStream, type WalletKind } from './events.js';
import { evolve, foldWallet, type OutgoingTransfer, type WalletState } from './state.js';

export interface WalletDeps {
  store: EventStore;
  clock: Clock;
  /** A fresh UUID per call. */
  newId: () => string;
  /** 20 random bytes: the key identifier of a new wallet's address. */
  newKeyIdentifier: () => Uint8Array;
  network: MillixNetwork;
  /** Queues commands per wallet within this process (see createKeyedSerializer); optional. */
  serialize?: KeyedSerializer;
  /** Folded wallet states kept between commands; used only together with `serialize`. */
  stateCache?: WalletStateCache;
}

interface CachedWallet {
  state: WalletState;
  revision: bigint;
}

/**
 * Keeps each wallet's folded state and revision in memory, so a command reads only the events
 * appended since the last one instead of folding the whole stream (a send would otherwise cost
 * O(history)). Safe only under the per-wallet serializer: one command at a time mutates an entry.
 * Bounded; the least recently used wallet is dropped first.
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
}

/** Sends racing on one wallet decide again this many times before answering "busy". */
const APPEND_ATTEMPTS_MAX = 8;

/** One stream per address, claimed with "no stream": two wallets can never share an address. */
export const addressStream = (address: string): string => `address-${address}`;

export async function loadWallet(
  deps: Pick<WalletDeps, 'store'>,
  walletId: string,
): Promise<{ state: WalletState; revision: ExpectedRevision }> {
  const records = await deps.store.readStream(walletStream(walletId));
  const events = records.map((record) => {
    const event = toWalletEvent(record);
    if (!event) throw new Error(`Unreadable ${record.type} at ${walletStream(walletId)}@${record.revision}`);
    return event;
  });
  const last = records[records.length - 1];
  return { state: foldWallet(events), revision: last ? last.revision : 'no_stream' };
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
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache'>,
  walletId: string,
  command: WalletCommand,
): Promise<Executed> {
  if (!deps.serialize) return executeOnce(deps, walletId, command, undefined);
  return deps.serialize(walletStream(walletId), () => executeOnce(deps, walletId, command, deps.stateCache));
}

/**
 * The wallet's current state for a decision made outside a command (which transfer to settle):
 * through the cache when there is one, so the read does not fold the whole stream. The state is
 * valid until the next command on this wallet.
 */
export function readWallet(
  deps: Pick<WalletDeps, 'store' | 'serialize' | 'stateCache'>,
  walletId: string,
): Promise<{ state: WalletState }> {
  const cache = deps.stateCache;
  if (!deps.serialize || !cache) return loadWallet(deps, walletId);
  return deps.serialize(walletStream(walletId), () => loadForCommand(deps, walletId, cache));
}

/** The wallet as the command sees it: from the cache caught up to the stream's end, or folded afresh. */
async function loadForCommand(deps: Pick<WalletDeps, 'store'>, walletId: string, cache: WalletStateCache | undefined) {
  const cached = cache?.take(walletId);
  if (!cached) {
    const loaded = await loadWallet(deps, walletId);
    if (cache && typeof loaded.revision === 'bigint') cache.put(walletId, { state: loaded.state, revision: loaded.revision });
    return loaded;
  }
  const newer = await deps.store.readStream(walletStream(walletId), { fromRevision: cached.revision + 1n });
  for (const record of newer) {
    const event = toWalletEvent(record);
    if (!event) {
      cache?.drop(walletId);
      throw new Error(`Unreadable ${record.type} at ${walletStream(walletId)}@${record.revision}`);
    }
    cached.state = evolve(cached.state, event);
    cached.revision = record.revision;
  }
  return { state: cached.state, revision: cached.revision as ExpectedRevision };
}

async function executeOnce(
  deps: Pick<WalletDeps, 'store' | 'clock'>,
  walletId: string,
  command: WalletCommand,
  cache: WalletStateCache | undefined,
): Promise<Executed> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadForCommand(deps, walletId, cache);
    const decision = decide(command, state, deps.clock.now());
    if (decision.events.length === 0) return { decision, state };
    try {
      const appended = await deps.store.append(walletStream(walletId), decision.events, revision);
      return { decision, state, position: appended.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
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
  const reserved = await executeWalletCommand(deps, SYSTEM_WALLET_IDS.genesis, {
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
  await settleInternalTransfer(deps, SYSTEM_WALLET_IDS.genesis, reserved.decision.transferId ?? RESERVE_FUNDING_TRANSFER_ID);
}

/** Turns what the send form named into an address, and the Quern wallet behind it if any. */
export async function resolveRecipient(deps: WalletDeps, recipient: Recipient): Promise<{ toAddress: string; toWalletId?: string }> {
  if (recipient.kind === 'address') {
    const toWalletId = await findWalletIdByAddress(deps, recipient.address);
    return toWalletId ? { toAddress: recipient.address, toWalletId } : { toAddress: recipient.address };
  }
  const userId =
    recipient.kind === 'username'
      ? await findUserIdByKey(deps, 'username', recipient.username)
      : await findUserIdByKey(deps, 'email', recipient.email);
  if (!userId) throw new AppError('NOT_FOUND', 'errors:unknownRecipient', { to: 'errors:unknownRecipient' });
  const address = await walletAddressOf(deps, userId);
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
 * Phase one of a send: a reservation of amount + fee on the payer's stream under optimistic
 * concurrency, so the available balance never goes negative. Settlement happens in a worker.
 */
export async function sendMlx(
  deps: WalletDeps,
  payerWalletId: string,
  input: SendCommandInput,
  idempotencyKey?: string,
): Promise<SendResult> {
  const { toAddress, toWalletId } = await resolveRecipient(deps, input.to);
  const executed = await executeWalletCommand(deps, payerWalletId, {
    type: 'ReserveTransfer',
    data: { transferId: deps.newId(), idempotencyKey, toAddress, toWalletId, amountMlx: input.amount, feeMlx: input.fee },
  });
  const transferId = executed.decision.transferId;
  if (!transferId) throw new Error('ReserveTransfer decided without a transfer id');
  const status = outgoingTransfer(executed.state, transferId)?.status ?? 'reserved';
  return { transferId, status, position: executed.position };
}

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
    await executeWalletCommand(deps, payerWalletId, { type: 'VoidTransfer', data: { transferId, reason: 'recipientCannotReceive' } });
    return 'voided';
  }
  await executeWalletCommand(deps, payerWalletId, { type: 'PostTransfer', data: { transferId } });
  return 'posted';
}
