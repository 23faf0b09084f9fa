/**
 * The dispatch rules: which event asks for which job, and which event records it as done. The
 * job id is derived from the request alone, so the same request always maps to the same job,
 * whether it is enqueued live, again after a restart, or re-derived after Redis was lost.
 */
import type { RecordedEvent } from '@quern/core';
import {
  DEPOSIT_CONFIRMATION_JOB_NAME,
  DEPOSIT_CONFIRMATION_QUEUE,
  depositConfirmationJobId,
  depositConfirmationPayload,
} from '../deposits/payload.js';
import { PASSWORD_RESET_EMAIL_QUEUE, WELCOME_EMAIL_QUEUE } from '../jobs.js';
import { languageOf } from '../language.js';
import { passwordResetEmailJobId, passwordResetEmailPayload } from '../password-reset-email/payload.js';
import { SETTLEMENT_JOB_NAME, SETTLEMENT_QUEUE, settlementJobId, settlementPayload } from '../settlement/payload.js';
import { welcomeEmailJobId, welcomeEmailPayload } from '../welcome-email/payload.js';

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

const text = (event: RecordedEvent, field: string): string => {
  const value = event.data[field];
  if (typeof value !== 'string') throw new Error(`${event.type} at position ${event.position} has no ${field}`);
  return value;
};

export const welcomeEmailRule: DispatchRule = {
  request: 'UserRegistered',
  completions: ['WelcomeEmailSent'],
  queue: WELCOME_EMAIL_QUEUE,
  name: 'send-welcome-email',
  jobId: (event) => welcomeEmailJobId(welcomeEmailPayload.parse({ userId: text(event, 'userId') }).userId),
  payload: (event) => welcomeEmailPayload.parse({ userId: text(event, 'userId'), language: languageOf(event) }),
  matchCompletion: (event) => welcomeEmailJobId(text(event, 'userId')),
};

export const passwordResetEmailRule: DispatchRule = {
  request: 'PasswordResetRequested',
  completions: ['PasswordResetEmailSent'],
  queue: PASSWORD_RESET_EMAIL_QUEUE,
  name: 'send-password-reset-email',
  jobId: (event) =>
    passwordResetEmailJobId(
      passwordResetEmailPayload.parse({ userId: text(event, 'userId'), requestId: text(event, 'requestId') }).requestId,
    ),
  payload: (event) =>
    passwordResetEmailPayload.parse({ userId: text(event, 'userId'), requestId: text(event, 'requestId'), language: languageOf(event) }),
  matchCompletion: (event) => passwordResetEmailJobId(text(event, 'requestId')),
};

const settlementRequest = (event: RecordedEvent) =>
  settlementPayload.parse({
    payerWalletId: text(event, 'walletId'),
    transferId: text(event, 'transferId'),
    reservedAt: text(event, 'reservedAt'),
  });

/**
 * A send's settlement. The request is the reservation on the payer's stream; it is done when the
 * same stream posts or voids the transfer. Every wallet event names its wallet, so the payer is
 * read from the data, not parsed out of the stream name.
 */
export const settlementRule: DispatchRule = {
  request: 'TransferReserved',
  completions: ['TransferPosted', 'TransferVoided'],
  queue: SETTLEMENT_QUEUE,
  name: SETTLEMENT_JOB_NAME,
  jobId: (event) => settlementJobId(settlementRequest(event).transferId),
  payload: (event) => settlementRequest(event),
  matchCompletion: (event) => settlementJobId(text(event, 'transferId')),
  // A transfer between Quern wallets recorded with its post and credit in the same atomic append
  // (ADR 019) is settled already; only external sends and older internal reservations need a job.
  needsJob: (event) => event.data.settledAtOnce !== true,
};

const depositRequest = (event: RecordedEvent) =>
  depositConfirmationPayload.parse({ walletId: text(event, 'walletId'), depositId: text(event, 'depositId') });

/** A deposit seen on the network waits for stability; it is done when confirmed or rejected. */
export const depositConfirmationRule: DispatchRule = {
  request: 'DepositReceived',
  completions: ['DepositConfirmed', 'DepositRejected'],
  queue: DEPOSIT_CONFIRMATION_QUEUE,
  name: DEPOSIT_CONFIRMATION_JOB_NAME,
  jobId: (event) => {
    const { walletId, depositId } = depositRequest(event);
    return depositConfirmationJobId(walletId, depositId);
  },
  payload: (event) => depositRequest(event),
  matchCompletion: (event) => depositConfirmationJobId(text(event, 'walletId'), text(event, 'depositId')),
};

export const dispatchRules: readonly DispatchRule[] = [welcomeEmailRule, passwordResetEmailRule, settlementRule, depositConfirmationRule];

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
