/**
 * Cursor pages over the plans and subscriptions lists (ADR 057): a provider's plans, a plan's
 * subscribers, a user's subscriptions. Each list is kept in log order (the read model scores an
 * item by the log position of the event that created it, unique and never changing), so a page
 * is "the next `limit` items after this position", stable while items are added or removed.
 * The cursor is opaque to callers (`c1_` and the position in base 36): the version prefix lets
 * the format change; anything else is a 400 with a message, never an empty page.
 */
import { z } from 'zod';

/** Items per page at most; also the default, so a caller unaware of cursors sees what it saw before. */
export const LIST_PAGE_MAX = 1_000;
const CURSOR = /^c1_[0-9a-z]{1,13}$/;

export const encodeListCursor = (position: bigint): string => `c1_${position.toString(36)}`;

/** The position a cursor names, or undefined when it is not one of ours. */
export function decodeListCursor(cursor: string): bigint | undefined {
  if (!CURSOR.test(cursor)) return undefined;
  let position = 0n;
  for (const digit of cursor.slice(3)) position = position * 36n + BigInt(Number.parseInt(digit, 36));
  return position <= 9_007_199_254_740_991n ? position : undefined;
}

const cursorField = z
  .string({ error: 'errors:listCursorInvalid' })
  .max(20, { error: 'errors:listCursorInvalid' })
  .refine((value) => decodeListCursor(value) !== undefined, { error: 'errors:listCursorInvalid' })
  .meta({ description: 'The `next_cursor` of the previous page; absent for the first page.' });
const limitField = z
  .number({ error: 'errors:listLimitInvalid' })
  .int({ error: 'errors:listLimitInvalid' })
  .min(1, { error: 'errors:listLimitInvalid' })
  .max(LIST_PAGE_MAX, { error: 'errors:listLimitInvalid' });

/** The page fields of a JSON body or a tRPC input. */
export const listPageShape = { limit: limitField.optional(), cursor: cursorField.optional() };
export const listPageInput = z.strictObject(listPageShape);
/**
 * tRPC's infinite queries (the web's "Load more") send the direction of the page asked for with
 * its cursor; these lists page forward only.
 */
export const pageDirectionShape = { direction: z.literal('forward', { error: 'errors:listCursorInvalid' }).optional() };
export const infinitePageInput = z.strictObject({ ...listPageShape, ...pageDirectionShape });
/** The same fields in a query string (digits only for the limit: no coercion of `1e3` or ` 5`). */
export const listPageQueryShape = {
  limit: z
    .string({ error: 'errors:listLimitInvalid' })
    .regex(/^[0-9]{1,4}$/, { error: 'errors:listLimitInvalid' })
    .transform(Number)
    .pipe(limitField)
    .optional(),
  cursor: cursorField.optional(),
};
/** A query string's page fields alone (`GET /api/subscriptions/all`). */
export const listPageQuery = z.strictObject(listPageQueryShape);
export type ListPage = { limit?: number; cursor?: string };

/** The position after which a page starts; undefined for the first page (a cursor is checked by the schemas already). */
export const pageAfter = (page: ListPage | undefined): bigint | undefined =>
  page?.cursor === undefined ? undefined : decodeListCursor(page.cursor);

/** The read model's page for a caller's page fields: LIST_PAGE_MAX items when no limit is given. */
export const pageRequest = (page: ListPage | undefined): { limit: number; after: bigint | undefined } => ({
  limit: page?.limit ?? LIST_PAGE_MAX,
  after: pageAfter(page),
});

/** The answer's `next_cursor` for the read model's next position; null on the last page. */
export const nextCursor = (next: bigint | undefined): string | null => (next === undefined ? null : encodeListCursor(next));

export const nextCursorField = z.string().nullable().meta({ description: 'Pass it as `cursor` for the next page; null on the last page.' });
