/**
 * The dashboard's pagination (spec, Dashboard): First, Prev, a window of 5 numbered buttons
 * around the current page (the current one bold and disabled), Next, Last. Pages are 0-based,
 * as the API's `page` parameter is; the buttons show 1-based labels.
 */

export const PAGINATION_WINDOW_SIZE = 5;

export interface PageButton {
  /** 0-based page to request. */
  page: number;
  /** What the button shows (page + 1). */
  label: number;
  /** The page on screen: shown bold and disabled. */
  current: boolean;
}

export interface Pagination {
  /** ceil(total / limit); 0 when there is nothing to show. */
  pageCount: number;
  buttons: PageButton[];
  firstDisabled: boolean;
  prevDisabled: boolean;
  nextDisabled: boolean;
  lastDisabled: boolean;
  /** Targets of First, Prev, Next, Last (meaningless while disabled). */
  firstPage: number;
  prevPage: number;
  nextPage: number;
  lastPage: number;
}

function assertCount(name: string, value: number, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum)
    throw new RangeError(`paginate: ${name} must be an integer >= ${minimum}, got ${value}`);
}

/**
 * The window keeps the current page in the middle when it can, and slides to stay 5 wide at the
 * ends: page 0 of 10 shows 1-5, page 5 shows 4-8, page 9 shows 6-10. A page past the end (the
 * history shrank, or a typed URL) disables Next and Last and shows the last window.
 */
export function paginate(input: { page: number; total: number; limit: number }): Pagination {
  const { page, total, limit } = input;
  assertCount('page', page, 0);
  assertCount('total', total, 0);
  assertCount('limit', limit, 1);
  const pageCount = Math.ceil(total / limit);
  const lastPage = Math.max(pageCount - 1, 0);
  const half = Math.floor(PAGINATION_WINDOW_SIZE / 2);
  const start = Math.max(0, Math.min(page - half, pageCount - PAGINATION_WINDOW_SIZE));
  const end = Math.min(pageCount, start + PAGINATION_WINDOW_SIZE);
  const buttons: PageButton[] = [];
  for (let p = start; p < end; p += 1) buttons.push({ page: p, label: p + 1, current: p === page });
  const onFirst = page === 0;
  const onLast = page >= lastPage;
  return {
    pageCount,
    buttons,
    firstDisabled: onFirst,
    prevDisabled: onFirst,
    nextDisabled: onLast,
    lastDisabled: onLast,
    firstPage: 0,
    prevPage: Math.max(Math.min(page, lastPage + 1) - 1, 0),
    nextPage: Math.min(page + 1, lastPage),
    lastPage,
  };
}
