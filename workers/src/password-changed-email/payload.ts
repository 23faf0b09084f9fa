/** The password-changed notice job's data: ids only; names, address and time come from the log. */
import { languages } from '@quern/core/i18n';
import { z } from 'zod';
import { idSchema } from '../ids.js';

export const passwordChangedEmailPayload = z
  .object({ userId: idSchema, changeId: idSchema, language: z.enum(languages).default('en') })
  .strict();
export type PasswordChangedEmailPayload = z.infer<typeof passwordChangedEmailPayload>;
export const passwordChangedEmailJobId = (changeId: string): string => `password-changed-email-${changeId}`;
