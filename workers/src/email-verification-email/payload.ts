/** The verification e-mail job's data: ids only; expiry and address come from the log (ADR 046). */
import { languages } from '@quern/core/i18n';
import { z } from 'zod';
import { idSchema } from '../ids.js';

export const emailVerificationEmailPayload = z
  .object({ userId: idSchema, requestId: idSchema, language: z.enum(languages).default('en') })
  .strict();
export type EmailVerificationEmailPayload = z.infer<typeof emailVerificationEmailPayload>;
export const emailVerificationEmailJobId = (requestId: string): string => `email-verification-email-${requestId}`;
