/**
 * The dispatch rules: which event asks for which job, and which event records it as done. The
 * job id is derived from the request alone, so the same request always maps to the same job,
 * whether it is enqueued live, again after a restart, or re-derived after Redis was lost.
 */
import type { RecordedEvent } from '@quern/core';
import { toUserEvent, type UserEvent } from '@quern/core/identity';
import { toPurchaseEvent, type PurchaseEvent } from '@quern/core/purchases';
import { toWalletEvent, type WalletEvent } from '@quern/core/wallet';
import { toSupportEvent, type SupportEvent } from '@quern/core/contact';
import {
  DEPOSIT_CONFIRMATION_JOB_NAME,
  DEPOSIT_CONFIRMATION_QUEUE,
  depositConfirmationJobId,
  depositConfirmationPayload,
} from '../deposits/payload.js';
import { emailVerificationEmailJobId, emailVerificationEmailPayload } from '../email-verification-email/payload.js';
import {
  EMAIL_VERIFICATION_EMAIL_QUEUE,
  PASSWORD_CHANGED_EMAIL_QUEUE,
  PASSWORD_RESET_EMAIL_QUEUE,
  TWO_FACTOR_LOCKED_EMAIL_QUEUE,
  WELCOME_EMAIL_QUEUE,
} from '../jobs.js';
import { twoFactorLockedEmailJobId, twoFactorLockedEmailPayload } from '../two-factor-locked-email/payload.js';
import { languageOf } from '../language.js';
import { passwordChangedEmailJobId, passwordChangedEmailPayload } from '../password-changed-email/payload.js';
import { passwordResetEmailJobId, passwordResetEmailPayload } from '../password-reset-email/payload.js';
import {
  PURCHASE_CAPTURE_JOB_NAME,
  PURCHASE_CAPTURE_QUEUE,
  purchaseCaptureJobId,
  purchaseCapturePayload,
} from '../purchase-capture/payload.js';
import { PURCHASE_CREDIT_JOB_NAME, PURCHASE_CREDIT_QUEUE, purchaseCreditJobId, purchaseCreditPayload } from '../purchase-credit/payload.js';
import {
  PURCHASE_RECEIPT_EMAIL_JOB_NAME,
  PURCHASE_RECEIPT_EMAIL_QUEUE,
  purchaseReceiptEmailJobId,
  purchaseReceiptEmailPayload,
} from '../purchase-receipt-email/payload.js';
import { SETTLEMENT_JOB_NAME, SETTLEMENT_QUEUE, settlementJobId, settlementPayload } from '../settlement/payload.js';
import { welcomeEmailJobId, welcomeEmailPayload } from '../welcome-email/payload.js';
import { SUPPORT_EMAIL_JOB_NAME, SUPPORT_EMAIL_QUEUE, supportEmailJobId, supportEmailPayload } from '../support-email/payload.js';
import { subscriptionRules } from './subscription-rules.js';
import { typedRule } from './typed-rule.js';
import { webhookDeliveryRules, webhookFanOutRules } from '../webhook-fanout/rules.js';
import { noticeEmailRules } from '../notice-email/rules.js';

export interface DispatchRule {
  /** Event type that asks for the work. */
  request: string;
  /**
   * Event types that record the work as done; any one of them closes it (a transfer ends
   * posted or voided). Each must carry what matchCompletion needs to name the job.
   */
  completions: readonly string[];
  queue: string;
  /** BullMQ job name. */
  name: string;
  /** Deterministic: a pure function of the request event. Throws when the event is malformed. */
  jobId(request: RecordedEvent): string;
  /** The job's data, already valid for the job's payload schema. Throws when the event is malformed. */
  payload(request: RecordedEvent): Record<string, unknown>;
  /** The job id this completion event closes, so matching requests and completions is a lookup. */
  matchCompletion(completion: RecordedEvent): string;
  /**
   * Whether this request event needs the job at all (default: always). Decided from the event
   * alone, so live dispatch and re-derivation after a Redis loss agree.
   */
  needsJob?(request: RecordedEvent): boolean;
}

