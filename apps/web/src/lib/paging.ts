/**
 * Client-side paging shared by every list screen (spec part 1, section 2 "Common behaviour of
 * list screens"). Pages are 1-based.
 */

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
