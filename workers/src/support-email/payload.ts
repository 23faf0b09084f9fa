/** The support e-mail job's data: the message id only; the job reads the message from its stream. */
import { SUPPORT_MESSAGE_ID_PATTERN } from '@quern/core/contact';
import { z } from 'zod';

export const SUPPORT_EMAIL_QUEUE = 'support-email';
export const SUPPORT_EMAIL_JOB_NAME = 'send-support-email';

export const supportEmailPayload = z.object({ messageId: z.string().regex(SUPPORT_MESSAGE_ID_PATTERN) }).strict();
export type SupportEmailPayload = z.infer<typeof supportEmailPayload>;
export const supportEmailJobId = (messageId: string): string => `support-email-${messageId}`;
