/**
 * The ledger audit: replays the whole event log (every stream, in log order) and checks the
 * invariants that no sequence of correct decisions can break. It is pure, so the same function
 * runs in the `audit` command over the real log and in property tests over generated logs.
 *
 * Conservation. Money is only minted (SupplyMinted) and otherwise moves, so at every point:
 *
 *     Σ posted balances of all wallet streams        (users, reserve, genesis, network stream)
 *   + fee account       = Σ feeMlx of TransferPosted                          (derived)
 *   + network, derived  = Σ amountMlx of external TransferPosted − Σ DepositConfirmed
 *   − in transit        = Σ credited amounts of transfers whose payer has not posted yet
 *   = Σ SupplyMinted
 *
 * "In transit" exists because a credit (payee's stream) and its post (payer's stream) may be two
 * appends: in between, the payee already holds the amount and the payer's hold still backs it.
 * Holds (pending debits) are inside the posted balances, so they are not added again; pending
 * deposits are MLX still on the network, so they are not counted until confirmed. Both pending
 * figures are checked separately against the transfers and deposits the log says are open.
 *
 * The boundary (ADR 017). The network account stands for everything outside Quern, so it is the
 * one account allowed below zero: nothing funds it, and a deposit is MLX Quern did not mint.
 * Instead its balance must equal exactly what its own stream was given inside Quern minus the
 * net MLX that crossed the boundary:
 *
 *     network balance = Σ internal credits to the network stream
 *                     − (Σ confirmed deposits − Σ posted external sends)
 *
 * where the crossings are counted from tracked lifecycles (a deposit received then confirmed, an
 * external reservation then its first post, at the recorded amounts), while the balance is
 * counted blindly from every event through `derivedAccountDelta` and the stream's fold. A forged
 * confirmation, a post of an unknown transfer or a movement of the network stream makes the two
 * differ (`networkBoundaryMismatch`), which conservation alone cannot see: the network account
 * absorbs any amount.
 *
 * Per event it checks that no wallet stream's balance goes negative (available = posted − holds;
 * the network account's derived balance is exempt, see above), that each transfer id is reserved
 * once, credited at most once and to the payee the reservation named, with the reserved amount,
 * and posted or voided at most once; that an internal transfer is credited before it is posted
 * and never voided after a credit. When one append writes payer and payee together (ADR 017),
 * either half may come first, but the other must be the very next wallet event.
 *
 * Closed wallets (ADR 042). A wallet is closed only at zero (posted, held and pending all 0 and no
 * reservation open at its WalletClosed); after closing it is credited no transfer and never
 * reserves or posts one. Deposits from the millix network are still recorded on it (the MLX did
 * arrive at its address): they are no violation but a figure, the MLX held for closed accounts.
 *
 * Above the ledger (ADR 067). The audit sits above every capability: the wallet knows none of
 * them, and each capability that moves MLX (purchases, checkouts, refunds, payouts,
 * subscriptions) contributes a rule (its audit.ts) that reads its own streams and claims the
 * transfers carrying its reference; one transfer-claim auditor (transfer-claims.ts) matches the
 * claims with the wallet's transfers for all of them. Each deposit stage the ledger accepts is
 * offered to every rule too, for a capability whose payments are deposits to a wallet's addresses.
 */
import { assertNever } from '../shared/assert.js';
import type { AuditWhere, LedgerOutcomes, LedgerRecord, MlxText } from '../shared/audit-rule.js';
import { derivedAccountDelta } from '../wallet/derived-account.js';
import type { WalletEvent } from '../wallet/events.js';
import { SYSTEM_WALLET_IDS, WALLET_STREAM_PREFIX, toWalletEvent } from '../wallet/events.js';
import { MLX_TOTAL_SUPPLY, mlxFromWire } from '../wallet/money.js';
import type { WalletState } from '../wallet/state.js';
import { evolve, initialWalletState, isWalletClosed, isWalletEmpty } from '../wallet/state.js';
import {
  MONEY_CAPABILITIES,
  type MoneyAuditors,
  type MoneyFigures,
  type MoneyViolationCode,
  moneyCapabilityNames,
  toKnownTransferReference,
  transferTermsBook,
} from '../transfer-references/known.js';

export type { LedgerRecord } from '../shared/audit-rule.js';

/** Violations kept in the report; the count goes on. A log this broken needs a person, not a longer list. */
export const AUDIT_VIOLATIONS_MAX = 1000;