type WalletEventOf<T extends WalletEvent['type']> = Extract<WalletEvent, { type: T }>;
type UserEventOf<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>;
type PurchaseEventOf<T extends PurchaseEvent['type']> = Extract<PurchaseEvent, { type: T }>;

export const welcomeEmailRule = typedRule<UserEventOf<'UserRegistered'>, UserEventOf<'WelcomeEmailSent'>>({
  read: toUserEvent,
  request: 'UserRegistered',
  completions: ['WelcomeEmailSent'],
  queue: WELCOME_EMAIL_QUEUE,
  name: 'send-welcome-email',
  jobId: (event) => welcomeEmailJobId(welcomeEmailPayload.parse({ userId: event.data.userId }).userId),
  payload: (event, recorded) => welcomeEmailPayload.parse({ userId: event.data.userId, language: languageOf(recorded) }),
  matchCompletion: (event) => welcomeEmailJobId(event.data.userId),
});

export const passwordResetEmailRule = typedRule<UserEventOf<'PasswordResetRequested'>, UserEventOf<'PasswordResetEmailSent'>>({
  read: toUserEvent,
  request: 'PasswordResetRequested',
  completions: ['PasswordResetEmailSent'],
  queue: PASSWORD_RESET_EMAIL_QUEUE,
  name: 'send-password-reset-email',
  jobId: ({ data }) =>
    passwordResetEmailJobId(passwordResetEmailPayload.parse({ userId: data.userId, requestId: data.requestId }).requestId),
  payload: ({ data }, recorded) =>
    passwordResetEmailPayload.parse({ userId: data.userId, requestId: data.requestId, language: languageOf(recorded) }),
  matchCompletion: (event) => passwordResetEmailJobId(event.data.requestId),
});

/**
 * The notice after a profile password change. Only changes that carry a change id (profile
 * changes since the profile page) ask for it; a reset by e-mailed link already went through the
 * inbox the notice would go to.
 */
export const passwordChangedEmailRule = typedRule<UserEventOf<'PasswordChanged'>, UserEventOf<'PasswordChangedEmailSent'>>({
  read: toUserEvent,
  request: 'PasswordChanged',
  completions: ['PasswordChangedEmailSent'],
  queue: PASSWORD_CHANGED_EMAIL_QUEUE,
  name: 'send-password-changed-email',
  jobId: ({ data }) =>
    passwordChangedEmailJobId(passwordChangedEmailPayload.parse({ userId: data.userId, changeId: data.changeId }).changeId),
  payload: ({ data }, recorded) =>
    passwordChangedEmailPayload.parse({ userId: data.userId, changeId: data.changeId, language: languageOf(recorded) }),
  matchCompletion: (event) => passwordChangedEmailJobId(event.data.changeId),
  needsJob: ({ data }) => data.via === 'profile' && data.changeId !== undefined,
});

/** The notice that wrong two-factor codes locked the account's codes: one per lock (ADR 045). */
export const twoFactorLockedEmailRule = typedRule<UserEventOf<'TwoFactorLocked'>, UserEventOf<'TwoFactorLockedEmailSent'>>({
  read: toUserEvent,
  request: 'TwoFactorLocked',
  completions: ['TwoFactorLockedEmailSent'],
  queue: TWO_FACTOR_LOCKED_EMAIL_QUEUE,
  name: 'send-two-factor-locked-email',
  jobId: ({ data }) => twoFactorLockedEmailJobId(twoFactorLockedEmailPayload.parse({ userId: data.userId, lockId: data.lockId }).lockId),
  payload: ({ data }) => twoFactorLockedEmailPayload.parse({ userId: data.userId, lockId: data.lockId }),
  matchCompletion: (event) => twoFactorLockedEmailJobId(event.data.lockId),
});

/**
 * Another verification mail (ADR 046). The sign-up's request needs no job of its own: the welcome
 * mail carries its link.
 */
