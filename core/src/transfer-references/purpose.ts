/**
 * The history's purpose of a transfer (core/src/wallet/purpose.ts): the API speaks snake_case like
 * the spec's other transaction fields, so a reference's camelCase kind and ids are renamed here, in
 * one place, and the read model stores the wire form (a row is then answered without any mapping
 * at read time). It maps every capability's kind, so it sits above them.
 */
import type { PurchaseReferenceKind } from '../purchases/transfer-reference.js';
import type { PurchasePurpose, TransactionPurpose } from '../wallet/purpose.js';
import type { KnownTransferReference } from './known.js';

const KIND_OF_PURCHASE_REFERENCE: Readonly<Record<PurchaseReferenceKind, PurchasePurpose['kind']>> = {
  purchase: 'purchase',
  purchaseRefund: 'purchase_refund',
  purchaseReversal: 'purchase_reversal',
};

/**
 * The wire form of a reference. Keys are written in one fixed order: the read model stores the
 * row as JSON and a rebuild must write the very same string.
 */
export function toTransactionPurpose(reference: KnownTransferReference): TransactionPurpose {
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
