/**
 * Pure purchase decisions: given a purchase stream's state, a command and the time, which events
 * happen, or which domain error. No I/O. As for wallets, a command already applied decides no
 * events (a repeated approval, capture result, refund), and the same id with other details is a
 * CONFLICT.
 *
 * The credit and the refunds also move MLX, so they are decided in two parts that the handler
 * appends in one atomic call (ADR 025): `planPurchaseCredit` / `planPurchaseReturn` decide on the
 * purchase state what may move and how much; the wallet's `decideTransfer` decides the transfer
 * on the wallets; the purchase event records both.
 */
import { assertNever } from '../shared/assert.js';
import type { ReserveTransfer } from '../wallet/commands.js';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import type { PurchaseTransferReference } from './transfer-reference.js';
import { type ExchangeRate, mlxToWire } from '../wallet/money.js';
import { PURCHASE_ID_PATTERN, type PurchaseEvent, type PurchaseReturnKind } from './events.js';
import { pricePurchase } from './pricing.js';
import { priceRefused, purchaseRefused } from './refusals.js';
import { captureRequestIdFor, type PurchaseReturn, type PurchaseState, returnKey } from './state.js';

export interface OrderPurchase {
  type: 'OrderPurchase';
  /** The handler reads the rate and the reserve's available MLX; the price is decided here. */
  data: { orderId: string; buyerUserId: string; usdCents: bigint; rate: ExchangeRate; reserveAvailableMlx: bigint };
}

/** The buyer approved the payment; `buyerUserId` (when the buyer's request) must be the order's. */
export interface RequestCapture {
  type: 'RequestCapture';
  data: { orderId: string; requestId: string; buyerUserId?: string };
}

export type CaptureResult =
  | { status: 'completed'; captureId: string; usdCents: bigint }
  | { status: 'failed'; issue: string; description: string };

/**
 * What the provider answered. `requestId` is the approval the answer is for (the capture job
 * knows it); without it (a webhook) the answer is for the open approval, if any.
 */
export interface RecordCaptureResult {
  type: 'RecordCaptureResult';
  /** `captureClaimedBy`: the order the log recorded a completed capture's id for (the handler reads its claim), if any. */
  data: { orderId: string; result: CaptureResult; requestId?: string; captureClaimedBy?: string | undefined };
}

/** The receipt e-mail went out (the mail job, after the credit). */
export interface RecordReceiptSent {
  type: 'RecordReceiptSent';
  data: { orderId: string; messageId: string };
}

export type PurchaseCommand = OrderPurchase | RequestCapture | RecordCaptureResult | RecordReceiptSent;

export interface PurchaseDecision {
  events: PurchaseEvent[];
}

const fail = purchaseRefused;
const invalidRequest = () => fail('invalidRequest');

function requireId(value: unknown): string {
  if (typeof value !== 'string' || !PURCHASE_ID_PATTERN.test(value)) throw invalidRequest();
  return value;
}

function timestamp(now: Date): string {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new TypeError('decidePurchase: now must be a valid Date');
  return now.toISOString();
}

/** The order, seen by `buyerUserId` when given: someone else's order is FORBIDDEN, a missing one NOT_FOUND. */
export function ownOrder(state: PurchaseState, buyerUserId?: string) {
  if (!state.order) throw fail('notFound');
  if (buyerUserId !== undefined && state.order.buyerUserId !== buyerUserId) throw fail('forbidden');
  return state.order;
}

function decideOrder(state: PurchaseState, data: OrderPurchase['data'], at: string): PurchaseDecision {
  const orderId = requireId(data.orderId);
  if (typeof data.buyerUserId !== 'string' || data.buyerUserId.length === 0) throw invalidRequest();
  if (typeof data.usdCents !== 'bigint') throw invalidRequest();
  if (state.order) {
    // A retry of the same order is answered; the same provider order for another buyer or amount is not.
    if (state.order.buyerUserId === data.buyerUserId && state.order.usdCents === data.usdCents) return { events: [] };
    throw fail('idempotencyConflict');
  }
  const price = pricePurchase({ usdCents: data.usdCents, rate: data.rate, reserveAvailableMlx: data.reserveAvailableMlx });
  if (!price.ok) throw priceRefused(price.messageKey, 'amount');
  const ordered: PurchaseEvent = {
    type: 'PurchaseOrdered',
    data: {
      orderId,
      buyerUserId: data.buyerUserId,
      usdCents: mlxToWire(data.usdCents),
      usdPerMlx: data.rate.usdPerMlx,
      mlx: mlxToWire(price.mlx),
      provider: 'paypal',
      orderedAt: at,
    },
  };
  return { events: [ordered] };
}

