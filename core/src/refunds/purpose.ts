/**
 * A merchant's refund of a checkout order in the history (ADR 033): the order and the refund's id;
 * the shop's reference and first item are joined in when read, as for the checkout itself.
 */
import { z } from 'zod';
import { purposeFirstItem, purposeId, purposeMerchantReference } from '../wallet/purpose.js';

export interface CheckoutRefundPurpose {
  kind: 'checkout_refund';
  order_id: string;
  refund_id: string;
}

export const checkoutRefundPurposeSchema = z.object({
  kind: z.literal('checkout_refund'),
  order_id: purposeId,
  refund_id: purposeId,
  merchant_reference: purposeMerchantReference.optional(),
  first_item: purposeFirstItem.optional(),
});
