/**
 * Every job, in one list (ADR 072): each folder's module.ts registers its queue, its dispatch
 * rules and its processor, and a new job adds its module here, once. The dispatcher's rules
 * (dispatch/rules.ts), ALL_QUEUES (queues.ts) and the workers (workers.ts) are built from it; the
 * order is the order the dispatcher asks its rules in.
 */
import { depositConfirmationModule } from './deposits/module.js';
import { emailVerificationEmailModule } from './email-verification-email/module.js';
import { invoiceExpiryModule } from './invoice-expiry/module.js';
import { invoicePaymentModule } from './invoice-payments/module.js';
import { invoiceRefundEmailModule } from './invoice-refund-email/module.js';
import type { JobModule } from './job/job-module.js';
import { noticeEmailModule } from './notice-email/module.js';
import { passwordChangedEmailModule } from './password-changed-email/module.js';
import { passwordResetEmailModule } from './password-reset-email/module.js';
import { planPriceNoticeModule } from './plan-price-notice/module.js';
import { purchaseCaptureModule } from './purchase-capture/module.js';
import { purchaseCreditModule } from './purchase-credit/module.js';
import { purchaseReceiptEmailModule } from './purchase-receipt-email/module.js';
import { settlementModule } from './settlement/module.js';
import { subscriptionEmailModule } from './subscription-email/module.js';
import { subscriptionRenewalModule } from './subscription-renewal/module.js';
import { supportEmailModule } from './support-email/module.js';
import { twoFactorLockedEmailModule } from './two-factor-locked-email/module.js';
import { webhookDeliveryModule } from './webhook-delivery/module.js';
import { webhookFanOutModule } from './webhook-fanout/module.js';
import { welcomeEmailModule } from './welcome-email/module.js';

export const jobModules: readonly JobModule[] = [
  welcomeEmailModule,
  passwordResetEmailModule,
  passwordChangedEmailModule,
  twoFactorLockedEmailModule,
  emailVerificationEmailModule,
  settlementModule,
  depositConfirmationModule,
  invoicePaymentModule,
  invoiceExpiryModule,
  invoiceRefundEmailModule,
  purchaseCaptureModule,
  purchaseCreditModule,
  purchaseReceiptEmailModule,
  supportEmailModule,
  subscriptionRenewalModule,
  subscriptionEmailModule,
  planPriceNoticeModule,
  webhookFanOutModule,
  webhookDeliveryModule,
  noticeEmailModule,
];