function decideRequestCapture(state: PurchaseState, data: RequestCapture['data'], at: string): PurchaseDecision {
  const order = ownOrder(state, data.buyerUserId);
  const requestId = requireId(data.requestId);
  if (state.captureRequestIds.has(requestId)) return { events: [] };
  // Paid already: approving again captures nothing more.
  if (state.captureStatus === 'completed') return { events: [] };
  return { events: [{ type: 'PurchaseCaptureRequested', data: { orderId: order.orderId, requestId, requestedAt: at } }] };
}

function decideCaptureResult(state: PurchaseState, data: RecordCaptureResult['data'], at: string): PurchaseDecision {
  const order = ownOrder(state);
  const result = data.result;
  const given = data.requestId === undefined ? undefined : requireId(data.requestId);
  // A result answers an approval the log recorded: the one named, or else the open one.
  if (given !== undefined && !state.captureRequestIds.has(given)) throw fail('notApproved');
  const requestId = given ?? state.openCaptureRequest?.requestId;
  const answering = requestId === undefined ? {} : { requestId };
  if (result.status === 'completed') {
    const captureId = requireId(result.captureId);
    if (typeof result.usdCents !== 'bigint' || result.usdCents < 0n) throw invalidRequest();
    if (state.capture) {
      if (state.capture.captureId === captureId && state.capture.usdCents === result.usdCents) return { events: [] };
      throw fail('alreadyCaptured');
    }
    // A capture the log never asked for is not this order's (the capture job runs from the request).
    if (state.captureRequestIds.size === 0) throw fail('notApproved');
    // A capture id is one order's only: another order recorded this one first.
    if (data.captureClaimedBy !== undefined && data.captureClaimedBy !== order.orderId) throw fail('captureMismatch');
    // Recorded even when the provider took another amount, or answered an older approval: the money was taken, and the credit refuses another amount.
    const captured: PurchaseEvent = {
      type: 'PurchaseCaptured',
      data: { orderId: order.orderId, captureId, usdCents: mlxToWire(result.usdCents), capturedAt: at, ...answering },
    };
    return { events: [captured] };
  }
  if (typeof result.issue !== 'string' || result.issue.length === 0 || result.issue.length > 200) throw invalidRequest();
  if (typeof result.description !== 'string') throw invalidRequest();
  if (state.captureStatus === 'completed') throw fail('alreadyCaptured');
  // A failure is an answer to the open request; a second report of it, or a late report for an
  // older approval (a re-run of its job), appends nothing: it must not fail the buyer's new round.
  if (state.captureStatus !== 'requested') return { events: [] };
  if (given !== undefined && given !== state.openCaptureRequest?.requestId) return { events: [] };
  const failed: PurchaseEvent = {
    type: 'PurchaseCaptureFailed',
    data: { orderId: order.orderId, issue: result.issue, description: result.description.slice(0, 2000), failedAt: at, ...answering },
  };
  return { events: [failed] };
}

function decideReceiptSent(state: PurchaseState, data: RecordReceiptSent['data'], at: string): PurchaseDecision {
  const order = ownOrder(state);
  if (typeof data.messageId !== 'string' || data.messageId.length === 0 || data.messageId.length > 300) throw invalidRequest();
  if (!state.credit) throw fail('notCredited');
  // Once per order: a second run of the mail job (or a concurrent one) records nothing more.
  if (state.receipt) return { events: [] };
  return { events: [{ type: 'PurchaseReceiptSent', data: { orderId: order.orderId, messageId: data.messageId, sentAt: at } }] };
}

/** Decides an order, an approval, a capture result or a sent receipt on the purchase's state. */
export function decidePurchase(state: PurchaseState, command: PurchaseCommand, now: Date): PurchaseDecision {
  const at = timestamp(now);
  switch (command.type) {
    case 'OrderPurchase':
      return decideOrder(state, command.data, at);
    case 'RequestCapture':
      return decideRequestCapture(state, command.data, at);
    case 'RecordCaptureResult':
      return decideCaptureResult(state, command.data, at);
    case 'RecordReceiptSent':
      return decideReceiptSent(state, command.data, at);
    default:
      return assertNever(command);
  }
}

