/**
 * A purchase row's purpose in the history (ADR 025): `order_id` and `capture_id` are PayPal's order
 * and capture (the "transaction" PayPal shows its buyer); `refund_id` is the refund's or the
 * reversal's id, on returns only.
 */
import { z } from 'zod';
import { purposeId } from '../wallet/purpose.js';

export type PurchasePurposeKind = 'purchase' | 'purchase_refund' | 'purchase_reversal';
export const purchasePurposeKinds: readonly PurchasePurposeKind[] = ['purchase', 'purchase_refund', 'purchase_reversal'];

export interface PurchasePurpose {
  kind: PurchasePurposeKind;
  order_id: string;
  capture_id: string;
  refund_id?: string;
}

export const purchasePurposeSchema = z.object({
  kind: z.enum(purchasePurposeKinds),
  order_id: purposeId,
  capture_id: purposeId,
  refund_id: purposeId.optional(),
});