export const emailVerificationEmailRule = typedRule<UserEventOf<'EmailVerificationRequested'>, UserEventOf<'EmailVerificationEmailSent'>>({
  read: toUserEvent,
  request: 'EmailVerificationRequested',
  completions: ['EmailVerificationEmailSent'],
  queue: EMAIL_VERIFICATION_EMAIL_QUEUE,
  name: 'send-email-verification-email',
  jobId: ({ data }) =>
    emailVerificationEmailJobId(emailVerificationEmailPayload.parse({ userId: data.userId, requestId: data.requestId }).requestId),
  payload: ({ data }, recorded) =>
    emailVerificationEmailPayload.parse({ userId: data.userId, requestId: data.requestId, language: languageOf(recorded) }),
  matchCompletion: (event) => emailVerificationEmailJobId(event.data.requestId),
  needsJob: ({ data }) => data.via !== 'registration',
});

const settlementRequest = ({ data }: WalletEventOf<'TransferReserved'>) =>
  settlementPayload.parse({ payerWalletId: data.walletId, transferId: data.transferId, reservedAt: data.reservedAt });

/**
 * A send's settlement. The request is the reservation on the payer's stream; it is done when the
 * same stream posts or voids the transfer. Every wallet event names its wallet, so the payer is
 * read from the data, not parsed out of the stream name.
 */
export const settlementRule = typedRule<WalletEventOf<'TransferReserved'>, WalletEventOf<'TransferPosted' | 'TransferVoided'>>({
  read: toWalletEvent,
  request: 'TransferReserved',
  completions: ['TransferPosted', 'TransferVoided'],
  queue: SETTLEMENT_QUEUE,
  name: SETTLEMENT_JOB_NAME,
  jobId: (event) => settlementJobId(settlementRequest(event).transferId),
  payload: (event) => settlementRequest(event),
  matchCompletion: (event) => settlementJobId(event.data.transferId),
  // A transfer between Quern wallets recorded with its post and credit in the same atomic append
  // (ADR 019) is settled already; only external sends and older internal reservations need a job.
  needsJob: (event) => event.data.settledAtOnce !== true,
});

const depositRequest = ({ data }: WalletEventOf<'DepositReceived'>) =>
  depositConfirmationPayload.parse({ walletId: data.walletId, depositId: data.depositId });

/** A deposit seen on the network waits for stability; it is done when confirmed or rejected. */
export const depositConfirmationRule = typedRule<WalletEventOf<'DepositReceived'>, WalletEventOf<'DepositConfirmed' | 'DepositRejected'>>({
  read: toWalletEvent,
  request: 'DepositReceived',
  completions: ['DepositConfirmed', 'DepositRejected'],
  queue: DEPOSIT_CONFIRMATION_QUEUE,
  name: DEPOSIT_CONFIRMATION_JOB_NAME,
  jobId: (event) => {
    const { walletId, depositId } = depositRequest(event);
    return depositConfirmationJobId(walletId, depositId);
  },
  payload: (event) => depositRequest(event),
  matchCompletion: ({ data }) => depositConfirmationJobId(data.walletId, data.depositId),
});

const captureRequest = ({ data }: PurchaseEventOf<'PurchaseCaptureRequested'>) =>
  purchaseCapturePayload.parse({ orderId: data.orderId, requestId: data.requestId });

/**
 * A purchase's capture at PayPal (ADR 026). The request is the buyer's approval; it is done when
 * a capture result names that approval. A result recorded before results named their approval
 * closes no job: such a job, re-derived, finds the result in the log and calls PayPal for nothing.
 */
export const purchaseCaptureRule = typedRule<
  PurchaseEventOf<'PurchaseCaptureRequested'>,
  PurchaseEventOf<'PurchaseCaptured' | 'PurchaseCaptureFailed'>
