/**
 * Every BullMQ queue Quern has, whichever process consumes it: the metrics report each one's
 * waiting, active, delayed and failed jobs, so work that no process takes (a queue whose worker
 * is not running anywhere) shows as a growing backlog instead of staying invisible.
 */
import { DEPOSIT_CONFIRMATION_QUEUE } from './deposits/payload.js';
import {
  EMAIL_VERIFICATION_EMAIL_QUEUE,
  PASSWORD_CHANGED_EMAIL_QUEUE,
  PASSWORD_RESET_EMAIL_QUEUE,
  TWO_FACTOR_LOCKED_EMAIL_QUEUE,
  WELCOME_EMAIL_QUEUE,
} from './jobs.js';
import { NOTICE_EMAIL_QUEUE } from './notice-email/payload.js';
import { PLAN_PRICE_NOTICE_QUEUE } from './plan-price-notice/payload.js';
import { PURCHASE_CAPTURE_QUEUE } from './purchase-capture/payload.js';
import { PURCHASE_CREDIT_QUEUE } from './purchase-credit/payload.js';
import { PURCHASE_RECEIPT_EMAIL_QUEUE } from './purchase-receipt-email/payload.js';
import { SETTLEMENT_QUEUE } from './settlement/payload.js';
import { SUBSCRIPTION_EMAIL_QUEUE } from './subscription-email/payload.js';
import { SUBSCRIPTION_RENEWAL_QUEUE } from './subscription-renewal/payload.js';
import { SUPPORT_EMAIL_QUEUE } from './support-email/payload.js';
import { WEBHOOK_DELIVERY_QUEUE } from './webhook-delivery/payload.js';
import { WEBHOOK_FANOUT_QUEUE } from './webhook-fanout/payload.js';

export const ALL_QUEUES: readonly string[] = [
  WELCOME_EMAIL_QUEUE,
  PASSWORD_RESET_EMAIL_QUEUE,
  PASSWORD_CHANGED_EMAIL_QUEUE,
  EMAIL_VERIFICATION_EMAIL_QUEUE,
  TWO_FACTOR_LOCKED_EMAIL_QUEUE,
  SUPPORT_EMAIL_QUEUE,
  SETTLEMENT_QUEUE,
  DEPOSIT_CONFIRMATION_QUEUE,
  PURCHASE_CAPTURE_QUEUE,
  PURCHASE_CREDIT_QUEUE,
  PURCHASE_RECEIPT_EMAIL_QUEUE,
  WEBHOOK_FANOUT_QUEUE,
  WEBHOOK_DELIVERY_QUEUE,
  SUBSCRIPTION_RENEWAL_QUEUE,
  SUBSCRIPTION_EMAIL_QUEUE,
  PLAN_PRICE_NOTICE_QUEUE,
  NOTICE_EMAIL_QUEUE,
];

/** The queues of `processed` missing from ALL_QUEUES (a processor added without listing its queue here). */
export const unlistedQueues = (processed: readonly string[]): string[] => processed.filter((queue) => !ALL_QUEUES.includes(queue));
