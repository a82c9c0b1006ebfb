/**
 * Paging of the tenant portal's lists (entities, entity users). The spec sends the page size and
 * pages locally (spec part 1, sections 7 and 9); our server answers one page at a time
 * (`{data, totalCount, offset, limit}`, docs/tenants.md), so the screens ask for exactly the page
 * they show: `offset=(page-1)*size&limit=size`, with the same controls and the remembered page
 * size. Changing the sort or the page size goes back to page 1.
 */
import { useEffect, useState } from 'react';
import type { SortingState } from '@tanstack/react-table';
import type { PageSize } from '@console/contracts';
import { usePageSize } from '@/lib/page-size-storage';
import { pageCount } from '@/lib/paging';
import type { PageSizeKey } from '@/lib/storage-keys';

export interface PortalPageRequest {
  offset: number;
  limit: number;
  /** The server's sort parameter, e.g. '-partyEntityId'; undefined for its default order. */
  sort: string | undefined;
}

/** `?offset&limit[&sort]` of a list call. */
export function portalPageQuery({ offset, limit, sort }: PortalPageRequest): string {
  const params = new URLSearchParams({ offset: String(offset), limit: String(limit) });
  if (sort) params.set('sort', sort);
  return params.toString();
}

/** The server's sort parameter of the table's sorting: the column id, '-' when descending. */
export function sortParam(sorting: SortingState): string | undefined {
  const [first] = sorting;
  return first ? `${first.desc ? '-' : ''}${first.id}` : undefined;
}

export function usePortalPaging(pageSizeKey: PageSizeKey) {
  const [pageSize, setStoredPageSize] = usePageSize(pageSizeKey);
  const [page, setPage] = useState(1);
  const [sorting, setSortingState] = useState<SortingState>([]);
  const request: PortalPageRequest = {
    offset: (page - 1) * pageSize,
    limit: pageSize,
    sort: sortParam(sorting),
  };
  return {
    page,
    pageSize,
    sorting,
    request,
    setPage,
    setPageSize: (size: PageSize) => {
      setStoredPageSize(size);
      setPage(1);
    },
    setSorting: (next: SortingState) => {
      setSortingState(next);
      setPage(1);
    },
  };
}

/** When the list shrank under the page shown (rows were removed elsewhere), show its last page. */
export function useStayWithinPages(
  page: number,
  pageSize: number,
  totalCount: number | undefined,
  setPage: (page: number) => void,
) {
  useEffect(() => {
    if (totalCount === undefined) return;
    const last = pageCount(totalCount, pageSize);
    if (page > last) setPage(last);
  }, [page, pageSize, totalCount, setPage]);
}