export type LedgerViolationCode =
  | 'malformedEvent'
  | 'streamMismatch'
  | 'eventBeforeOpen'
  | 'walletOpenedTwice'
  | 'mintOutsideGenesis'
  | 'supplyAboveTotal'
  | 'negativeBalance'
  | 'duplicateReservation'
  | 'creditWithoutReservation'
  | 'creditToWrongWallet'
  | 'creditedTwice'
  | 'creditAfterSettlement'
  | 'amountMismatch'
  | 'settlementWithoutReservation'
  | 'settledTwice'
  | 'postedWithoutCredit'
  | 'voidedAfterCredit'
  | 'duplicateDeposit'
  | 'depositUnknown'
  | 'depositSettledTwice'
  | 'supplyMismatch'
  | 'holdsMismatch'
  | 'pendingCreditsMismatch'
  | 'networkBoundaryMismatch'
  /** Closed wallets (ADR 042): closed with money or a hold in it, credited or sending after it closed. */
  | 'closedNotEmpty'
  | 'creditAfterClose'
  | 'transferAfterClose'
  /**
   * The rules of the capabilities that move MLX (ADR 067, the list in transfer-references/known.ts):
   * purchases (ADR 025), checkouts (ADR 029), refunds and payouts (ADR 033), subscriptions (ADR 037),
   * each in its own audit.ts.
   */
  | MoneyViolationCode;

export interface LedgerViolation extends AuditWhere {
  code: LedgerViolationCode;
  message: string;
}

/**
 * Beside the ledger's own figures, each capability's under its name (MoneyFigures): `purchases`
 * (orders, captures, credits and returns in `purchase-` streams), `checkouts` (orders paid by
 * shoppers, `checkout-` streams), `refunds` (of checkout orders, in the same streams), `payouts`
 * (`payout-` streams) and `subscriptions` (charges, `subscription-` streams).
 */
export interface LedgerAudit extends MoneyFigures {
  ok: boolean;
  eventCount: number;
  walletEventCount: number;
  walletCount: number;
  mintedMlx: bigint;
  /** Σ posted balances of the wallet streams. */
  postedTotalMlx: bigint;
  feeAccruedMlx: bigint;
  /** The network account's derived part (may be negative: more deposits than external sends). */
  networkDerivedMlx: bigint;
  /** The network account's whole balance: its stream's posted balance plus the derived part. May be negative. */
  networkBalanceMlx: bigint;
  /**
   * MLX that crossed the boundary with the millix network, from tracked lifecycles: `inMlx` =
   * Σ confirmed deposits, `outMlx` = Σ posted external sends, `netMlx` = in − out.
   * `allocatedMlx` is what internal transfers credited to the network stream (a genesis
   * allocation in old set-ups; nothing in `ensureSystemWallets`'s). A sound log has
   * networkBalanceMlx = allocatedMlx − netMlx.
   */
  boundary: { inMlx: bigint; outMlx: bigint; netMlx: bigint; allocatedMlx: bigint };
  inTransitMlx: bigint;
  /** Left side of the conservation equation; equals mintedMlx in a sound log. */
  ledgerTotalMlx: bigint;
  pendingDebitsMlx: bigint;
  pendingCreditsMlx: bigint;
  transfers: { reserved: number; open: number; credited: number; posted: number; voided: number };
  deposits: { received: number; open: number; confirmed: number; rejected: number };
  /**
   * Closed wallets (ADR 042) and what they hold: MLX deposited from the network after they closed,
   * `heldMlx` confirmed (in their posted balances), `pendingMlx` not yet; `depositsConfirmed`
   * counts those confirmations.
   */
  closedWallets: { closed: number; heldMlx: bigint; pendingMlx: bigint; depositsConfirmed: number };
  violations: LedgerViolation[];
  violationCount: number;
}

interface TransferTrack {
  payerWalletId: string;
  toWalletId: string | undefined;
  amountMlx: bigint;
  feeMlx: bigint;
  status: 'reserved' | 'posted' | 'voided';
  creditedMlx: bigint | undefined;
}

/** A TransferPosted whose internal payee was not credited yet: the credit must be the next wallet event. */
interface AwaitingCredit {
  transferId: string;
  where: Where;
}

type CreditData = Extract<WalletEvent, { type: 'TransferCredited' }>['data'];

/** A TransferCredited written before its reservation: the reservation must be the next wallet event. */
interface AwaitingReservation {
  data: CreditData;
  where: Where;
}

