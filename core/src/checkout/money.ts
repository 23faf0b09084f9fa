/** Checkout as a capability that moves MLX (ADR 078): its kind, the wallet's terms, the history's purpose and its audit rule. */
import { moneyCapability } from '../wallet/money-capability.js';
import { checkoutAuditRule } from './audit.js';
import { type CheckoutPurpose, checkoutPurposeSchema } from './purpose.js';
import { checkoutTransferReference, checkoutTransferTerms } from './transfer-reference.js';

export const checkoutMoney = moneyCapability({
  kinds: ['checkout'],
  reference: checkoutTransferReference,
  terms: checkoutTransferTerms,
  // The history's wire form (snake_case, as the spec's other transaction fields); keys in one fixed order.
  purposes: { kinds: ['checkout'], schema: checkoutPurposeSchema },
  purpose: (reference): CheckoutPurpose => ({ kind: 'checkout', order_id: reference.orderId }),
  audit: checkoutAuditRule,
});
