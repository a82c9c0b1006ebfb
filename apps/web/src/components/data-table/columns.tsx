/**
 * Column definitions that read the same on every list screen: the row's actions, and a date
 * sorted by time and shown by the one date formatter.
 */
import type { ColumnDef } from '@tanstack/react-table';
import { formatDateTime } from '@/lib/format';
import { RowActions, type RowActionsProps } from './row-actions';
import { dateSorting } from './sorting';

/** The keys of a row whose values are ISO date strings (or not set). */
type DateKey<TData> = {
  [K in keyof TData]: TData[K] extends string | null | undefined ? K : never;
}[keyof TData] &
  string;

/** A date column: sorts by time, shows 'yyyy-MM-dd HH:mm' ('N/A' when not set). */
export function dateColumn<TData>(key: DateKey<TData>, header: string): ColumnDef<TData> {
  return {
    accessorKey: key,
    header,
    sortingFn: dateSorting,
    cell: ({ getValue }) => formatDateTime(getValue<string | null | undefined>()),
  };
}

/** The actions column: the row's edit and delete buttons, unsorted and as narrow as they are. */
export function actionsColumn<TData>(
  header: string,
  actionsOf: (row: TData) => RowActionsProps,
): ColumnDef<TData> {
  return {
    id: 'actions',
    header,
    enableSorting: false,
    meta: { className: 'w-0 whitespace-nowrap' },
    cell: ({ row }) => <RowActions {...actionsOf(row.original)} />,
  };
}
