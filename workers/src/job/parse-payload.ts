/** Every job's payload check: what fails to parse now fails on every retry too, so it is not retried. */
import { UnrecoverableError } from 'bullmq';
import type { z } from 'zod';

/** A payload that does not parse will not parse on a retry either. */
export function parsePayload<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new UnrecoverableError(`Invalid job payload: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
