/**
 * The notice e-mails' job data (issue 25): the kind of notice and the one event it is about, named
 * by its stream and revision. Everything the mail says (recipient, amounts, names) is read from the
 * log when the job runs, so a payload holds no personal data.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

export const NOTICE_EMAIL_QUEUE = 'notice-email';
export const NOTICE_EMAIL_JOB_NAME = 'send-notice-email';

export const noticeKinds = [
  'checkoutReceipt',
  'checkoutPaid',
  'moneyReceived',
  'checkoutRefund',
  'purchaseRefund',
  'twoFactorEnabled',
  'twoFactorDisabled',
  'apiKeyGenerated',
] as const;
export type NoticeKind = (typeof noticeKinds)[number];

/** Stream ids Quern writes the source events to (`wallet-…`, `checkout-…`, `user-…`, `merchant-keys-…`). */
const STREAM_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,200}$/;

export const noticeEmailPayload = z
  .object({
    kind: z.enum(noticeKinds),
    streamId: z.string().regex(STREAM_ID_PATTERN),
    revision: z.string().regex(/^(0|[1-9][0-9]{0,18})$/),
  })
  .strict();
export type NoticeEmailPayload = z.infer<typeof noticeEmailPayload>;

/**
 * One notice's id: its kind and a digest of the event it is about, so the same event always names
 * the same notice (live, after a restart, or re-derived) and ids stay short and free of user ids.
 * Letters, digits and '-' only, so it fits job ids, stream ids and Message-IDs alike.
 */
export function noticeIdOf({ kind, streamId, revision }: NoticeEmailPayload): string {
  const digest = createHash('sha256').update(`${streamId}@${revision}`).digest('hex').slice(0, 32);
  return `${kind}-${digest}`;
}

export const noticeEmailJobId = (noticeId: string): string => `notice-email-${noticeId}`;
export const noticeMessageKey = (noticeId: string): string => `notice-${noticeId}`;

/** The stream that records the notice done; created once ('no stream'), so two runs cannot both record it. */
export const noticeEmailStream = (noticeId: string): string => `notice-email-${noticeId}`;

/**
 * How a notice ended: sent, or nothing to send (deleted or unverified recipient, too old to matter,
 * or no account behind the wallet or user named).
 */
export type NoticeOutcome = 'sent' | 'recipient-deleted' | 'unverified' | 'stale' | 'no-account';

/** The completion event, on the notice's own stream. */
export const NOTICE_EMAIL_DONE = 'NoticeEmailDone';
export const noticeEmailDoneData = z.object({
  noticeId: z.string().min(1).max(200),
  kind: z.enum(noticeKinds),
  outcome: z.enum(['sent', 'recipient-deleted', 'unverified', 'stale', 'no-account']),
  messageId: z.string().max(300).optional(),
  doneAt: z.string().min(1).max(40),
});
export type NoticeEmailDone = { type: typeof NOTICE_EMAIL_DONE; data: z.infer<typeof noticeEmailDoneData> };
