/** Subscriptions as a capability that moves MLX (ADR 078): its kind, the wallet's terms, the history's purpose and its audit rule. */
import { moneyCapability } from '../wallet/money-capability.js';
import { subscriptionAuditRule } from './audit.js';
import { type SubscriptionChargePurpose, subscriptionChargePurposeSchema } from './purpose.js';
import { subscriptionChargeTransferReference, subscriptionChargeTransferTerms } from './transfer-reference.js';

export const subscriptionChargeMoney = moneyCapability({
  kinds: ['subscriptionCharge'],
  reference: subscriptionChargeTransferReference,
  terms: subscriptionChargeTransferTerms,
  purposes: { kinds: ['subscription_charge'], schema: subscriptionChargePurposeSchema },
  purpose: (reference): SubscriptionChargePurpose => ({
    kind: 'subscription_charge',
    subscription_id: reference.subscriptionId,
    period: reference.period,
  }),
  audit: subscriptionAuditRule,
});