interface DepositTrack {
  walletId: string;
  toAddress: string;
  amountMlx: bigint;
  status: 'received' | 'confirmed' | 'rejected';
}

interface AuditRun {
  states: Map<string, WalletState>;
  transfers: Map<string, TransferTrack>;
  deposits: Map<string, DepositTrack>;
  violations: LedgerViolation[];
  violationCount: number;
  eventCount: number;
  walletEventCount: number;
  mintedMlx: bigint;
  feeAccruedMlx: bigint;
  networkDerivedMlx: bigint;
  boundaryInMlx: bigint;
  boundaryOutMlx: bigint;
  networkAllocatedMlx: bigint;
  awaitingCredit: AwaitingCredit | undefined;
  awaitingReservation: AwaitingReservation | undefined;
  /** DepositConfirmed events on wallets already closed. */
  depositsConfirmedAfterClose: number;
  money: MoneyAuditors;
}

/** The capabilities' rules in the list's order, in which their end-of-log findings are reported. */
const capabilitiesOf = (run: AuditRun) => moneyCapabilityNames.map((name) => run.money[name]);

type Where = AuditWhere;

function report(run: AuditRun, code: LedgerViolationCode, message: string, where: Where = {}): void {
  run.violationCount += 1;
  if (run.violations.length < AUDIT_VIOLATIONS_MAX) run.violations.push({ code, message, ...where });
}

function networkBalance(run: AuditRun): bigint {
  const stream = run.states.get(SYSTEM_WALLET_IDS.network);
  return (stream?.postedBalanceMlx ?? 0n) + run.networkDerivedMlx;
}

function trackReserved(run: AuditRun, data: Extract<WalletEvent, { type: 'TransferReserved' }>['data'], where: Where): void {
  if (run.transfers.has(data.transferId)) {
    report(run, 'duplicateReservation', `transfer ${data.transferId} reserved more than once`, where);
    return;
  }
  run.transfers.set(data.transferId, {
    payerWalletId: data.walletId,
    toWalletId: data.toWalletId,
    amountMlx: mlxFromWire(data.amountMlx),
    feeMlx: mlxFromWire(data.feeMlx),
    status: 'reserved',
    creditedMlx: undefined,
  });
  const reference = data.reference;
  if (reference !== undefined) {
    const transfer = {
      reference,
      payerWalletId: data.walletId,
      payeeWalletId: data.toWalletId,
      toAddress: data.toAddress,
      amountMlx: mlxFromWire(data.amountMlx),
      feeMlx: mlxFromWire(data.feeMlx),
    };
    // A reference kind is one capability's: the rule that owns it takes the transfer.
    for (const capability of capabilitiesOf(run)) if (capability.offerTransfer(data.transferId, transfer)) break;
  }
  const early = run.awaitingReservation;
  if (early?.data.transferId === data.transferId) {
    run.awaitingReservation = undefined;
    trackCredited(run, early.data, early.where);
  }
}

function trackCredited(run: AuditRun, data: CreditData, where: Where): void {
  const track = run.transfers.get(data.transferId);
  const id = data.transferId;
  if (!track) {
    // One append may write the payee's credit before the payer's reservation; the next event decides.
    run.awaitingReservation = { data, where };
    return;
  }
  if (track.creditedMlx !== undefined) {
    report(run, 'creditedTwice', `transfer ${id} credited more than once`, where);
    return;
  }
  const amountMlx = mlxFromWire(data.amountMlx);
  track.creditedMlx = amountMlx;
  // Gifts to the network account's own stream are inside Quern; the boundary check adds them.
  if (data.walletId === SYSTEM_WALLET_IDS.network) run.networkAllocatedMlx += amountMlx;
  const completesPost = run.awaitingCredit?.transferId === id;
  if (completesPost) run.awaitingCredit = undefined;
  if (track.toWalletId !== data.walletId)
    report(run, 'creditToWrongWallet', `transfer ${id} credited to ${data.walletId}, reserved for ${String(track.toWalletId)}`, where);
  if (track.payerWalletId !== data.fromWalletId)
    report(run, 'creditToWrongWallet', `transfer ${id} credited as from ${data.fromWalletId}, reserved by ${track.payerWalletId}`, where);
  if (amountMlx !== track.amountMlx)
    report(run, 'amountMismatch', `transfer ${id} credited ${amountMlx}, reserved ${track.amountMlx}`, where);
  if (track.status !== 'reserved' && !completesPost)
    report(run, 'creditAfterSettlement', `transfer ${id} credited after it was ${track.status}`, where);
}

