/**
 * Paging of every list screen (spec part 1, section 2 "Common behaviour of list screens"), in the
 * browser or on the server. Pages are 1-based.
 *
 * A server-paged screen keeps its paging state with `useServerPaging` (page, remembered page size,
 * sorting; a new sort or page size goes back to page 1) and hands it to `QueryTable`. The screen's
 * API call turns it into the server's query names at the edge: `offsetPageQuery` for the tenant
 * portal's `?offset&limit&sort` lists, the events call its own `?page&pageSize&sortOrder`.
 */
import { useCallback, useState } from 'react';
import type { SortingState } from '@tanstack/react-table';
import type { PageSize } from '@console/contracts';
import { usePageSize } from './page-size-storage';
import type { PageSizeKey } from './storage-keys';

/** Number of pages; at least 1, so an empty list still shows 'page 1 of 1'. */
export function pageCount(totalItems: number, pageSize: number): number {
  if (!(pageSize >= 1) || !(totalItems > 0)) return 1;
  return Math.max(1, Math.ceil(totalItems / Math.floor(pageSize)));
}

/** The page brought into 1..pageCount (a non-number becomes 1). */
export function clampPage(page: number, pageCount: number): number {
  const last = Math.max(1, Math.floor(pageCount) || 1);
  if (Number.isNaN(page)) return 1;
  return Math.min(Math.max(1, Math.floor(page)), last);
}

/** The items shown on a page; empty for a page past the end. */
export function pageItems<T>(items: readonly T[], page: number, pageSize: number): T[] {
  const size = Math.max(1, Math.floor(pageSize) || 1);
  const start = (Math.max(1, Math.floor(page) || 1) - 1) * size;
  return items.slice(start, start + size);
}

/** Deleting the last item of a page moves back one page, never below page 1. */
export function pageAfterDelete(page: number, itemsOnPageBeforeDelete: number): number {
  return itemsOnPageBeforeDelete <= 1 && page > 1 ? page - 1 : page;
}

/** The numbers of 'Showing {from} to {to} of {total} entries'; 0 to 0 when there is nothing. */
export function showingRange(
  page: number,
  pageSize: number,
  total: number,
): { from: number; to: number } {
  if (!(total > 0)) return { from: 0, to: 0 };
  const size = Math.max(1, Math.floor(pageSize) || 1);
  const current = clampPage(page, pageCount(total, size));
  return { from: (current - 1) * size + 1, to: Math.min(current * size, total) };
}

/** One page of an `?offset&limit[&sort]` list (the tenant portal's entities and entity users). */
export interface OffsetPageRequest {
  offset: number;
  limit: number;
  /** The server's sort parameter, e.g. '-partyEntityId'; undefined for its default order. */
  sort: string | undefined;
}

/** `offset=…&limit=…[&sort=…]` of a list call. */
export function offsetPageQuery({ offset, limit, sort }: OffsetPageRequest): string {
  const params = new URLSearchParams({ offset: String(offset), limit: String(limit) });
  if (sort) params.set('sort', sort);
  return params.toString();
}

/** The server's sort parameter of the table's sorting: the column id, '-' when descending. */
export function sortParam(sorting: SortingState): string | undefined {
  const [first] = sorting;
  return first ? `${first.desc ? '-' : ''}${first.id}` : undefined;
}

export interface ServerPagingState {
  /** 1-based. */
  page: number;
  pageSize: PageSize;
  sorting: SortingState;
  setPage: (page: number) => void;
  /** Stores the size for the screen and goes back to page 1. */
  setPageSize: (size: PageSize) => void;
  /** Goes back to page 1. */
  setSorting: (sorting: SortingState) => void;
  /** The `?offset&limit&sort` request of the page shown. */
  offsetRequest: OffsetPageRequest;
}

/**
 * The paging state of a screen whose server answers one page at a time: the screen asks for
 * exactly the page it shows, with the page size remembered under `pageSizeKey`.
 */
export function useServerPaging(
  pageSizeKey: PageSizeKey,
  initialSorting: SortingState = [],
): ServerPagingState {
  const [pageSize, storePageSize] = usePageSize(pageSizeKey);
  const [page, setPage] = useState(1);
  const [sorting, setSortingState] = useState<SortingState>(initialSorting);
  const setPageSize = useCallback(
    (size: PageSize) => {
      storePageSize(size);
      setPage(1);
    },
    [storePageSize],
  );
  const setSorting = useCallback((next: SortingState) => {
    setSortingState(next);
    setPage(1);
  }, []);
  return {
    page,
    pageSize,
    sorting,
    setPage,
    setPageSize,
    setSorting,
    offsetRequest: { offset: (page - 1) * pageSize, limit: pageSize, sort: sortParam(sorting) },
  };
}

/**
 * Where a page of a page-numbered list (events, audit log) is read from: after the last row of the
 * page before (Next), before the first row of the page after (Previous), or, with neither, by its
 * number. The server answers a step in the time of a first page at any depth, and rows recorded
 * meanwhile do not shift the pages (contracts `pageNumberQueryShape`).
 */
export interface PageCursor {
  after?: number;
  before?: number;
}

/** The cursor of going from `page` to `next` while `shown` (the rows of `page`) are on screen. */
export function cursorTowards(
  page: number,
  next: number,
  shown: readonly { id: number }[] | undefined,
): PageCursor {
  const first = shown?.[0];
  const last = shown?.at(-1);
  if (next === page + 1 && last) return { after: last.id };
  // Page 1 is the top of the list, whatever came in since: it is read by its number.
  if (next === page - 1 && next > 1 && first) return { before: first.id };
  return {};
}

/**
 * Previous and Next of a page-numbered list as steps from the rows on screen (PageCursor): any
 * other move (back to page 1 after a new filter, size or sort, the last page when the list
 * shrank) reads the page by its number.
 */
export function usePageCursor(paging: ServerPagingState): {
  /** The cursor of the page shown, for its request. */
  cursor: PageCursor;
  /** `paging` whose page changes step from `shown`, the rows of its page (undefined: not loaded). */
  steppingFrom: (shown: readonly { id: number }[] | undefined) => ServerPagingState;
} {
  const [step, setStep] = useState<{ page: number; cursor: PageCursor }>({ page: 1, cursor: {} });
  return {
    cursor: step.page === paging.page ? step.cursor : {},
    steppingFrom: (shown) => ({
      ...paging,
      setPage: (next) => {
        setStep({ page: next, cursor: cursorTowards(paging.page, next, shown) });
        paging.setPage(next);
      },
    }),
  };
}

/** `after` or `before` of a page-numbered list's request, when the page steps from a row. */
export function setCursorParams(params: URLSearchParams, cursor: PageCursor): void {
  if (cursor.after !== undefined) params.set('after', String(cursor.after));
  if (cursor.before !== undefined) params.set('before', String(cursor.before));
}
