/** Checkout refunds as a capability that moves MLX (ADR 078): its kind, the wallet's terms, the history's purpose and its audit rule. */
import { moneyCapability } from '../wallet/money-capability.js';
import { refundAuditRule } from './audit.js';
import { type CheckoutRefundPurpose, checkoutRefundPurposeSchema } from './purpose.js';
import { checkoutRefundTransferReference, checkoutRefundTransferTerms } from './transfer-reference.js';

export const checkoutRefundMoney = moneyCapability({
  kinds: ['checkoutRefund'],
  reference: checkoutRefundTransferReference,
  terms: checkoutRefundTransferTerms,
  purposes: { kinds: ['checkout_refund'], schema: checkoutRefundPurposeSchema },
  purpose: (reference): CheckoutRefundPurpose => ({ kind: 'checkout_refund', order_id: reference.orderId, refund_id: reference.refundId }),
  audit: refundAuditRule,
});
