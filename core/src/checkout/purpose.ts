/**
 * A checkout row's purpose in the history (ADR 029): the order the shopper paid, and no provider
 * capture. When the history is read it joins in `merchant_reference`, the shop's own order
 * reference (ADR 043), so both sides can name the order as the shop does, and `first_item`, the
 * cart's first item, which names the payment when the shop gave no reference.
 */
import { z } from 'zod';
import { purposeFirstItem, purposeId, purposeMerchantReference } from '../wallet/purpose.js';

export interface CheckoutPurpose {
  kind: 'checkout';
  order_id: string;
}

export const checkoutPurposeSchema = z.object({
  kind: z.literal('checkout'),
  order_id: purposeId,
  merchant_reference: purposeMerchantReference.optional(),
  first_item: purposeFirstItem.optional(),
});