type Settlement = Extract<WalletEvent, { type: 'TransferPosted' | 'TransferVoided' }>;

function trackSettled(run: AuditRun, event: Settlement, where: Where): void {
  const { transferId: id, walletId } = event.data;
  const track = run.transfers.get(id);
  if (!track || track.payerWalletId !== walletId) {
    report(run, 'settlementWithoutReservation', `transfer ${id} settled on ${walletId} without its reservation`, where);
    return;
  }
  if (track.status !== 'reserved') {
    report(run, 'settledTwice', `transfer ${id} ${event.type} after it was already ${track.status}`, where);
    return;
  }
  if (mlxFromWire(event.data.amountMlx) !== track.amountMlx || mlxFromWire(event.data.feeMlx) !== track.feeMlx) {
    report(run, 'amountMismatch', `transfer ${id} settled with amounts other than reserved`, where);
  }
  const internal = track.toWalletId !== undefined;
  if (event.type === 'TransferPosted') {
    track.status = 'posted';
    if (!internal) run.boundaryOutMlx += track.amountMlx;
    // One append may write the payer's post before the payee's credit; the next event decides.
    if (internal && track.creditedMlx === undefined) run.awaitingCredit = { transferId: id, where };
    return;
  }
  track.status = 'voided';
  if (track.creditedMlx !== undefined) report(run, 'voidedAfterCredit', `transfer ${id} voided after its payee was credited`, where);
}

function trackDeposit(run: AuditRun, event: Extract<WalletEvent, { type: `Deposit${string}` }>, where: Where): void {
  const { depositId } = event.data;
  const track = run.deposits.get(depositId);
  const w = { ...where, depositId };
  if (event.type === 'DepositReceived') {
    if (track) {
      report(run, 'duplicateDeposit', `deposit ${depositId} received more than once`, w);
      return;
    }
    const received: DepositTrack = {
      walletId: event.data.walletId,
      toAddress: event.data.toAddress,
      amountMlx: mlxFromWire(event.data.amountMlx),
      status: 'received',
    };
    run.deposits.set(depositId, received);
    offerDeposit(run, depositId, received, w);
    return;
  }
  if (!track) {
    report(run, 'depositUnknown', `deposit ${depositId} settled but never received`, w);
    return;
  }
  if (track.status !== 'received') {
    report(run, 'depositSettledTwice', `deposit ${depositId} settled after it was ${track.status}`, w);
    return;
  }
  track.status = event.type === 'DepositConfirmed' ? 'confirmed' : 'rejected';
  if (track.status === 'confirmed') run.boundaryInMlx += track.amountMlx;
  if (mlxFromWire(event.data.amountMlx) !== track.amountMlx)
    report(run, 'amountMismatch', `deposit ${depositId} settled with another amount`, w);
  offerDeposit(run, depositId, track, w);
}

/**
 * Every capability sees each deposit stage the ledger accepted (a duplicate or an unknown one is
 * the ledger's violation, not a stage), with the received address and amount: a capability paid
 * at addresses of a wallet checks its payments against them.
 */
function offerDeposit(run: AuditRun, depositId: string, track: DepositTrack, where: Where): void {
  const { walletId, toAddress, amountMlx, status: stage } = track;
  for (const capability of capabilitiesOf(run)) capability.addDeposit({ walletId, depositId, toAddress, amountMlx, stage }, where);
}

/**
 * What a closed wallet may not do (ADR 042): be closed with anything in it, take a transfer credit,
 * reserve or post a transfer. `state` is the wallet before the event.
 */
function checkClosed(run: AuditRun, event: WalletEvent, state: WalletState, where: Where): void {
  const walletId = event.data.walletId;
  if (event.type === 'WalletClosed') {
    if (!isWalletClosed(state) && !isWalletEmpty(state))
      report(
        run,
        'closedNotEmpty',
        `wallet ${walletId} closed with posted ${state.postedBalanceMlx}, holds ${state.pendingDebitsMlx}, pending credits ${state.pendingCreditsMlx}, ${state.openReservationCount} open reservation(s)`,
        where,
      );
    return;
  }
  if (!isWalletClosed(state)) return;
  if (event.type === 'TransferCredited') {
    const id = event.data.transferId;
    report(run, 'creditAfterClose', `transfer ${id} credited to ${walletId} after it was closed`, { ...where, transferId: id });
  }
  if (event.type === 'TransferReserved' || event.type === 'TransferPosted') {
    const id = event.data.transferId;
    report(run, 'transferAfterClose', `transfer ${id} ${event.type} on ${walletId} after it was closed`, { ...where, transferId: id });
  }
  if (event.type === 'DepositConfirmed') run.depositsConfirmedAfterClose += 1;
}