>({
  read: toPurchaseEvent,
  request: 'PurchaseCaptureRequested',
  completions: ['PurchaseCaptured', 'PurchaseCaptureFailed'],
  queue: PURCHASE_CAPTURE_QUEUE,
  name: PURCHASE_CAPTURE_JOB_NAME,
  jobId: (event) => {
    const { orderId, requestId } = captureRequest(event);
    return purchaseCaptureJobId(orderId, requestId);
  },
  payload: (event) => captureRequest(event),
  matchCompletion: ({ data }) => purchaseCaptureJobId(data.orderId, data.requestId ?? ''),
});

const creditRequest = ({ data }: PurchaseEventOf<'PurchaseCaptured'>) =>
  purchaseCreditPayload.parse({ orderId: data.orderId, capturedAt: data.capturedAt });

/**
 * A captured purchase's credit, after the grace the buyer's browser has to claim it. Done when
 * credited, or when money went back before the credit (which refuses the credit for good).
 */
export const purchaseCreditRule = typedRule<
  PurchaseEventOf<'PurchaseCaptured'>,
  PurchaseEventOf<'PurchaseCredited' | 'PurchaseRefunded' | 'PurchaseReversed'>
>({
  read: toPurchaseEvent,
  request: 'PurchaseCaptured',
  completions: ['PurchaseCredited', 'PurchaseRefunded', 'PurchaseReversed'],
  queue: PURCHASE_CREDIT_QUEUE,
  name: PURCHASE_CREDIT_JOB_NAME,
  jobId: (event) => purchaseCreditJobId(creditRequest(event).orderId),
  payload: (event) => creditRequest(event),
  matchCompletion: ({ data }) => purchaseCreditJobId(data.orderId),
});

/** The buyer's receipt e-mail, once the MLX is credited; done when the purchase stream records it sent. */
export const purchaseReceiptEmailRule = typedRule<PurchaseEventOf<'PurchaseCredited'>, PurchaseEventOf<'PurchaseReceiptSent'>>({
  read: toPurchaseEvent,
  request: 'PurchaseCredited',
  completions: ['PurchaseReceiptSent'],
  queue: PURCHASE_RECEIPT_EMAIL_QUEUE,
  name: PURCHASE_RECEIPT_EMAIL_JOB_NAME,
  jobId: ({ data }) => purchaseReceiptEmailJobId(purchaseReceiptEmailPayload.parse({ orderId: data.orderId }).orderId),
  payload: ({ data }) => purchaseReceiptEmailPayload.parse({ orderId: data.orderId }),
  matchCompletion: ({ data }) => purchaseReceiptEmailJobId(data.orderId),
});

type SupportEventOf<T extends SupportEvent['type']> = Extract<SupportEvent, { type: T }>;

/** A contact or support message is mailed to the support mailbox and acknowledged; done when sent. */
export const supportEmailRule = typedRule<SupportEventOf<'SupportMessageSubmitted'>, SupportEventOf<'SupportMessageSent'>>({
  read: toSupportEvent,
  request: 'SupportMessageSubmitted',
  completions: ['SupportMessageSent'],
  queue: SUPPORT_EMAIL_QUEUE,
  name: SUPPORT_EMAIL_JOB_NAME,
  jobId: ({ data }) => supportEmailJobId(supportEmailPayload.parse({ messageId: data.messageId }).messageId),
  payload: ({ data }) => supportEmailPayload.parse({ messageId: data.messageId }),
  matchCompletion: ({ data }) => supportEmailJobId(data.messageId),
});

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

/** A job ready to enqueue, with the position of the request that asked for it. */
export interface PendingJob {
  queue: string;
  name: string;
  jobId: string;
  data: Record<string, unknown>;
  position: bigint;
}

/** The jobs this event asks for (usually none). Throws when a request event is malformed. */
export function jobsRequestedBy(event: RecordedEvent, rules: readonly DispatchRule[]): PendingJob[] {
  return rules
    .filter((rule) => rule.request === event.type && (rule.needsJob?.(event) ?? true))
    .map((rule) => ({ queue: rule.queue, name: rule.name, jobId: rule.jobId(event), data: rule.payload(event), position: event.position }));
}
