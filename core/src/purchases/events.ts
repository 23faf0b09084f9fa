/**
 * Purchase events: one stream per order, `purchase-<orderId>`, where orderId is the payment
 * provider's order id (PayPal's), so a webhook or the buyer's browser names the stream directly.
 * Amounts are decimal strings as in the wallet events (JSON has no bigint): `usdCents` in cents,
 * `mlx` in whole MLX, `usdPerMlx` the rate's canonical text. The design is in
 * docs/decisions/025-purchases.md.
 *
 * The order's price is fixed when it is recorded (PurchaseOrdered: the USD amount, the rate and
 * the MLX); nothing the client sends later changes it. MLX moves only in the atomic append that
 * records PurchaseCredited (with the reserve's and the buyer's transfer events), and back only in
 * the one that records PurchaseRefunded or PurchaseReversed.
 */
import { z } from 'zod';

export const PURCHASE_STREAM_PREFIX = 'purchase-';
export const purchaseStream = (orderId: string): string => `${PURCHASE_STREAM_PREFIX}${orderId}`;
/**
 * One stream per capture id (outside the `purchase-` prefix), created with PurchaseCaptured (expected revision "no stream"): a
 * capture id is recorded for one order only, ever, and the credit endpoint can find the order
 * from the capture id alone.
 */
export const purchaseCaptureStream = (captureId: string): string => `capture-claim-${captureId}`;
export const PURCHASE_CAPTURE_CLAIMED_EVENT = 'PurchaseCaptureClaimed';

/** Provider ids (orders, captures, refunds, requests): bounded and safe in stream names. */
export const PURCHASE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export type PurchaseProvider = 'paypal';
/** How MLX left the buyer again: a refund the merchant made, or a reversal (chargeback) by the payer's bank. */
export type PurchaseReturnKind = 'refund' | 'reversal';

export interface PurchaseOrdered {
  type: 'PurchaseOrdered';
  data: {
    orderId: string;
    buyerUserId: string;
    usdCents: string;
    usdPerMlx: string;
    mlx: string;
    provider: PurchaseProvider;
    orderedAt: string;
  };
}

/** The buyer approved the payment; a worker captures it (the log is the outbox, ADR 003). */
export interface PurchaseCaptureRequested {
  type: 'PurchaseCaptureRequested';
  data: { orderId: string; requestId: string; requestedAt: string };
}

/**
 * The provider reported the capture COMPLETED: the money is taken; the credit follows.
 * `requestId` names the PurchaseCaptureRequested it answers (the capture job's completion, ADR
 * 026); events recorded before it existed have none.
 */
export interface PurchaseCaptured {
  type: 'PurchaseCaptured';
  data: { orderId: string; captureId: string; usdCents: string; capturedAt: string; requestId?: string };
}

/** The capture was refused (e.g. INSTRUMENT_DECLINED); the buyer may approve again and it is captured again. `requestId` as in PurchaseCaptured. */
export interface PurchaseCaptureFailed {
  type: 'PurchaseCaptureFailed';
  data: { orderId: string; issue: string; description: string; failedAt: string; requestId?: string };
}

/** The MLX moved from the reserve to the buyer, in the same append as transfer `transferId`. */
export interface PurchaseCredited {
  type: 'PurchaseCredited';
  data: { orderId: string; captureId: string; transferId: string; mlx: string; creditedAt: string };
}

/**
 * Money went back to the buyer; `mlxReturned` MLX moved buyer → reserve in the same append as
 * transfer `transferId` (absent when nothing could move: the buyer had spent it, or it was never credited).
 */
export interface PurchaseRefunded {
  type: 'PurchaseRefunded';
  data: {
    orderId: string;
    captureId: string;
    refundId: string;
    usdCents: string;
    mlxReturned: string;
    transferId?: string;
    refundedAt: string;
  };
}

/** As PurchaseRefunded, for a reversal (chargeback) of the capture. */
export interface PurchaseReversed {
  type: 'PurchaseReversed';
  data: {
    orderId: string;
    captureId: string;
    reversalId: string;
    usdCents: string;
    mlxReturned: string;
    transferId?: string;
    reversedAt: string;
  };
}

