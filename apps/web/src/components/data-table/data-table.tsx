/**
 * The one table of the list screens (spec part 1, section 2, "Common behaviour of list screens"),
 * on TanStack Table: sortable headers, a page-size selector remembered per screen, Previous / Next,
 * 'page X of Y', and the four states loading, error, empty and populated.
 *
 * Client mode (the default) sorts and pages in the browser: changing the sort or the page size
 * goes back to page 1, and a screen that deleted a row calls `ref.current.rowDeleted()` to step
 * back a page when the row was the last one of its page. Server mode (`server` prop) shows the
 * page the screen fetched and reports page changes to it. The pager's words are the screen's
 * (`pagerTexts`); screens usually reach this table through `QueryTable`.
 */
import { useImperativeHandle, useRef, useState, type ComponentProps, type Ref } from 'react';
import {
  flexRender,
  functionalUpdate,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type Header,
  type OnChangeFn,
  type SortingState,
  type Table as TanStackTable,
} from '@tanstack/react-table';
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ApiErrorAlert } from '@/components/api-error-alert';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { cn } from '@/components/ui/utils';
import { usePageSize } from '@/lib/page-size-storage';
import { clampPage, pageAfterDelete, pageCount as countPages } from '@/lib/paging';
import type { PageSizeKey } from '@/lib/storage-keys';
import {
  DataTablePagination,
  type DataTablePaginationProps,
  type PagerTexts,
} from './data-table-pagination';
import { addNamespaces } from '@/lib/i18n';
import { table } from '@/locales/en.json?table&lang.json';

addNamespaces({ table });

/** Column options read by DataTable, set in a column definition's `meta`. */
declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    /** Classes of the column's header and body cells. */
    className?: string;
  }
}

export interface DataTableHandle {
  /**
   * Call after a row of the current page was deleted: deleting the last item on a page moves
   * back one page (spec part 1, section 2).
   */
  rowDeleted: () => void;
  /** Back to page 1 (client mode). */
  resetPage: () => void;
}

/** The page the screen fetched, and where the pager reports changes. */
export interface ServerPaging extends Pick<
  DataTablePaginationProps,
  'page' | 'pageSize' | 'onPageChange' | 'onPageSizeChange'
> {
  totalCount: number;
  /** Server-side sorting; without it the headers do not sort. */
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
}

interface DataTableCommonProps<TData> {
  // TanStack's own column type: each column has its own value type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<TData, any>[];
  /** The rows; undefined while nothing was loaded. */
  data: readonly TData[] | undefined;
  /** Accessible name of the table, e.g. the screen title. */
  label: string;
  /** What the table says when there is no row (per screen). */
  emptyText: string;
  /** The first load runs: skeleton rows and 'Loading...'. */
  isLoading?: boolean;
  /** The last load failed: the error text and, with `onRetry`, a Retry button. */
  error?: unknown;
  /** The screen's words for a failed load (default: 'API Error: {message} (Status: ...)'). */
  errorText?: (error: unknown) => string;
  /** The screen's own loading text, shown under the skeleton (default: 'Loading...', unseen). */
  loadingText?: string;
  onRetry?: () => void;
  getRowId?: (row: TData, index: number) => string;
  /** Extra classes of a row, e.g. red rows of failed events. */
  rowClassName?: (row: TData) => string | undefined;
  /**
   * Rows that can be selected: a click on a row, or Enter/Space on the focused row, calls
   * `onSelect`; the row whose id (`getRowId`) is `selectedId` is marked `aria-selected`.
   */
  rowSelection?: RowSelection<TData>;
  /** Number of skeleton rows while loading. */
  loadingRows?: number;
  /** The pager's words; by default 'page X of Y' alone (spec: common behaviour of list screens). */
  pagerTexts?: PagerTexts;
  ref?: Ref<DataTableHandle>;
}

/** One selected row of a table (see `rowSelection`). */
export interface RowSelection<TData> {
  selectedId: string | undefined;
  onSelect: (row: TData) => void;
}

export type DataTableProps<TData> = DataTableCommonProps<TData> &
  (
    | {
        /** Local-storage key under which this screen remembers its page size. */
        pageSizeKey: PageSizeKey;
        initialSorting?: SortingState;
        server?: never;
      }
    | { server: ServerPaging; pageSizeKey?: never; initialSorting?: never }
  );

const NO_ROWS: never[] = [];

