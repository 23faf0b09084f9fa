/**
 * Wallet command handlers: load a wallet stream, decide, append with the exact expected
 * revision, and decide again on a lost race (bounded). The only I/O is through the ports, so
 * the api, the settlement worker and the CLI tools share them.
 */
import type { Clock } from '../shared/clock.js';
import type { KeyedSerializer } from '../shared/keyed-serializer.js';
import { AppError } from '../shared/errors.js';
import { WrongExpectedRevisionError, type EventStore, type StreamAppend } from '../shared/ports/event-store.js';
import { type Decision, type LoadedState, decideAndAppend, handleCommand } from '../shared/command-handler.js';
import {
  type LoadMode,
  type LoadedWallet,
  WalletStateCache,
  forget,
  loadForCommand,
  loadWallet,
  rememberAppended,
  walletModel,
} from './load.js';
import { transferRefusalOf } from './refusals.js';
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
import type { TransferTermsBook } from './transfer-terms.js';
import { initialWalletState, type OutgoingTransfer, type WalletState } from './state.js';

// Loading lives in load.ts; these stay importable from the handlers, where callers found them.
export { WalletStateCache, loadWallet, walletModel };

export interface WalletDeps {
  store: EventStore;
  /** Every reference kind's terms (ADR 077): the list above the capabilities builds it. */
  transferTerms: TransferTermsBook;
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

/** One stream per address, claimed with "no stream": two wallets can never share an address. */
export const addressStream = (address: string): string => `address-${address}`;

/**
 * The claim of an address for a wallet, appended once ('no_stream'): the deposit watcher finds
 * the wallet a deposit paid through it. A wallet's own address, or another of its addresses (an
 * invoice's, issue 27), appended in the same atomic call as what the address is for.
 */
export const addressClaim = (address: string, walletId: string): StreamAppend => ({
  streamId: addressStream(address),
  events: [{ type: 'WalletAddressAssigned', data: { address, walletId } }],
  expectedRevision: 'no_stream',
});

export interface Executed {
  decision: WalletDecision;
  /** The wallet before the decision; valid until the next command on this wallet (it may be cached). */
  state: WalletState;
  /** Log position of the last event appended; undefined when the decision appended nothing. */
  position?: bigint;
}

/** Loads, decides and appends one command, deciding again when another writer got there first. */
export function executeWalletCommand(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>,
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
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>,
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
  deps: Pick<WalletDeps, 'store' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>,
  walletId: string,
): Promise<{ state: WalletState }> {
  const cache = deps.stateCache;
  if (!deps.serialize || !cache) return loadWallet(deps, walletId);
  return deps.serialize(walletStream(walletId), () => loadForCommand(deps, walletId, cache));
}

async function executeOnce(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'snapshotEveryEvents' | 'transferTerms'>,
  walletId: string,
  command: WalletCommand,
  cache: WalletStateCache | undefined,
  companion?: WalletCommandCompanion,
): Promise<Executed> {
  const handled = await handleCommand(
    deps,
    walletStream(walletId),
    walletModel(deps.transferTerms),
    (state, now) => {
      const decision = decide(command, state, now, deps.transferTerms);
      return { events: decision.events, result: decision };
    },
    {
      load: (current) => loadForCommand(deps, walletId, cache, current ? 'current' : 'cached'),
      ...(companion ? { companions: (decision: Decision<WalletEvent, WalletDecision>) => companion(decision.result) } : {}),
      onAppended: (decision, loaded) => rememberAppended(cache, walletId, loaded, decision.events),
      onAppendFailed: () => forget(cache, walletId),
    },
  );
  return { decision: handled.result, state: handled.state, position: handled.position };
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
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>,
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

/** A transfer's two wallets, as the transfer decides on them. */
interface TransferWallets {
  payer: LoadedWallet;
  payee: LoadedWallet;
}

async function transferOnce(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'snapshotEveryEvents' | 'transferTerms'>,
  payerWalletId: string,
  payeeWalletId: string,
  command: ReserveTransfer,
  cache: WalletStateCache | undefined,
  companion?: TransferCompanion,
): Promise<TransferExecuted> {
  const load = async (current: boolean): Promise<LoadedState<TransferWallets>> => {
    const mode: LoadMode = current ? 'current' : 'cached';
    const payer = await loadForCommand(deps, payerWalletId, cache, mode);
    const payee = await loadForCommand(deps, payeeWalletId, cache, mode);
    return { state: { payer, payee }, revision: payer.revision, current: payer.current && payee.current };
  };
  const handled = await decideAndAppend(
    deps,
    walletStream(payerWalletId),
    load,
    ({ payer, payee }, now) => {
      const decision = decideTransfer(command, payer.state, payee.state, now, deps.transferTerms);
      return { events: decision.payerEvents, result: decision };
    },
    {
      ownAppends: ({ result }, { state }) => [
        { streamId: walletStream(payeeWalletId), events: result.payeeEvents, expectedRevision: state.payee.revision },
      ],
      ...(companion ? { companions: ({ result }: Decision<WalletEvent, TransferDecision>) => companionAppends(companion(result)) } : {}),
      onAppended: ({ result }, { state }) => {
        rememberAppended(cache, payerWalletId, state.payer, result.payerEvents);
        rememberAppended(cache, payeeWalletId, state.payee, result.payeeEvents);
      },
      onAppendFailed: () => forget(cache, payerWalletId, payeeWalletId),
    },
  );
  return { decision: handled.result, payer: handled.state.payer.state, position: handled.position };
}

/**
 * Records a deposit together with its deposit id's claim stream, in one atomic append (ADR 020):
 * the claim keeps the id idempotent after the wallet's state has forgotten the settled deposit.
 * A claim that already exists means the deposit was recorded before: nothing is appended, or
 * CONFLICT when the claim names other details (the same output cannot pay twice).
 */
export function executeDepositReceipt(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>,
  walletId: string,
  command: ReceiveDeposit,
): Promise<Executed> {
  const run = () => depositReceiptOnce(deps, walletId, command, deps.serialize ? deps.stateCache : undefined);
  return deps.serialize ? deps.serialize(walletStream(walletId), run) : run();
}

async function depositReceiptOnce(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'snapshotEveryEvents' | 'transferTerms'>,
  walletId: string,
  command: ReceiveDeposit,
  cache: WalletStateCache | undefined,
): Promise<Executed> {
  const claimStream = depositClaimStream(command.data.depositId);
  let claim: { walletId: string; depositId: string; networkTransactionHash: string; amountMlx: string } | undefined;
  let decidedOn = initialWalletState();
  try {
    const handled = await handleCommand(
      deps,
      walletStream(walletId),
      walletModel(deps.transferTerms),
      (state, now) => {
        decidedOn = state;
        const decision = decide(command, state, now, deps.transferTerms);
        // Only a new deposit is recorded (with its claim); anything else appends nothing.
        const received = decision.events[0]?.type === 'DepositReceived' ? decision.events : [];
        return { events: received, result: decision };
      },
      {
        load: (current) => loadForCommand(deps, walletId, cache, current ? 'current' : 'cached'),
        companions: ({ events }) => {
          const received = events[0];
          if (received?.type !== 'DepositReceived') return [];
          claim = {
            walletId,
            depositId: received.data.depositId,
            networkTransactionHash: received.data.networkTransactionHash,
            amountMlx: received.data.amountMlx,
          };
          return [{ streamId: claimStream, events: [{ type: DEPOSIT_CLAIMED_EVENT, data: claim }], expectedRevision: 'no_stream' }];
        },
        onAppended: (decision, loaded) => rememberAppended(cache, walletId, loaded, decision.events),
        onAppendFailed: () => forget(cache, walletId),
      },
    );
    return { decision: handled.result, state: handled.state, position: handled.position };
  } catch (error) {
    if (!(error instanceof WrongExpectedRevisionError) || error.streamId !== claimStream || !claim) throw error;
    // The deposit was recorded before: the same details answer it, others are refused.
    const [existing] = await deps.store.readStream(claimStream, { maxCount: 1 });
    const same =
      existing?.data.walletId === claim.walletId &&
      existing.data.networkTransactionHash === claim.networkTransactionHash &&
      existing.data.amountMlx === claim.amountMlx;
    if (!same) throw new AppError('CONFLICT', 'errors:idempotencyConflict');
    return { decision: { events: [] }, state: decidedOn };
  }
}

export function outgoingTransfer(state: WalletState, transferId: string): OutgoingTransfer | undefined {
  const transfer = state.transfers.get(transferId);
  return transfer?.direction === 'outgoing' ? transfer : undefined;
}

/** The wallet holding an address, strongly consistent (reads the address's claim stream). */
export async function findWalletIdByAddress(deps: { store: Pick<EventStore, 'readStream'> }, address: string): Promise<string | undefined> {
  const records = await deps.store.readStream(addressStream(address), { maxCount: 1 });
  const walletId = records[0]?.data.walletId;
  return typeof walletId === 'string' ? walletId : undefined;
}

async function openWallet(deps: WalletDeps, walletId: string, kind: WalletKind, ownerUserId?: string): Promise<string> {
  const existing = await loadWallet(deps, walletId);
  if (existing.state.wallet) return existing.state.wallet.address;
  const address = createAddress(deps.newKeyIdentifier(), deps.network);
  // Claim the address first: a crash after this leaves an unused claim, never two wallets on one address.
  const claim = addressClaim(address, walletId);
  await deps.store.append(claim.streamId, claim.events, claim.expectedRevision);
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
  transferRefusalOf(refusal)?.kind === 'recipientClosed' ? 'recipientClosed' : 'recipientCannotReceive';

/**
 * Settles a transfer between Quern wallets: credits the payee (idempotent by transfer id), then
 * posts the payer's reservation; voids it when the payee cannot be credited. Safe to run again.
 */
export async function settleInternalTransfer(
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'transferTerms'>,
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
  deps: Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>,
  walletId: string,
): Promise<{ closed: true }> {
  await executeWalletCommand(deps, walletId, { type: 'CloseWallet', data: { reason: 'accountDeleted' } });
  return { closed: true };
}