/**
 * A reversal (chargeback) could not take back all the MLX the order still owed: the buyer had
 * already sent or spent it. The reserve was paid nothing for `mlxLost` MLX it sold; recorded in
 * the same append as its PurchaseReversed, so the audit can account for every credited MLX
 * (taken back or lost) and `npm run audit` lists the reserve's losses (ADR 047). Moves no MLX.
 */
export interface PurchaseReserveLoss {
  type: 'PurchaseReserveLoss';
  data: {
    orderId: string;
    captureId: string;
    reversalId: string;
    /** What the reversal owed back, what it took back (its PurchaseReversed's mlxReturned), and the difference. */
    mlxOwed: string;
    mlxReturned: string;
    mlxLost: string;
    recordedAt: string;
  };
}

/** The buyer's receipt e-mail went out (once per order; the mail job's completion). Moves no money. */
export interface PurchaseReceiptSent {
  type: 'PurchaseReceiptSent';
  data: { orderId: string; messageId: string; sentAt: string };
}

export type PurchaseEvent =
  | PurchaseOrdered
  | PurchaseCaptureRequested
  | PurchaseCaptured
  | PurchaseCaptureFailed
  | PurchaseCredited
  | PurchaseRefunded
  | PurchaseReversed
  | PurchaseReserveLoss
  | PurchaseReceiptSent;
export type PurchaseEventType = PurchaseEvent['type'];

// Tolerant readers, as for wallet events: unknown fields are dropped, malformed events refused.
const amount = z.string().regex(/^(0|[1-9][0-9]{0,19})$/);
const rate = z.string().regex(/^(0|[1-9][0-9]{0,8})(\.[0-9]{0,17}[1-9])?$/);
const id = z.string().regex(PURCHASE_ID_PATTERN);
const transferId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);
const time = z.string().min(1).max(40);
const text = z.string().min(1).max(200);
const longText = z.string().max(2000);

const dataSchemas: { [K in PurchaseEventType]: z.ZodType<Extract<PurchaseEvent, { type: K }>['data']> } = {
  PurchaseOrdered: z.object({
    orderId: id,
    buyerUserId: text,
    usdCents: amount,
    usdPerMlx: rate,
    mlx: amount,
    provider: z.literal('paypal'),
    orderedAt: time,
  }),
  PurchaseCaptureRequested: z.object({ orderId: id, requestId: id, requestedAt: time }),
  PurchaseCaptured: z.object({ orderId: id, captureId: id, usdCents: amount, capturedAt: time, requestId: id.optional() }),
  PurchaseCaptureFailed: z.object({ orderId: id, issue: text, description: longText, failedAt: time, requestId: id.optional() }),
  PurchaseCredited: z.object({ orderId: id, captureId: id, transferId, mlx: amount, creditedAt: time }),
  PurchaseRefunded: z.object({
    orderId: id,
    captureId: id,
    refundId: id,
    usdCents: amount,
    mlxReturned: amount,
    transferId: transferId.optional(),
    refundedAt: time,
  }),
  PurchaseReversed: z.object({
    orderId: id,
    captureId: id,
    reversalId: id,
    usdCents: amount,
    mlxReturned: amount,
    transferId: transferId.optional(),
    reversedAt: time,
  }),
  PurchaseReserveLoss: z.object({
    orderId: id,
    captureId: id,
    reversalId: id,
    mlxOwed: amount,
    mlxReturned: amount,
    mlxLost: amount,
    recordedAt: time,
  }),
  PurchaseReceiptSent: z.object({ orderId: id, messageId: z.string().min(1).max(300), sentAt: time }),
};

export const isPurchaseEventType = (type: string): type is PurchaseEventType => Object.hasOwn(dataSchemas, type);

/** A recorded event as a PurchaseEvent, or undefined when it is not one or has not its shape. */
export function toPurchaseEvent(recorded: { type: string; data: unknown }): PurchaseEvent | undefined {
  if (!isPurchaseEventType(recorded.type)) return undefined;
  const parsed = dataSchemas[recorded.type].safeParse(recorded.data);
  if (!parsed.success) return undefined;
  return { type: recorded.type, data: parsed.data } as PurchaseEvent;
}
