/** Purchases as a capability that moves MLX (ADR 078): its kinds, the wallet's terms, the history's purposes and its audit rule. */
import { moneyCapability } from '../wallet/money-capability.js';
import { purchaseAuditRule } from './audit.js';
import { type PurchasePurpose, purchasePurposeKinds, purchasePurposeSchema } from './purpose.js';
import {
  type PurchaseReferenceKind,
  purchaseReferenceKinds,
  purchaseTransferReference,
  purchaseTransferTerms,
} from './transfer-reference.js';

const KIND_OF_PURCHASE_REFERENCE: Readonly<Record<PurchaseReferenceKind, PurchasePurpose['kind']>> = {
  purchase: 'purchase',
  purchaseRefund: 'purchase_refund',
  purchaseReversal: 'purchase_reversal',
};

export const purchaseMoney = moneyCapability({
  kinds: purchaseReferenceKinds,
  reference: purchaseTransferReference,
  terms: purchaseTransferTerms,
  purposes: { kinds: purchasePurposeKinds, schema: purchasePurposeSchema },
  // `order_id` and `capture_id` are PayPal's; `refund_id` only on a return. Keys in one fixed order:
  // the read model stores the row as JSON and a rebuild must write the very same string.
  purpose: (reference): PurchasePurpose => {
    const purpose: PurchasePurpose = {
      kind: KIND_OF_PURCHASE_REFERENCE[reference.kind],
      order_id: reference.orderId,
      capture_id: reference.captureId,
    };
    if (reference.refundId !== undefined) purpose.refund_id = reference.refundId;
    return purpose;
  },
  audit: purchaseAuditRule,
});
