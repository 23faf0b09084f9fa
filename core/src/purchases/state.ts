/**
 * Folds a purchase stream into the state its decisions need. As for wallets, evolve records facts
 * and does not judge them (a recorded event already happened): an event a correct decider would
 * not have produced is applied as literally as its data allows, and the audit reports it.
 */
import { assertNever } from '../shared/assert.js';
import type { PurchaseEvent, PurchaseReturnKind } from './events.js';

export interface PurchaseOrder {
  orderId: string;
  buyerUserId: string;
  usdCents: bigint;
  usdPerMlx: string;
  mlx: bigint;
  orderedAt: string;
}

/** A refund or reversal as recorded: what was paid back and the MLX that actually moved back. */
export interface PurchaseReturn {
  kind: PurchaseReturnKind;
  id: string;
  usdCents: bigint;
  mlxReturned: bigint;
  transferId?: string;
}

export type CaptureStatus = 'none' | 'requested' | 'failed' | 'completed';

export interface PurchaseState {
  /** Undefined until PurchaseOrdered. */
  order: PurchaseOrder | undefined;
  /** Where capturing stands: approvals ask for it, the provider answers completed or failed. */
  captureStatus: CaptureStatus;
  /** Every approval recorded (PurchaseCaptureRequested), so a repeated approval appends nothing. */
  captureRequestIds: Set<string>;
  /**
   * The latest approval no capture result answered yet: what the capture job (and the sweep)
   * captures, and which request a result without its own `requestId` (a webhook) answers.
   */
  openCaptureRequest: { requestId: string; requestedAt: string } | undefined;
  lastFailure: { issue: string; description: string } | undefined;
  /** How many captures failed (PurchaseCaptureFailed): each approval round after one has its own request id. */
  captureFailures: number;
  capture: { captureId: string; usdCents: bigint; capturedAt: string } | undefined;
  credit: { captureId: string; transferId: string; mlx: bigint; creditedAt: string } | undefined;
  /** The receipt e-mail, once sent (PurchaseReceiptSent). */
  receipt: { messageId: string; sentAt: string } | undefined;
  /** Refunds and reversals by `<kind>:<id>`. */
  returns: Map<string, PurchaseReturn>;
  returnedUsdCents: bigint;
  returnedMlx: bigint;
  /** MLX a reversal could not take back (PurchaseReserveLoss): the reserve's loss on this order. */
  reserveLossMlx: bigint;
  eventCount: number;
}

export const returnKey = (kind: PurchaseReturnKind, id: string): string => `${kind}:${id}`;

export function initialPurchaseState(): PurchaseState {
  return {
    order: undefined,
    captureStatus: 'none',
    captureRequestIds: new Set(),
    openCaptureRequest: undefined,
    lastFailure: undefined,
    captureFailures: 0,
    capture: undefined,
    credit: undefined,
    receipt: undefined,
    returns: new Map(),
    returnedUsdCents: 0n,
    returnedMlx: 0n,
    reserveLossMlx: 0n,
    eventCount: 0,
  };
}

function recordReturn(state: PurchaseState, entry: PurchaseReturn): PurchaseState {
  const key = returnKey(entry.kind, entry.id);
  if (state.returns.has(key)) return state;
  const returns = new Map(state.returns).set(key, entry);
  return {
    ...state,
    returns,
    returnedUsdCents: state.returnedUsdCents + entry.usdCents,
    returnedMlx: state.returnedMlx + entry.mlxReturned,
  };
}