/**
 * The approval a capture the provider reports needs first, when the log has none: PayPal says the
 * buyer approved (a webhook, or the sweep reading PayPal's order) though the browser went away
 * before asking. Undefined when an approval is recorded.
 */
export function providerApprovalFirst(state: PurchaseState): string | undefined {
  const order = state.order;
  return order && state.captureRequestIds.size === 0 ? captureRequestIdFor(order.orderId, state) : undefined;
}

/** What the capture job does with the approval `requestId` names. */
export type CaptureJobStanding = 'unknownApproval' | 'alreadyCaptured' | 'alreadyAnswered' | 'capture';

export function captureJobStanding(state: PurchaseState, requestId: string): CaptureJobStanding {
  // The job comes from this approval in this stream; if it is not there, no retry will find it.
  if (!state.order || !state.captureRequestIds.has(requestId)) return 'unknownApproval';
  if (state.capture) return 'alreadyCaptured';
  if (state.openCaptureRequest?.requestId !== requestId) return 'alreadyAnswered';
  return 'capture';
}

/** Where a capture stands for the buyer waiting on it: answered since `failuresBefore` failures, or not yet. */
export type CaptureAnswer =
  | { status: 'completed'; captureId: string }
  | { status: 'declined'; failure: { issue: string; description: string } | undefined };

export function captureAnswer(state: PurchaseState, failuresBefore: number): CaptureAnswer | undefined {
  if (state.capture) return { status: 'completed', captureId: state.capture.captureId };
  if (state.captureStatus === 'failed' && state.captureFailures > failuresBefore) return { status: 'declined', failure: state.lastFailure };
  return undefined;
}

/**
 * Whether a captured order may be credited now, and if not why: not captured, credited already,
 * money returned before the credit, or captured for another amount than ordered (never credited, ADR 025).
 */
export type CreditStanding = 'notCaptured' | 'credited' | 'refunded' | 'capturedAmountMismatch' | 'due';

export function creditStanding(state: PurchaseState): CreditStanding {
  const { order, capture } = state;
  if (!order || !capture) return 'notCaptured';
  if (state.credit) return 'credited';
  if (state.returns.size > 0) return 'refunded';
  if (capture.usdCents !== order.usdCents) return 'capturedAmountMismatch';
  return 'due';
}

/** What the credit endpoint was asked: the client's amount and buyer are checked, never used. */
export interface CreditRequest {
  captureId?: string;
  /** The buyer asking (the API's session); absent for the worker, which credits what the log says. */
  buyerUserId?: string;
  /** The MLX the client expects; must equal the order's. */
  mlx?: bigint;
}

export interface PurchaseCreditPlan {
  orderId: string;
  captureId: string;
  buyerUserId: string;
  mlx: bigint;
  transferId: string;
  idempotencyKey: string;
}

export type CreditPlanOutcome =
  | { kind: 'credit'; plan: PurchaseCreditPlan }
  | { kind: 'alreadyCredited'; credit: NonNullable<PurchaseState['credit']>; buyerUserId: string; orderId: string };

/** One transfer per capture, with an id and key derived from it, so a repeat is recognised everywhere. */
export const purchaseTransferId = (captureId: string): string => `purchase-${captureId}`;
export const purchaseIdempotencyKey = (captureId: string): string => `purchase:${captureId}`;
export const returnTransferId = (kind: PurchaseReturnKind, id: string): string => `purchase-${kind}-${id}`;
export const returnIdempotencyKey = (kind: PurchaseReturnKind, id: string): string => `purchase-${kind}:${id}`;

/**
 * Whether the reserve may credit this order now, and with what. Refusals, in the order a buyer
 * should meet them: no such order, someone else's, another capture, not captured, another
 * amount (asked, or captured), refunded before the credit. An order credited already is
 * reported as such; the handler decides whether that is an answer or a refusal.
 */
