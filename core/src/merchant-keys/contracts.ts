/** The API Direct calls' outputs, shared by tRPC, REST and the web page (spec section 7). */
import { z } from 'zod';

export const keyGetOutput = z.object({
  status: z.literal('success'),
  /** The key masked (prefix … last four), or null when the merchant has none. */
  content: z.object({ api_key: z.string().nullable() }),
});
export type KeyGetOutput = z.infer<typeof keyGetOutput>;

export const keyGenerateOutput = z.object({
  status: z.literal('success'),
  message: z.string(),
  /** The full key: shown once, never retrievable again. */
  content: z.object({ api_key: z.string() }),
});
export type KeyGenerateOutput = z.infer<typeof keyGenerateOutput>;

export const keyDeleteOutput = z.object({ status: z.literal('success'), message: z.string() });
export type KeyDeleteOutput = z.infer<typeof keyDeleteOutput>;
