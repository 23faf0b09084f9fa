/** The password reset e-mail job's data: ids only; expiry and address come from the log. */
import { languages } from '@quern/core/i18n';
import { z } from 'zod';
import { idSchema } from '../ids.js';

export const passwordResetEmailPayload = z
  .object({ userId: idSchema, requestId: idSchema, language: z.enum(languages).default('en') })
  .strict();
export type PasswordResetEmailPayload = z.infer<typeof passwordResetEmailPayload>;
export const passwordResetEmailJobId = (requestId: string): string => `password-reset-email-${requestId}`;