export function planPurchaseCredit(state: PurchaseState, request: CreditRequest): CreditPlanOutcome {
  const order = ownOrder(state, request.buyerUserId);
  const capture = state.capture;
  if (request.captureId !== undefined && capture?.captureId !== request.captureId) throw fail('notFound');
  if (!capture) throw fail('notCaptured');
  if (request.mlx !== undefined && request.mlx !== order.mlx)
    throw fail('requestedAmountMismatch', { amount: 'errors:purchaseAmountMismatch' });
  if (state.credit) return { kind: 'alreadyCredited', credit: state.credit, buyerUserId: order.buyerUserId, orderId: order.orderId };
  if (capture.usdCents !== order.usdCents) throw fail('capturedAmountMismatch');
  // Money already returned before the MLX moved: crediting now would sell what was refunded.
  if (state.returns.size > 0) throw fail('refunded');
  return {
    kind: 'credit',
    plan: {
      orderId: order.orderId,
      captureId: capture.captureId,
      buyerUserId: order.buyerUserId,
      mlx: order.mlx,
      transferId: purchaseTransferId(capture.captureId),
      idempotencyKey: purchaseIdempotencyKey(capture.captureId),
    },
  };
}

/** The reserve's transfer to the buyer's wallet (whose id is the buyer's user id) for a credit plan. */
export function purchaseCreditTransfer(plan: PurchaseCreditPlan, buyerAddress: string, holdUntil?: string): ReserveTransfer {
  const reference: PurchaseTransferReference = { kind: 'purchase', orderId: plan.orderId, captureId: plan.captureId };
  const transfer: ReserveTransfer = {
    type: 'ReserveTransfer',
    data: {
      transferId: plan.transferId,
      idempotencyKey: plan.idempotencyKey,
      toAddress: buyerAddress,
      toWalletId: plan.buyerUserId,
      amountMlx: plan.mlx,
      feeMlx: 0n,
      reference,
    },
  };
  if (holdUntil !== undefined) transfer.data.holdUntil = holdUntil;
  return transfer;
}

/** How long bought MLX stays held by default (PURCHASE_HOLD_HOURS, ADR 047). */
export const PURCHASE_HOLD_HOURS_DEFAULT = 72;

/** When a credit made at `now` stops being held; none when there is no hold. */
export function purchaseHoldUntil(now: Date, holdMs: number): string | undefined {
  return holdMs > 0 ? new Date(now.getTime() + holdMs).toISOString() : undefined;
}

export function purchaseCreditedEvent(plan: PurchaseCreditPlan, transferId: string, now: Date): PurchaseEvent {
  return {
    type: 'PurchaseCredited',
    data: { orderId: plan.orderId, captureId: plan.captureId, transferId, mlx: mlxToWire(plan.mlx), creditedAt: timestamp(now) },
  };
}

/** A refund or reversal the provider reported (webhook PAYMENT.CAPTURE.REFUNDED / .REVERSED). */
export interface ReturnRequest {
  kind: PurchaseReturnKind;
  captureId: string;
  /** The refund's or the reversal's id. */
  id: string;
  usdCents: bigint;
}

export interface PurchaseReturnPlan {
  kind: PurchaseReturnKind;
  orderId: string;
  captureId: string;
  id: string;
  buyerUserId: string;
  usdCents: bigint;
  /** What moves back now: the proportional MLX, as far as the buyer's available balance allows. */
  mlxReturned: bigint;
  /** What this return owed back (mlxReturned is at most this); a reversal records the difference as the reserve's loss. */
  mlxOwed: bigint;
  transferId: string;
  idempotencyKey: string;
}

export type ReturnPlanOutcome = { kind: 'return'; plan: PurchaseReturnPlan } | { kind: 'alreadyRecorded'; recorded: PurchaseReturn };

const ceilDiv = (numerator: bigint, denominator: bigint): bigint => (numerator + denominator - 1n) / denominator;
const minOf = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const maxOf = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/**
 * How much MLX a refund or reversal takes back. The MLX owed back is counted over all the
 * order's returns: credited × (USD returned so far, this one included) ÷ USD captured, rounded
 * UP, so the buyer never keeps MLX for money that was given back; minus what earlier returns
 * already moved (so an earlier return cut short by the buyer's balance is made up when it can be).
 * It is bounded by the buyer's available balance (MLX already spent cannot be taken back) and is
 * 0 when nothing was credited yet (the credit is then refused).
 */
