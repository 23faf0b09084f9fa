/** Invoices as a capability that moves MLX (ADR 078): paid from a Quern balance, its kind, the wallet's terms, the history's purpose and its audit rule. */
import { moneyCapability } from '../wallet/money-capability.js';
import { invoiceAuditRule } from './audit.js';
import { type InvoicePaymentPurpose, invoicePaymentPurposeSchema } from './purpose.js';
import { invoicePaymentTransferReference, invoicePaymentTransferTerms } from './transfer-reference.js';

export const invoicePaymentMoney = moneyCapability({
  kinds: ['invoicePayment'],
  reference: invoicePaymentTransferReference,
  terms: invoicePaymentTransferTerms,
  purposes: { kinds: ['invoice_payment'], schema: invoicePaymentPurposeSchema },
  purpose: (reference): InvoicePaymentPurpose => ({ kind: 'invoice_payment', invoice_id: reference.invoiceId }),
  audit: invoiceAuditRule,
});
