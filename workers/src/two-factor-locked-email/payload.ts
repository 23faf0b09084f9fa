/** The two-factor lock notice job's data: ids only; the address, name, times and language come from the log. */
import { z } from 'zod';
import { idSchema } from '../ids.js';

export const twoFactorLockedEmailPayload = z.object({ userId: idSchema, lockId: idSchema }).strict();
export type TwoFactorLockedEmailPayload = z.infer<typeof twoFactorLockedEmailPayload>;
export const twoFactorLockedEmailJobId = (lockId: string): string => `two-factor-locked-email-${lockId}`;
