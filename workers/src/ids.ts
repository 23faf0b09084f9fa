/** Ids in job payloads follow the reset token's id rule (core), so one pattern guards both. */
import { ID_PATTERN } from '@quern/core/identity';
import { z } from 'zod';

export const idSchema = z.string().regex(ID_PATTERN);
