// Proves the list pages' request and answer helpers (ADR 057): no page fields ask for the first
// LIST_PAGE_MAX items, a cursor asks for the items after the position it names, and the read
// model's next position becomes the cursor that asks for the page after it (null on the last).
import { describe, expect, it } from 'vitest';
import { encodeListCursor, LIST_PAGE_MAX, nextCursor, pageRequest } from './list-page.js';

describe('list pages', () => {
  it('asks for the first LIST_PAGE_MAX items without page fields, and for the items after a cursor with one', () => {
    expect(pageRequest(undefined)).toEqual({ limit: LIST_PAGE_MAX, after: undefined });
    expect(pageRequest({ limit: 10 })).toEqual({ limit: 10, after: undefined });
    expect(pageRequest({ limit: 5, cursor: encodeListCursor(123_456n) })).toEqual({ limit: 5, after: 123_456n });
  });

  it('answers the next position as the cursor of the next page, and null on the last page', () => {
    expect(nextCursor(undefined)).toBeNull();
    const cursor = nextCursor(987n);
    expect(cursor).toBe('c1_rf');
    expect(pageRequest({ cursor: cursor as string }).after).toBe(987n);
  });
});
