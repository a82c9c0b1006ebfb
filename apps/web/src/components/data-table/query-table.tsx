import { useEffect } from 'react';
import { pageCount, type ServerPagingState } from '@/lib/paging';
import { DataTable, type DataTableProps } from './data-table';

/** What the table reads of a TanStack query (`useQuery(...)`'s result fits). */
export interface TableQuery<TResult> {
  data: TResult | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  /** The data is the previous request's, shown while the next one loads. */
  isPlaceholderData?: boolean;
  refetch: () => unknown;
}

/** One page of a server-paged list, and the size of the whole list. */
export interface ListPage<TData> {
  data: readonly TData[];
  totalCount: number;
}

type StateProps = 'data' | 'isLoading' | 'error' | 'onRetry';
type ClientTableProps<TData> = Omit<DataTableProps<TData>, StateProps | 'server'> & {
  pageSizeKey: NonNullable<DataTableProps<TData>['pageSizeKey']>;
};
type ServerTableProps<TData> = Omit<
  DataTableProps<TData>,
  StateProps | 'server' | 'pageSizeKey' | 'initialSorting'
>;

/**
 * A list screen's table on its query: the query's loading, error (with Retry), empty and
 * populated states. With a whole list (`query` of rows) the table sorts and pages in the browser;
 * with `paging` (`useServerPaging`) the query answers one `ListPage`, and the table shows that page,
 * reports page, size and sort changes to `paging`, and steps back to the last page when the list
 * shrank under the page shown.
 */
export function QueryTable<TData>(
  props:
    | ({ query: TableQuery<readonly TData[]>; paging?: never } & ClientTableProps<TData>)
    | ({
        query: TableQuery<ListPage<TData>>;
        paging: ServerPagingState;
        sortable?: boolean;
      } & ServerTableProps<TData>),
) {
  if (props.paging) return <ServerQueryTable {...props} paging={props.paging} />;
  const { query, ...table } = props;
  return (
    <DataTable<TData>
      {...table}
      data={query.data}
      isLoading={query.isPending}
      error={query.isError ? query.error : undefined}
      onRetry={() => void query.refetch()}
    />
  );
}

function ServerQueryTable<TData>({
  query,
  paging,
  sortable = false,
  ...table
}: {
  query: TableQuery<ListPage<TData>>;
  paging: ServerPagingState;
  sortable?: boolean;
} & ServerTableProps<TData>) {
  const totalCount = query.data?.totalCount;
  const { page, pageSize, setPage } = paging;
  useEffect(() => {
    if (totalCount === undefined || query.isPlaceholderData) return;
    const last = pageCount(totalCount, pageSize);
    if (page > last) setPage(last);
  }, [page, pageSize, totalCount, query.isPlaceholderData, setPage]);

  return (
    <DataTable<TData>
      {...table}
      data={query.data?.data}
      isLoading={query.isPending}
      error={query.isError ? query.error : undefined}
      onRetry={() => void query.refetch()}
      server={{
        page,
        pageSize,
        totalCount: totalCount ?? 0,
        onPageChange: setPage,
        onPageSizeChange: paging.setPageSize,
        ...(sortable ? { sorting: paging.sorting, onSortingChange: paging.setSorting } : {}),
      }}
    />
  );
}
