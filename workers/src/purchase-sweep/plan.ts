/**
 * What the purchase sweep does with one open order, decided from the purchase stream's state and
 * what PayPal says about the order (pure; ADR 026). Every action is idempotent, so a sweep that
 * overlaps the capture job, a webhook or another process's sweep does nothing twice.
 */
import { captureRequestIdFor, creditStanding, providerApprovalFirst, type PurchaseState } from '@quern/core/purchases';

/** What PayPal's order says: its status and, once captured, its capture's. */
export interface PayPalOrderView {
  status: string;
  captureStatus: string | undefined;
}

export type SweepCaptureAction =
  /** PayPal captured it, the log does not know yet: record its capture (recording an approval first when there is none, as a webhook would). */
  | { kind: 'record'; requestFirst: string | undefined }
  /** Approved at PayPal, not in the log (the browser went away before asking): record the approval; the capture job captures. */
  | { kind: 'request'; requestId: string }
  /** Approved, and the log's approval has had no answer for long (its job failing or lost): capture here, under that approval's id. */
  | { kind: 'capture'; requestId: string }
  | { kind: 'none' };

export function planCaptureSweep(
  state: PurchaseState,
  paypal: PayPalOrderView,
  nowMs: number,
  unansweredAfterMs: number,
): SweepCaptureAction {
  const order = state.order;
  if (!order || state.capture) return { kind: 'none' };
  if (paypal.status === 'COMPLETED') {
    // A PENDING capture is left to PayPal's webhook or a later sweep; a refused one to the buyer's next approval.
    if (paypal.captureStatus !== 'COMPLETED') return { kind: 'none' };
    return { kind: 'record', requestFirst: providerApprovalFirst(state) };
  }
  if (paypal.status !== 'APPROVED') return { kind: 'none' };
  const open = state.openCaptureRequest;
  if (!open) return { kind: 'request', requestId: captureRequestIdFor(order.orderId, state) };
  const requestedMs = Date.parse(open.requestedAt);
  // An unreadable time counts as old: capturing under the approval's own id is safe at any time.
  const unanswered = Number.isNaN(requestedMs) || nowMs - requestedMs >= unansweredAfterMs;
  return unanswered ? { kind: 'capture', requestId: open.requestId } : { kind: 'none' };
}

/**
 * Whether the sweep should credit the order now: captured for the ordered amount, neither
 * credited nor refunded. (A capture of another amount is never credited; ADR 025.)
 */
export function creditIsDue(state: PurchaseState): boolean {
  return creditStanding(state) === 'due';
}
