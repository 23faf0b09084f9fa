/**
 * What a history row says a transfer was for, when it was not a plain send: the wire form of a
 * transfer's `reference` (events.ts, ADR 025). The API speaks snake_case like the spec's other
 * transaction fields, so the event's camelCase reference is renamed here, in one place, and the
 * read model stores the wire form (a row is then answered without any mapping at read time).
 */
import type { PurchaseReferenceKind, TransferReference } from './events.js';

export type TransactionPurposeKind =
  | 'purchase'
  | 'purchase_refund'
  | 'purchase_reversal'
  | 'checkout'
  | 'checkout_refund'
  | 'payout'
  | 'subscription_charge';
export const transactionPurposeKinds: readonly TransactionPurposeKind[] = [
  'purchase',
  'purchase_refund',
  'purchase_reversal',
  'checkout',
  'checkout_refund',
  'payout',
  'subscription_charge',
];

/**
 * A purchase row: `order_id` and `capture_id` are PayPal's order and capture (the "transaction"
 * PayPal shows its buyer); `refund_id` is the refund's or the reversal's id, on returns only.
 */
export interface PurchasePurpose {
  kind: 'purchase' | 'purchase_refund' | 'purchase_reversal';
  order_id: string;
  capture_id: string;
  refund_id?: string;
}

/** A checkout row (ADR 029): the checkout order the shopper paid, and nothing else. */
export interface CheckoutPurpose {
  kind: 'checkout';
  order_id: string;
}

/** A merchant's refund of a checkout order (ADR 033): the order, and the refund's id. */
export interface CheckoutRefundPurpose {
  kind: 'checkout_refund';
  order_id: string;
  refund_id: string;
}

/** A merchant's payout through the merchant API (ADR 033). */
export interface PayoutPurpose {
  kind: 'payout';
  payout_id: string;
}

/** One period of a subscription (ADR 037): the subscription and the period it paid. */
export interface SubscriptionChargePurpose {
  kind: 'subscription_charge';
  subscription_id: string;
  period: number;
}

export type TransactionPurpose = PurchasePurpose | CheckoutPurpose | CheckoutRefundPurpose | PayoutPurpose | SubscriptionChargePurpose;

const KIND_OF_PURCHASE_REFERENCE: Readonly<Record<PurchaseReferenceKind, PurchasePurpose['kind']>> = {
  purchase: 'purchase',
  purchaseRefund: 'purchase_refund',
  purchaseReversal: 'purchase_reversal',
};

/**
 * The wire form of a reference. Keys are written in one fixed order: the read model stores the
 * row as JSON and a rebuild must write the very same string.
 */
export function toTransactionPurpose(reference: TransferReference): TransactionPurpose {
  if (reference.kind === 'checkout') return { kind: 'checkout', order_id: reference.orderId };
  if (reference.kind === 'checkoutRefund') return { kind: 'checkout_refund', order_id: reference.orderId, refund_id: reference.refundId };
  if (reference.kind === 'payout') return { kind: 'payout', payout_id: reference.payoutId };
  if (reference.kind === 'subscriptionCharge')
    return { kind: 'subscription_charge', subscription_id: reference.subscriptionId, period: reference.period };
  const purpose: PurchasePurpose = {
    kind: KIND_OF_PURCHASE_REFERENCE[reference.kind],
    order_id: reference.orderId,
    capture_id: reference.captureId,
  };
  if (reference.refundId !== undefined) purpose.refund_id = reference.refundId;
  return purpose;
}

export const isTransactionPurposeKind = (kind: string): kind is TransactionPurposeKind =>
  (transactionPurposeKinds as readonly string[]).includes(kind);
