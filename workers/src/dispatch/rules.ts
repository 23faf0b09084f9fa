/**
 * The dispatch rules: which event asks for which job, and which event records it as done. The
 * job id is derived from the request alone, so the same request always maps to the same job,
 * whether it is enqueued live, again after a restart, or re-derived after Redis was lost.
 */
import type { RecordedEvent } from '@quern/core';
import { PASSWORD_RESET_EMAIL_QUEUE, WELCOME_EMAIL_QUEUE } from '../jobs.js';
import { languageOf } from '../language.js';
import { passwordResetEmailJobId, passwordResetEmailPayload } from '../password-reset-email/payload.js';
import { welcomeEmailJobId, welcomeEmailPayload } from '../welcome-email/payload.js';

export interface DispatchRule {
  /** Event type that asks for the work. */
  request: string;
  /** Event type that records the work as done. */
  completion: string;
  queue: string;
  /** BullMQ job name. */
  name: string;
  /** Deterministic: a pure function of the request event. Throws when the event is malformed. */
  jobId(request: RecordedEvent): string;
  /** The job's data, already valid for the job's payload schema. Throws when the event is malformed. */
  payload(request: RecordedEvent): Record<string, unknown>;
  /** The job id this completion event closes, so matching requests and completions is a lookup. */
  matchCompletion(completion: RecordedEvent): string;
}

const text = (event: RecordedEvent, field: string): string => {
  const value = event.data[field];
  if (typeof value !== 'string') throw new Error(`${event.type} at position ${event.position} has no ${field}`);
  return value;
};

export const welcomeEmailRule: DispatchRule = {
  request: 'UserRegistered',
  completion: 'WelcomeEmailSent',
  queue: WELCOME_EMAIL_QUEUE,
  name: 'send-welcome-email',
  jobId: (event) => welcomeEmailJobId(welcomeEmailPayload.parse({ userId: text(event, 'userId') }).userId),
  payload: (event) => welcomeEmailPayload.parse({ userId: text(event, 'userId'), language: languageOf(event) }),
  matchCompletion: (event) => welcomeEmailJobId(text(event, 'userId')),
};

export const passwordResetEmailRule: DispatchRule = {
  request: 'PasswordResetRequested',
  completion: 'PasswordResetEmailSent',
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

export const dispatchRules: readonly DispatchRule[] = [welcomeEmailRule, passwordResetEmailRule];

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
    .filter((rule) => rule.request === event.type)
    .map((rule) => ({ queue: rule.queue, name: rule.name, jobId: rule.jobId(event), data: rule.payload(event), position: event.position }));
}