export function planPurchaseReturn(state: PurchaseState, request: ReturnRequest, buyerAvailableMlx: bigint): ReturnPlanOutcome {
  const order = ownOrder(state);
  const id = requireId(request.id);
  const captureId = requireId(request.captureId);
  if (typeof request.usdCents !== 'bigint' || request.usdCents <= 0n) throw invalidRequest();
  const existing = state.returns.get(returnKey(request.kind, id));
  if (existing) {
    // A reversal is recorded bounded (below), so its report is matched by id alone.
    if (request.kind === 'reversal' || existing.usdCents === request.usdCents) return { kind: 'alreadyRecorded', recorded: existing };
    throw fail('idempotencyConflict');
  }
  const capture = state.capture;
  if (!capture) throw fail('notCaptured');
  if (capture.captureId !== captureId) throw fail('captureMismatch');
  // A chargeback takes back what the buyer still holds of the payment: after a partial refund the
  // provider may report the capture's whole amount, which would overstate it.
  const usdCents =
    request.kind === 'reversal' ? minOf(request.usdCents, maxOf(0n, capture.usdCents - state.returnedUsdCents)) : request.usdCents;
  const returnedUsdCents = state.returnedUsdCents + usdCents;
  if (returnedUsdCents > capture.usdCents) throw fail('refundExceedsCapture');
  const creditedMlx = state.credit?.mlx ?? 0n;
  const owedMlx = capture.usdCents === 0n ? creditedMlx : minOf(creditedMlx, ceilDiv(creditedMlx * returnedUsdCents, capture.usdCents));
  // MLX a chargeback already wrote off as the reserve's loss is not chased again (ADR 047).
  const wantedMlx = owedMlx - state.returnedMlx - state.reserveLossMlx;
  const available = buyerAvailableMlx > 0n ? buyerAvailableMlx : 0n;
  const mlxReturned = wantedMlx > 0n ? minOf(wantedMlx, available) : 0n;
  return {
    kind: 'return',
    plan: {
      kind: request.kind,
      orderId: order.orderId,
      captureId,
      id,
      buyerUserId: order.buyerUserId,
      usdCents,
      mlxReturned,
      mlxOwed: wantedMlx > 0n ? wantedMlx : 0n,
      transferId: returnTransferId(request.kind, id),
      idempotencyKey: returnIdempotencyKey(request.kind, id),
    },
  };
}

/** The buyer's transfer back to the reserve; only when plan.mlxReturned > 0. */
export function purchaseReturnTransfer(plan: PurchaseReturnPlan, reserveAddress: string): ReserveTransfer {
  const reference: PurchaseTransferReference = {
    kind: plan.kind === 'refund' ? 'purchaseRefund' : 'purchaseReversal',
    orderId: plan.orderId,
    captureId: plan.captureId,
    refundId: plan.id,
  };
  return {
    type: 'ReserveTransfer',
    data: {
      transferId: plan.transferId,
      idempotencyKey: plan.idempotencyKey,
      toAddress: reserveAddress,
      toWalletId: SYSTEM_WALLET_IDS.reserve,
      amountMlx: plan.mlxReturned,
      feeMlx: 0n,
      reference,
    },
  };
}

/**
 * The reserve's loss when a reversal takes back less than it owed (the buyer had sent or spent
 * the MLX); none for refunds (the merchant chose to give the money back) or when nothing is short.
 */
export function purchaseReserveLossEvent(plan: PurchaseReturnPlan, now: Date): PurchaseEvent | undefined {
  if (plan.kind !== 'reversal' || plan.mlxOwed <= plan.mlxReturned) return undefined;
  return {
    type: 'PurchaseReserveLoss',
    data: {
      orderId: plan.orderId,
      captureId: plan.captureId,
      reversalId: plan.id,
      mlxOwed: mlxToWire(plan.mlxOwed),
      mlxReturned: mlxToWire(plan.mlxReturned),
      mlxLost: mlxToWire(plan.mlxOwed - plan.mlxReturned),
      recordedAt: timestamp(now),
    },
  };
}

/** PurchaseRefunded or PurchaseReversed; names the transfer only when MLX moved. */
export function purchaseReturnEvent(plan: PurchaseReturnPlan, now: Date): PurchaseEvent {
  const base = {
    orderId: plan.orderId,
    captureId: plan.captureId,
    usdCents: mlxToWire(plan.usdCents),
    mlxReturned: mlxToWire(plan.mlxReturned),
  };
  const transfer = plan.mlxReturned > 0n ? { transferId: plan.transferId } : {};
  const at = timestamp(now);
  return plan.kind === 'refund'
    ? { type: 'PurchaseRefunded', data: { ...base, refundId: plan.id, ...transfer, refundedAt: at } }
    : { type: 'PurchaseReversed', data: { ...base, reversalId: plan.id, ...transfer, reversedAt: at } };
}
