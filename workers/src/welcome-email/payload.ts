/** The welcome e-mail job's data: ids only; the job reads names and address from the log. */
import { languages } from '@quern/core/i18n';
import { z } from 'zod';
import { idSchema } from '../ids.js';

export const welcomeEmailPayload = z.object({ userId: idSchema, language: z.enum(languages).default('en') }).strict();
export type WelcomeEmailPayload = z.infer<typeof welcomeEmailPayload>;
export const welcomeEmailJobId = (userId: string): string => `welcome-email-${userId}`;