export function DataTable<TData>(props: DataTableProps<TData>) {
  return props.server ? (
    <ServerDataTable {...props} server={props.server} />
  ) : (
    <ClientDataTable {...props} pageSizeKey={props.pageSizeKey} />
  );
}

/** The screen's pager words, or 'page X of Y' alone. */
function usePagerTexts(texts: PagerTexts | undefined): PagerTexts {
  const { t } = useTranslation();
  return texts ?? { page: (page, pageCount) => t('table.pageOf', { page, pageCount }) };
}

function ClientDataTable<TData>({
  pageSizeKey,
  initialSorting,
  ref,
  ...props
}: DataTableCommonProps<TData> & { pageSizeKey: PageSizeKey; initialSorting?: SortingState }) {
  const [pageSize, setPageSize] = usePageSize(pageSizeKey);
  const [sorting, setSorting] = useState<SortingState>(initialSorting ?? []);
  const [requestedPage, setPage] = useState(1);

  const rows = props.data ?? NO_ROWS;
  const pages = countPages(rows.length, pageSize);
  // A page past the end (the list shrank) shows the last page.
  const page = clampPage(requestedPage, pages);

  const onSortingChange: OnChangeFn<SortingState> = (updater) => {
    setSorting((current) => functionalUpdate(updater, current));
    setPage(1);
  };

  // TanStack Table returns functions that React Compiler must not memoize; this component is
  // not compiled with it (see https://github.com/TanStack/table/issues/5567).
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows as TData[],
    columns: props.columns,
    getRowId: props.getRowId,
    state: { sorting, pagination: { pageIndex: page - 1, pageSize } },
    onSortingChange,
    enableSortingRemoval: false,
    sortDescFirst: false,
    autoResetPageIndex: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
  });

  const latest = useRef({ page, rowsOnPage: 0 });
  latest.current = { page, rowsOnPage: table.getRowModel().rows.length };
  useImperativeHandle(
    ref,
    () => ({
      rowDeleted: () => setPage(pageAfterDelete(latest.current.page, latest.current.rowsOnPage)),
      resetPage: () => setPage(1),
    }),
    [],
  );

  return (
    <DataTableView
      {...props}
      table={table}
      pager={{
        page,
        pageCount: pages,
        pageSize,
        onPageChange: (next) => setPage(clampPage(next, pages)),
        onPageSizeChange: (size) => {
          setPageSize(size);
          setPage(1);
        },
      }}
    />
  );
}

function ServerDataTable<TData>({
  server,
  ref,
  ...props
}: DataTableCommonProps<TData> & { server: ServerPaging }) {
  const pages = countPages(server.totalCount, server.pageSize);
  const page = clampPage(server.page, pages);
  const sortable = server.sorting !== undefined && server.onSortingChange !== undefined;

  const onSortingChange: OnChangeFn<SortingState> = (updater) => {
    server.onSortingChange?.(functionalUpdate(updater, server.sorting ?? []));
  };

  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: (props.data ?? NO_ROWS) as TData[],
    columns: props.columns,
    getRowId: props.getRowId,
    state: { sorting: server.sorting ?? [] },
    onSortingChange,
    enableSorting: sortable,
    enableSortingRemoval: false,
    sortDescFirst: false,
    manualSorting: true,
    manualPagination: true,
    pageCount: pages,
    getCoreRowModel: getCoreRowModel(),
  });

  const latest = useRef({ page, rowsOnPage: 0, onPageChange: server.onPageChange });
  latest.current = {
    page,
    rowsOnPage: table.getRowModel().rows.length,
    onPageChange: server.onPageChange,
  };
  useImperativeHandle(
    ref,
    () => ({
      rowDeleted: () => {
        const { page: current, rowsOnPage, onPageChange } = latest.current;
        const next = pageAfterDelete(current, rowsOnPage);
        if (next !== current) onPageChange(next);
      },
      resetPage: () => latest.current.onPageChange(1),
    }),
    [],
  );

  return (
    <DataTableView
      {...props}
      table={table}
      pager={{
        page,
        pageCount: pages,
        pageSize: server.pageSize,
        totalCount: server.totalCount,
        onPageChange: (next) => server.onPageChange(clampPage(next, pages)),
        onPageSizeChange: server.onPageSizeChange,
      }}
    />
  );
}

