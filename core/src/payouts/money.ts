/** Payouts as a capability that moves MLX (ADR 078): its kind, the wallet's terms, the history's purpose and its audit rule. */
import { moneyCapability } from '../wallet/money-capability.js';
import { payoutAuditRule } from './audit.js';
import { type PayoutPurpose, payoutPurposeSchema } from './purpose.js';
import { payoutTransferReference, payoutTransferTerms } from './transfer-reference.js';

export const payoutMoney = moneyCapability({
  kinds: ['payout'],
  reference: payoutTransferReference,
  terms: payoutTransferTerms,
  purposes: { kinds: ['payout'], schema: payoutPurposeSchema },
  purpose: (reference): PayoutPurpose => ({ kind: 'payout', payout_id: reference.payoutId }),
  audit: payoutAuditRule,
});
