/**
 * An invoice folded from its stream, and its status as the API answers it (issue 27):
 *
 * - `void`: the merchant voided it (money that arrives afterwards is still recorded, never lost);
 * - `paid`: the stable payments reach the amount (`amountOverpaidMlx` beyond it; `paidLate` when a
 *   payment that counted was seen after the invoice expired);
 * - `expired`: it ran out of time with less than the amount stable (what did arrive is refundable);
 * - `processing`: a payment is seen but not yet stable;
 * - `partially_paid`: some of the amount is stable, the rest is missing;
 * - `open`: nothing has arrived.
 */
import { strictParser, type StreamModel } from '../shared/command-handler.js';
import { mlxFromWire } from '../wallet/money.js';
import { type InvoiceEvent, type InvoicePaymentRoute, type InvoiceStatus, type InvoiceTerms, toInvoiceEvent } from './events.js';

export interface InvoicePayment {
  paymentId: string;
  route: InvoicePaymentRoute;
  amountMlx: bigint;
  stage: 'seen' | 'settled' | 'failed';
  /** Seen at or after the invoice's expiry. */
  late: boolean;
  /** When it was first seen (a deposit) or settled (a Quern transfer, or a deposit once stable). */
  seenAt: string;
  settledAt?: string;
}

/**
 * A refund of what reached the invoice (ADR 087): created by the merchant, claimed once by the
 * payer (the claim names the payout that sends it), or canceled while unclaimed.
 */
export interface InvoiceRefund {
  refundId: string;
  amountMlx: bigint;
  notifyByEmail: boolean;
  createdAt: string;
  claim?: { payoutId: string; toAddress: string; claimedAt: string };
  canceledAt?: string;
  emailedAt?: string;
}

export interface InvoiceState {
  invoiceId: string;
  merchantUserId: string;
  address: string;
  terms: InvoiceTerms;
  amountMlx: bigint;
  createdAt: string;
  payments: Map<string, InvoicePayment>;
  refunds: Map<string, InvoiceRefund>;
  expiredAt?: string;
  voidedAt?: string;
}

const timeMs = (iso: string): number => Date.parse(iso);
const isLate = (state: InvoiceState, at: string): boolean => timeMs(at) >= timeMs(state.terms.expiresAt);

function withPayment(state: InvoiceState, payment: InvoicePayment): InvoiceState {
  const payments = new Map(state.payments);
  payments.set(payment.paymentId, payment);
  return { ...state, payments };
}

export function evolveInvoice(state: InvoiceState | undefined, event: InvoiceEvent): InvoiceState | undefined {
  if (event.type === 'InvoiceCreated') {
    if (state) return state;
    const { invoiceId, merchantUserId, address, createdAt, ...terms } = event.data;
    return {
      invoiceId,
      merchantUserId,
      address,
      terms,
      amountMlx: mlxFromWire(terms.amountMlx),
      createdAt,
      payments: new Map(),
      refunds: new Map(),
    };
  }
  if (!state) return state;
  switch (event.type) {
    case 'InvoicePaymentSeen': {
      if (state.payments.has(event.data.paymentId)) return state;
      const { paymentId, route, amountMlx, seenAt } = event.data;
      return withPayment(state, {
        paymentId,
        route,
        amountMlx: mlxFromWire(amountMlx),
        stage: 'seen',
        late: isLate(state, seenAt),
        seenAt,
      });
    }
    case 'InvoicePaymentSettled': {
      const seen = state.payments.get(event.data.paymentId);
      const { paymentId, route, amountMlx, settledAt } = event.data;
      // A Quern transfer settles without being seen first; a deposit keeps when it was first seen.
      return withPayment(state, {
        paymentId,
        route,
        amountMlx: mlxFromWire(amountMlx),
        stage: 'settled',
        late: seen ? seen.late : isLate(state, settledAt),
        seenAt: seen?.seenAt ?? settledAt,
        settledAt,
      });
    }
    case 'InvoicePaymentFailed': {
      const seen = state.payments.get(event.data.paymentId);
      if (seen) return withPayment(state, { ...seen, stage: 'failed' });
      // Refused before it was seen: kept as failed, so a sighting that comes later changes nothing.
      const { paymentId, route, amountMlx, failedAt } = event.data;
      if (route === undefined || amountMlx === undefined) return state;
      return withPayment(state, {
        paymentId,
        route,
        amountMlx: mlxFromWire(amountMlx),
        stage: 'failed',
        late: isLate(state, failedAt),
        seenAt: failedAt,
      });
    }
    case 'InvoiceExpired':
      return { ...state, expiredAt: state.expiredAt ?? event.data.expiredAt };
    case 'InvoiceVoided':
      return { ...state, voidedAt: state.voidedAt ?? event.data.voidedAt };
    case 'InvoiceRefundCreated': {
      if (state.refunds.has(event.data.refundId)) return state;
      const { refundId, amountMlx, notifyByEmail, createdAt } = event.data;
      return withRefund(state, { refundId, amountMlx: mlxFromWire(amountMlx), notifyByEmail, createdAt });
    }
    case 'InvoiceRefundClaimed': {
      const refund = state.refunds.get(event.data.refundId);
      if (!refund || refund.claim) return state;
      const { payoutId, toAddress, claimedAt } = event.data;
      return withRefund(state, { ...refund, claim: { payoutId, toAddress, claimedAt } });
    }
    case 'InvoiceRefundCanceled': {
      const refund = state.refunds.get(event.data.refundId);
      return refund ? withRefund(state, { ...refund, canceledAt: refund.canceledAt ?? event.data.canceledAt }) : state;
    }
    case 'InvoiceRefundEmailSent': {
      const refund = state.refunds.get(event.data.refundId);
      return refund ? withRefund(state, { ...refund, emailedAt: refund.emailedAt ?? event.data.sentAt }) : state;
    }
  }
}

