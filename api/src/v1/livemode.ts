/**
 * `livemode` on every object the merchant API answers (ADR 050), as Stripe marks each object:
 * false from a sandbox (test money only), true from a live Quern. Added once, where the router
 * sends an answer, rather than in each slice's contract: the same objects also answer the web
 * app over tRPC, where the banner already says the mode. The objects are the answer itself and,
 * in a list (`object: 'list'`), each item of `data`; the OpenAPI document describes the field on
 * exactly those (livemodeSchema).
 */
import { type ZodType, z } from 'zod';

export const LIVEMODE_FIELD = 'livemode';

const livemodeField = z
  .boolean()
  .meta({ description: 'false when this Quern is a sandbox (test money only); true when it is live (real money).' });

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answer with `livemode` on it and, for a list, on each of its items. */
export function withLivemode(output: unknown, livemode: boolean): unknown {
  if (!isPlainObject(output)) return output;
  const data = Array.isArray(output.data) ? output.data.map((item) => (isPlainObject(item) ? { ...item, livemode } : item)) : undefined;
  return { ...output, ...(data === undefined ? {} : { data }), livemode };
}

/** The answer's schema as withLivemode shapes it: `livemode` required on the object and on each list item. */
export function livemodeSchema(schema: ZodType): ZodType {
  if (!(schema instanceof z.ZodObject)) return schema;
  const data = schema.shape.data;
  const items =
    data instanceof z.ZodArray && data.element instanceof z.ZodObject
      ? { data: z.array(data.element.extend({ livemode: livemodeField })) }
      : {};
  return schema.extend({ ...items, livemode: livemodeField });
}