/** The global checks an event's type calls for, before the event is folded into its wallet. */
function track(run: AuditRun, event: WalletEvent, state: WalletState, where: Where): void {
  checkClosed(run, event, state, where);
  switch (event.type) {
    case 'WalletOpened':
      if (state.wallet) report(run, 'walletOpenedTwice', `wallet ${event.data.walletId} opened more than once`, where);
      return;
    case 'SupplyMinted':
      if (state.wallet?.kind !== 'genesis') report(run, 'mintOutsideGenesis', `supply minted on ${event.data.walletId}`, where);
      run.mintedMlx += mlxFromWire(event.data.amountMlx);
      if (run.mintedMlx > MLX_TOTAL_SUPPLY) report(run, 'supplyAboveTotal', `minted ${run.mintedMlx}, above the total supply`, where);
      return;
    case 'TransferReserved':
      trackReserved(run, event.data, { ...where, transferId: event.data.transferId });
      return;
    case 'TransferCredited':
      trackCredited(run, event.data, { ...where, transferId: event.data.transferId });
      return;
    case 'TransferPosted':
    case 'TransferVoided':
      trackSettled(run, event, { ...where, transferId: event.data.transferId });
      return;
    case 'DepositReceived':
    case 'DepositConfirmed':
    case 'DepositRejected':
      trackDeposit(run, event, where);
      return;
    case 'WalletClosed':
      // checkClosed above holds what a close must satisfy.
      return;
    default:
      assertNever(event);
  }
}

function checkBalances(run: AuditRun, state: WalletState, event: WalletEvent, where: Where): void {
  const walletId = event.data.walletId;
  if (state.postedBalanceMlx - state.pendingDebitsMlx < 0n || state.pendingCreditsMlx < 0n) {
    report(
      run,
      'negativeBalance',
      `wallet ${walletId}: posted ${state.postedBalanceMlx}, holds ${state.pendingDebitsMlx}, pending credits ${state.pendingCreditsMlx}`,
      where,
    );
  }
  // The network account's derived balance may go below zero (ADR 017); the boundary check holds it instead.
  const delta = derivedAccountDelta(event);
  run.feeAccruedMlx += delta.feeMlx;
  run.networkDerivedMlx += delta.networkMlx;
}

/**
 * The halves of a one-append settlement must be adjacent in the log: an internal post not followed
 * at once by its credit was posted without one, and a credit not followed at once by its
 * reservation had none. `next` is the wallet event about to be audited (none at the end of the log).
 */
function closeAwaited(run: AuditRun, next?: WalletEvent): void {
  const credit = run.awaitingCredit;
  if (credit && !(next?.type === 'TransferCredited' && next.data.transferId === credit.transferId)) {
    run.awaitingCredit = undefined;
    report(run, 'postedWithoutCredit', `internal transfer ${credit.transferId} posted before its credit`, credit.where);
  }
  const early = run.awaitingReservation;
  if (early && !(next?.type === 'TransferReserved' && next.data.transferId === early.data.transferId)) {
    run.awaitingReservation = undefined;
    report(run, 'creditWithoutReservation', `transfer ${early.data.transferId} credited but never reserved`, early.where);
  }
}