function apply(state: PurchaseState, event: PurchaseEvent): PurchaseState {
  switch (event.type) {
    case 'PurchaseOrdered': {
      if (state.order) return state;
      const d = event.data;
      const order = {
        orderId: d.orderId,
        buyerUserId: d.buyerUserId,
        usdCents: BigInt(d.usdCents),
        usdPerMlx: d.usdPerMlx,
        mlx: BigInt(d.mlx),
        orderedAt: d.orderedAt,
      };
      return { ...state, order };
    }
    case 'PurchaseCaptureRequested': {
      const { requestId, requestedAt } = event.data;
      const captureRequestIds = new Set(state.captureRequestIds).add(requestId);
      if (state.captureStatus === 'completed') return { ...state, captureRequestIds };
      return { ...state, captureRequestIds, captureStatus: 'requested', openCaptureRequest: { requestId, requestedAt } };
    }
    case 'PurchaseCaptured': {
      if (state.capture) return state;
      const { captureId, usdCents, capturedAt } = event.data;
      return {
        ...state,
        captureStatus: 'completed',
        openCaptureRequest: undefined,
        capture: { captureId, usdCents: BigInt(usdCents), capturedAt },
      };
    }
    case 'PurchaseCaptureFailed':
      if (state.captureStatus === 'completed') return state;
      return {
        ...state,
        captureStatus: 'failed',
        openCaptureRequest: undefined,
        captureFailures: state.captureFailures + 1,
        lastFailure: { issue: event.data.issue, description: event.data.description },
      };
    case 'PurchaseCredited': {
      if (state.credit) return state;
      const { captureId, transferId, mlx, creditedAt } = event.data;
      return { ...state, credit: { captureId, transferId, mlx: BigInt(mlx), creditedAt } };
    }
    case 'PurchaseReserveLoss':
      return { ...state, reserveLossMlx: state.reserveLossMlx + BigInt(event.data.mlxLost) };
    case 'PurchaseReceiptSent':
      if (state.receipt) return state;
      return { ...state, receipt: { messageId: event.data.messageId, sentAt: event.data.sentAt } };
    case 'PurchaseRefunded':
    case 'PurchaseReversed': {
      const d = event.data;
      const entry: PurchaseReturn =
        event.type === 'PurchaseRefunded'
          ? { kind: 'refund', id: event.data.refundId, usdCents: BigInt(d.usdCents), mlxReturned: BigInt(d.mlxReturned) }
          : { kind: 'reversal', id: event.data.reversalId, usdCents: BigInt(d.usdCents), mlxReturned: BigInt(d.mlxReturned) };
      if (d.transferId !== undefined) entry.transferId = d.transferId;
      return recordReturn(state, entry);
    }
    default:
      return assertNever(event);
  }
}

export function evolvePurchase(state: PurchaseState, event: PurchaseEvent): PurchaseState {
  return { ...apply(state, event), eventCount: state.eventCount + 1 };
}

export function foldPurchase(events: Iterable<PurchaseEvent>): PurchaseState {
  let state = initialPurchaseState();
  for (const event of events) state = evolvePurchase(state, event);
  return state;
}

/** What the buyer's purchase list shows. */
export type PurchaseStatus = 'ordered' | 'approved' | 'declined' | 'captured' | 'credited' | 'partiallyRefunded' | 'refunded' | 'reversed';

export function purchaseStatusOf(state: PurchaseState): PurchaseStatus {
  const { capture } = state;
  if (capture && state.returns.size > 0) {
    if ([...state.returns.values()].some((r) => r.kind === 'reversal')) return 'reversed';
    return state.returnedUsdCents >= capture.usdCents ? 'refunded' : 'partiallyRefunded';
  }
  if (state.credit) return 'credited';
  if (capture) return 'captured';
  if (state.captureStatus === 'failed') return 'declined';
  if (state.captureStatus === 'requested') return 'approved';
  return 'ordered';
}

/**
 * How long PayPal lets an approved order be captured (its approval window): 3 days. Past it an
 * order that was never captured will not be, so the sweep stops asking PayPal about it.
 */
export const PAYPAL_APPROVAL_WINDOW_MS = 3 * 24 * 3_600_000;

/**
 * The capture request id for the buyer's current approval round: the same until a capture fails
 * (so a double click or a retried request records one approval and PayPal captures once, keyed by
 * PayPal-Request-Id), a new one after each failure (a declined card, approved again, is captured
 * again under a new id, since PayPal may answer a reused id with the first failure).
 */
export function captureRequestIdFor(orderId: string, state: Pick<PurchaseState, 'captureFailures'>): string {
  const suffix = `-c${state.captureFailures + 1}`;
  return `${orderId.slice(0, 64 - suffix.length)}${suffix}`;
}