function withRefund(state: InvoiceState, refund: InvoiceRefund): InvoiceState {
  const refunds = new Map(state.refunds);
  refunds.set(refund.refundId, refund);
  return { ...state, refunds };
}

/**
 * The MLX the invoice's refunds hold against what it received: every refund not canceled, unless
 * its payout failed (`failedRefundIds`, read from the payouts: a failed payout moved nothing). A
 * refund whose payout's outcome is not known yet counts, so a stale view never refunds too much.
 */
export function refundsHeldMlx(state: InvoiceState, failedRefundIds: ReadonlySet<string> = new Set()): bigint {
  let held = 0n;
  for (const refund of state.refunds.values())
    if (refund.canceledAt === undefined && !failedRefundIds.has(refund.refundId)) held += refund.amountMlx;
  return held;
}

/** What may still be refunded: the stable payments less what the refunds hold (never below zero). */
export function refundableMlx(state: InvoiceState, failedRefundIds: ReadonlySet<string> = new Set()): bigint {
  const remaining = invoiceAmounts(state).settledMlx - refundsHeldMlx(state, failedRefundIds);
  return remaining > 0n ? remaining : 0n;
}

const sum = (state: InvoiceState, stage: InvoicePayment['stage']): bigint =>
  [...state.payments.values()].reduce((total, payment) => (payment.stage === stage ? total + payment.amountMlx : total), 0n);

/** What the invoice has received and what it still misses, in MLX. */
export interface InvoiceAmounts {
  settledMlx: bigint;
  pendingMlx: bigint;
  dueMlx: bigint;
  overpaidMlx: bigint;
}

export function invoiceAmounts(state: InvoiceState): InvoiceAmounts {
  const settledMlx = sum(state, 'settled');
  return {
    settledMlx,
    pendingMlx: sum(state, 'seen'),
    dueMlx: settledMlx >= state.amountMlx ? 0n : state.amountMlx - settledMlx,
    overpaidMlx: settledMlx > state.amountMlx ? settledMlx - state.amountMlx : 0n,
  };
}

export function invoiceStatus(state: InvoiceState): InvoiceStatus {
  const { settledMlx, pendingMlx } = invoiceAmounts(state);
  if (state.voidedAt !== undefined) return 'void';
  if (settledMlx >= state.amountMlx) return 'paid';
  if (state.expiredAt !== undefined) return 'expired';
  if (pendingMlx > 0n) return 'processing';
  if (settledMlx > 0n) return 'partially_paid';
  return 'open';
}

/** When the stable payments first reached the amount; undefined until paid. */
export function invoicePaidAt(state: InvoiceState): string | undefined {
  const settled = [...state.payments.values()]
    .filter((payment) => payment.stage === 'settled' && payment.settledAt !== undefined)
    .sort((a, b) => Date.parse(a.settledAt ?? '') - Date.parse(b.settledAt ?? ''));
  let total = 0n;
  for (const payment of settled) {
    total += payment.amountMlx;
    if (total >= state.amountMlx) return payment.settledAt;
  }
  return undefined;
}

/** Paid with a payment seen after the invoice expired: credited all the same, and flagged. */
export const isPaidLate = (state: InvoiceState): boolean =>
  invoiceStatus(state) === 'paid' && [...state.payments.values()].some((payment) => payment.stage === 'settled' && payment.late);

/** An invoice stream for the command pipeline: nothing before InvoiceCreated; an event it cannot read is refused. */
export const invoiceModel: StreamModel<InvoiceState | undefined, InvoiceEvent> = {
  initialState: () => undefined,
  evolve: evolveInvoice,
  parse: strictParser(toInvoiceEvent),
};