function auditRecord(run: AuditRun, record: LedgerRecord): void {
  run.eventCount += 1;
  const readers = capabilitiesOf(run).filter((capability) => capability.readsRecord(record));
  if (readers.length > 0) {
    const where: Where = { streamId: record.streamId };
    if (record.position !== undefined) where.position = record.position.toString(10);
    // An order's refunds share its checkout stream (ADR 033): both the checkout and the refund rule read it.
    for (const capability of readers) capability.addRecord(record, where);
    return;
  }
  if (!record.streamId.startsWith(WALLET_STREAM_PREFIX)) return;
  run.walletEventCount += 1;
  const where: Where = { streamId: record.streamId };
  if (record.position !== undefined) where.position = record.position.toString(10);
  const event = toWalletEvent(record);
  if (!event) {
    report(run, 'malformedEvent', `${record.type} on ${record.streamId} is not a well-formed wallet event`, where);
    return;
  }
  // The wallet reads a reference by its shape alone (ADR 074); the audit holds it to the kinds the
  // capabilities define, so a reference no capability owns is named as the broken event it is.
  const reference = 'reference' in event.data ? event.data.reference : undefined;
  if (reference !== undefined && toKnownTransferReference(reference) === undefined) {
    report(run, 'malformedEvent', `${record.type} on ${record.streamId} names a transfer reference of no known kind`, where);
    return;
  }
  const walletId = record.streamId.slice(WALLET_STREAM_PREFIX.length);
  if (event.data.walletId !== walletId) {
    report(run, 'streamMismatch', `${event.type} for ${event.data.walletId} appended to ${record.streamId}`, where);
    return;
  }
  closeAwaited(run, event);
  const state = run.states.get(walletId) ?? initialWalletState();
  if (event.type !== 'WalletOpened' && !state.wallet)
    report(run, 'eventBeforeOpen', `${event.type} on ${record.streamId} before WalletOpened`, where);
  track(run, event, state, where);
  const next = evolve(state, event, transferTermsBook);
  run.states.set(walletId, next);
  checkBalances(run, next, event, where);
}

function openTotals(run: AuditRun): { holdsMlx: bigint; inTransitMlx: bigint; depositsMlx: bigint } {
  let holdsMlx = 0n;
  let inTransitMlx = 0n;
  let depositsMlx = 0n;
  for (const t of run.transfers.values()) {
    if (t.status !== 'reserved') continue;
    holdsMlx += t.amountMlx + t.feeMlx;
    inTransitMlx += t.creditedMlx ?? 0n;
  }
  for (const d of run.deposits.values()) if (d.status === 'received') depositsMlx += d.amountMlx;
  return { holdsMlx, inTransitMlx, depositsMlx };
}

function boundaryFigures(run: AuditRun): LedgerAudit['boundary'] {
  const netMlx = run.boundaryInMlx - run.boundaryOutMlx;
  return { inMlx: run.boundaryInMlx, outMlx: run.boundaryOutMlx, netMlx, allocatedMlx: run.networkAllocatedMlx };
}

function count<T>(values: Iterable<T>, predicate: (value: T) => boolean): number {
  let n = 0;
  for (const value of values) if (predicate(value)) n += 1;
  return n;
}

/**
 * The end-of-log checks and figures. Pure with respect to the run: the conservation and pending
 * checks are added to a copy of the violations, so a summary can be taken after every event.
 */
