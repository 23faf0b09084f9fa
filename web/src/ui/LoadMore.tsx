/**
 * "Load more" for the cursor-paged lists (ADR 057): a provider's plans, a plan's subscribers, a
 * user's subscriptions. Each list is one infinite query (tRPC's infiniteQueryOptions, the
 * previous page's next_cursor as the next `cursor`), so every page loaded is in the query cache:
 * invalidating the list after an edit refetches each loaded page, and no row keeps a stale status.
 * The spec defines numbered pages only for the wallet's transactions; these lists had no paging
 * in the spec, so they grow in place and keep the reader's position.
 */
import { useTranslation } from 'react-i18next';
import { FormAlert } from './FormAlert.js';

export interface CursorPage<T> {
  content: T[];
  next_cursor: string | null;
}

/** Items per page the web asks for: enough to fill a screen or two, small enough to render fast. */
export const WEB_LIST_PAGE = 100;

/** The infinite query's next page: the server's next_cursor, none on the last page. */
export const nextPageOf = (page: { next_cursor?: string | null | undefined }): string | undefined => page.next_cursor ?? undefined;

export interface LoadMoreState<T> {
  /** Every loaded page's items, in order. */
  items: T[];
  hasMore: boolean;
  loadMore: () => Promise<unknown>;
  loading: boolean;
  failed: boolean;
}

/** What the list reads of its infinite query (useInfiniteQuery's result). */
export interface CursorPagesQuery<T> {
  data: { pages: CursorPage<T>[] } | undefined;
  hasNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
  isFetchingNextPage: boolean;
  isError: boolean;
  isFetchNextPageError: boolean;
}

export function loadMoreState<T>(query: CursorPagesQuery<T>): LoadMoreState<T> {
  return {
    items: query.data?.pages.flatMap((page) => page.content) ?? [],
    hasMore: query.hasNextPage,
    loadMore: () => query.fetchNextPage(),
    loading: query.isFetchingNextPage,
    failed: query.isFetchNextPageError,
  };
}

/** The list could not be read (the first page, or a refetch); a failed further page is the button's to show. */
export const listFailed = (query: Pick<CursorPagesQuery<unknown>, 'isError' | 'isFetchNextPageError'>): boolean =>
  query.isError && !query.isFetchNextPageError;

export function LoadMoreButton({ state }: { state: Pick<LoadMoreState<unknown>, 'hasMore' | 'loadMore' | 'loading' | 'failed'> }) {
  const { t } = useTranslation('common');
  if (!state.hasMore) return null;
  return (
    <div className="load-more">
      {state.failed ? <FormAlert kind="error">{t('loadMoreFailed')}</FormAlert> : null}
      <button type="button" className="button" disabled={state.loading} onClick={() => void state.loadMore()}>
        {state.loading ? t('loading') : t('loadMore')}
      </button>
    </div>
  );
}
