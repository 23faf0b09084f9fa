/**
 * The dispatch rules of every job, in one list: which event asks for which job, and which event
 * records it as done. Each job folder declares its own rules (its rules.ts, built on
 * job/dispatch-rule.ts); a new job is added here once. The job id is derived from the request
 * alone, so the same request always maps to the same job, whether it is enqueued live, again after
 * a restart, or re-derived after Redis was lost.
 */
import { depositConfirmationRule } from '../deposits/rules.js';
import { emailVerificationEmailRule } from '../email-verification-email/rules.js';
import type { DispatchRule } from '../job/dispatch-rule.js';
import { noticeEmailRules } from '../notice-email/rules.js';
import { passwordChangedEmailRule } from '../password-changed-email/rules.js';
import { passwordResetEmailRule } from '../password-reset-email/rules.js';
import { planPriceNoticeRule } from '../plan-price-notice/rules.js';
import { purchaseCaptureRule } from '../purchase-capture/rules.js';
import { purchaseCreditRule } from '../purchase-credit/rules.js';
import { purchaseReceiptEmailRule } from '../purchase-receipt-email/rules.js';
import { settlementRule } from '../settlement/rules.js';
import { subscriptionEmailRules } from '../subscription-email/rules.js';
import { subscriptionRenewalRules } from '../subscription-renewal/rules.js';
import { supportEmailRule } from '../support-email/rules.js';
import { twoFactorLockedEmailRule } from '../two-factor-locked-email/rules.js';
import { webhookDeliveryRules, webhookFanOutRules } from '../webhook-fanout/rules.js';
import { welcomeEmailRule } from '../welcome-email/rules.js';

/** Billing's rules (ADR 037): renewals, their e-mails and the price-change announcements. */
export const subscriptionRules: readonly DispatchRule[] = [...subscriptionRenewalRules, ...subscriptionEmailRules, planPriceNoticeRule];

export const dispatchRules: readonly DispatchRule[] = [
  welcomeEmailRule,
  passwordResetEmailRule,
  passwordChangedEmailRule,
  twoFactorLockedEmailRule,
  emailVerificationEmailRule,
  settlementRule,
  depositConfirmationRule,
  purchaseCaptureRule,
  purchaseCreditRule,
  purchaseReceiptEmailRule,
  supportEmailRule,
  ...subscriptionRules,
  ...webhookFanOutRules,
  ...webhookDeliveryRules,
  ...noticeEmailRules,
];