function summarize(run: AuditRun): LedgerAudit {
  let postedTotalMlx = 0n;
  let pendingDebitsMlx = 0n;
  let pendingCreditsMlx = 0n;
  const closedWallets = { closed: 0, heldMlx: 0n, pendingMlx: 0n, depositsConfirmed: run.depositsConfirmedAfterClose };
  for (const state of run.states.values()) {
    postedTotalMlx += state.postedBalanceMlx;
    pendingDebitsMlx += state.pendingDebitsMlx;
    pendingCreditsMlx += state.pendingCreditsMlx;
    if (!isWalletClosed(state)) continue;
    closedWallets.closed += 1;
    closedWallets.heldMlx += state.postedBalanceMlx;
    closedWallets.pendingMlx += state.pendingCreditsMlx;
  }
  const open = openTotals(run);
  const ledgerTotalMlx = postedTotalMlx + run.feeAccruedMlx + run.networkDerivedMlx - open.inTransitMlx;
  const final: AuditRun = { ...run, violations: [...run.violations] };
  closeAwaited(final);
  const boundary = boundaryFigures(run);
  const expectedNetworkMlx = boundary.allocatedMlx - boundary.netMlx;
  if (networkBalance(run) !== expectedNetworkMlx)
    report(
      final,
      'networkBoundaryMismatch',
      `network account at ${networkBalance(run)}, but ${boundary.allocatedMlx} allocated − (${boundary.inMlx} in − ${boundary.outMlx} out) = ${expectedNetworkMlx}`,
    );
  if (ledgerTotalMlx !== run.mintedMlx) report(final, 'supplyMismatch', `balances sum to ${ledgerTotalMlx}, minted ${run.mintedMlx}`);
  if (pendingDebitsMlx !== open.holdsMlx)
    report(final, 'holdsMismatch', `wallet holds ${pendingDebitsMlx}, open reservations ${open.holdsMlx}`);
  const outcomes: LedgerOutcomes = { transferStatus: (transferId) => run.transfers.get(transferId)?.status };
  for (const capability of capabilitiesOf(run))
    capability.finalCheck((code, message, where) => report(final, code, message, where), outcomes);
  if (pendingCreditsMlx !== open.depositsMlx)
    report(final, 'pendingCreditsMismatch', `pending credits ${pendingCreditsMlx}, open deposits ${open.depositsMlx}`);
  const transfers = [...run.transfers.values()];
  const deposits = [...run.deposits.values()];
  return {
    ok: final.violationCount === 0,
    eventCount: run.eventCount,
    walletEventCount: run.walletEventCount,
    walletCount: count(run.states.values(), (state) => state.wallet !== undefined),
    mintedMlx: run.mintedMlx,
    postedTotalMlx,
    feeAccruedMlx: run.feeAccruedMlx,
    networkDerivedMlx: run.networkDerivedMlx,
    networkBalanceMlx: networkBalance(run),
    boundary,
    inTransitMlx: open.inTransitMlx,
    ledgerTotalMlx,
    pendingDebitsMlx,
    pendingCreditsMlx,
    transfers: {
      reserved: transfers.length,
      open: count(transfers, (t) => t.status === 'reserved'),
      credited: count(transfers, (t) => t.creditedMlx !== undefined),
      posted: count(transfers, (t) => t.status === 'posted'),
      voided: count(transfers, (t) => t.status === 'voided'),
    },
    deposits: {
      received: deposits.length,
      open: count(deposits, (d) => d.status === 'received'),
      confirmed: count(deposits, (d) => d.status === 'confirmed'),
      rejected: count(deposits, (d) => d.status === 'rejected'),
    },
    ...moneyFiguresOf(run.money),
    closedWallets,
    violations: final.violations,
    violationCount: final.violationCount,
  };
}

/**
 * An audit fed one event at a time, so the audit command can read the log in bounded pages
 * (EventStore.readAll with maxCount) and a test can take a summary after every step. Memory is
 * proportional to wallets, transfers and deposits, not to events.
 */
export interface LedgerAuditor {
  add(record: LedgerRecord): void;
  summary(): LedgerAudit;
  /** Each capability's figures as the audit command prints them, in the list's order. */
  describeCapabilities(mlx: MlxText): string[];
}

// Object.fromEntries cannot know that each name gets its own capability's auditor and figures;
// the two maps below build exactly that, so each result is typed as what it is.
function startMoneyAuditors(into: (code: LedgerViolationCode, message: string, where?: Where) => void): MoneyAuditors {
  return Object.fromEntries(moneyCapabilityNames.map((name) => [name, MONEY_CAPABILITIES[name].startAudit(into)])) as MoneyAuditors;
}

function moneyFiguresOf(auditors: MoneyAuditors): MoneyFigures {
  return Object.fromEntries(moneyCapabilityNames.map((name) => [name, auditors[name].figures()])) as MoneyFigures;
}

export function createLedgerAuditor(): LedgerAuditor {
  // The capabilities' rules report into the run's own list (the run is created just below).
  const into = (code: LedgerViolationCode, message: string, where?: Where) => report(run, code, message, where);
  const run: AuditRun = {
    money: startMoneyAuditors(into),
    states: new Map(),
    transfers: new Map(),
    deposits: new Map(),
    violations: [],
    violationCount: 0,
    eventCount: 0,
    walletEventCount: 0,
    mintedMlx: 0n,
    feeAccruedMlx: 0n,
    networkDerivedMlx: 0n,
    boundaryInMlx: 0n,
    boundaryOutMlx: 0n,
    networkAllocatedMlx: 0n,
    awaitingCredit: undefined,
    awaitingReservation: undefined,
    depositsConfirmedAfterClose: 0,
  };
  return {
    add: (record) => auditRecord(run, record),
    summary: () => summarize(run),
    describeCapabilities: (mlx) => capabilitiesOf(run).flatMap((capability) => capability.describe(mlx)),
  };
}

/** Audits a whole log, in log order. Events of other streams are counted and skipped. */
export function auditLedger(records: Iterable<LedgerRecord>): LedgerAudit {
  const auditor = createLedgerAuditor();
  for (const record of records) auditor.add(record);
  return auditor.summary();
}