function DataTableView<TData>({
  table,
  pager,
  pagerTexts,
  label,
  emptyText,
  isLoading = false,
  error,
  errorText,
  loadingText,
  onRetry,
  rowClassName,
  rowSelection,
  loadingRows = 5,
  data,
}: DataTableCommonProps<TData> & {
  table: TanStackTable<TData>;
  pager: Omit<DataTablePaginationProps, 'texts'>;
}) {
  const { t } = useTranslation();
  const texts = usePagerTexts(pagerTexts);

  if (error) {
    return <ApiErrorAlert error={error} text={errorText?.(error)} onRetry={onRetry} />;
  }

  const loading = isLoading && data === undefined;
  const rows = table.getRowModel().rows;
  const columnCount = table.getVisibleLeafColumns().length;

  return (
    <div className="flex flex-col gap-4">
      <div className="overflow-hidden rounded-md border">
        <Table aria-label={label} aria-busy={loading || undefined}>
          <TableHeader>
            {table.getHeaderGroups().map((headerGroup) => (
              <TableRow key={headerGroup.id}>
                {headerGroup.headers.map((header) => (
                  <SortableHead key={header.id} header={header} />
                ))}
              </TableRow>
            ))}
          </TableHeader>
          <TableBody>
            {loading ? (
              Array.from({ length: loadingRows }, (_, index) => (
                <TableRow key={index} aria-hidden="true">
                  {table.getVisibleLeafColumns().map((column) => (
                    <TableCell key={column.id}>
                      <Skeleton className="h-4 w-full min-w-8" />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            ) : rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columnCount} className="text-muted-foreground h-24 text-center">
                  {emptyText}
                </TableCell>
              </TableRow>
            ) : (
              rows.map((row) => (
                <TableRow
                  key={row.id}
                  className={cn(
                    rowClassName?.(row.original),
                    rowSelection &&
                      'cursor-pointer focus-visible:ring-ring/50 outline-none focus-visible:ring-[3px]',
                  )}
                  {...(rowSelection && selectableRowProps(rowSelection, row.id, row.original))}
                >
                  {row.getVisibleCells().map((cell) => (
                    <TableCell key={cell.id} className={cell.column.columnDef.meta?.className}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </TableCell>
                  ))}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
      {loading ? (
        <p role="status" className={loadingText ? 'text-muted-foreground text-sm' : 'sr-only'}>
          {loadingText ?? t('table.loading')}
        </p>
      ) : (
        <DataTablePagination {...pager} texts={texts} />
      )}
    </div>
  );
}

/** A control inside a row (a row action) keeps its own click and keys. */
const ROW_CONTROLS = 'a, button, input, select, textarea, [role="button"]';

/**
 * A selectable row: in the tab order, selected by a click or by Enter/Space while it has the
 * focus itself (not one of its controls), marked `aria-selected` and `data-state="selected"`.
 */
function selectableRowProps<TData>(
  { selectedId, onSelect }: RowSelection<TData>,
  id: string,
  row: TData,
): ComponentProps<'tr'> & { 'data-state'?: 'selected' } {
  const selected = id === selectedId;
  return {
    tabIndex: 0,
    'aria-selected': selected,
    'data-state': selected ? 'selected' : undefined,
    onClick: (event) => {
      if (event.target instanceof Element && event.target.closest(ROW_CONTROLS)) return;
      onSelect(row);
    },
    onKeyDown: (event) => {
      if (event.target !== event.currentTarget) return;
      if (event.key !== 'Enter' && event.key !== ' ') return;
      // Space would scroll the page.
      event.preventDefault();
      onSelect(row);
    },
  };
}

function SortableHead<TData>({ header }: { header: Header<TData, unknown> }) {
  const { column } = header;
  const className = column.columnDef.meta?.className;
  if (header.isPlaceholder) return <TableHead className={className} />;

  const content = flexRender(column.columnDef.header, header.getContext());
  if (!column.getCanSort()) return <TableHead className={className}>{content}</TableHead>;

  const direction = column.getIsSorted();
  const Icon =
    direction === 'asc' ? ArrowUpIcon : direction === 'desc' ? ArrowDownIcon : ArrowUpDownIcon;
  return (
    <TableHead
      className={className}
      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
    >
      <button
        type="button"
        onClick={column.getToggleSortingHandler()}
        className={cn(
          '-ml-2 inline-flex h-8 items-center gap-1 rounded-md px-2 outline-none',
          'hover:bg-accent hover:text-accent-foreground focus-visible:ring-ring/50 focus-visible:ring-[3px]',
        )}
      >
        {content}
        <Icon
          aria-hidden="true"
          className={cn('size-3.5', direction ? 'text-foreground' : 'text-muted-foreground')}
        />
      </button>
    </TableHead>
  );
}
