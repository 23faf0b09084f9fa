/**
 * What a history row says a transfer was for, when it was not a plain send: the wire form of a
 * transfer's `reference` (ADR 025), as the history's contracts answer it. The renaming from a
 * reference is core/src/transfer-references/purpose.ts, above the capabilities whose kinds it maps.
 */
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

export const isTransactionPurposeKind = (kind: string): kind is TransactionPurposeKind =>
  (transactionPurposeKinds as readonly string[]).includes(kind);
