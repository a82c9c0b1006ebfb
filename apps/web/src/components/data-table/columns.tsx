/**
 * Column definitions that read the same on every list screen: the row's actions, a date sorted
 * by time and shown by the one date formatter, tags as badges and API references as
 * 'service: value' lines.
 */
import type { ColumnDef } from '@tanstack/react-table';
import { apiReferenceRows } from '@/components/form/api-references';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/lib/format';
import { RowActions, type RowActionsProps } from './row-actions';
import { dateSorting, textSorting } from './sorting';

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

/** A row's tags as badges, sorted by their text. */
export function tagsColumn<TData extends { tags: readonly string[] }>(
  header: string,
): ColumnDef<TData> {
  return {
    id: 'tags',
    accessorFn: (row) => row.tags.join(', '),
    header,
    sortingFn: textSorting,
    cell: ({ row }) => (
      <ul className="flex flex-wrap gap-1">
        {row.original.tags.map((tag) => (
          <li key={tag}>
            <Badge variant="secondary">{tag}</Badge>
          </li>
        ))}
      </ul>
    ),
  };
}

/** 'service: value' per API reference, by service name (the server keeps no order). */
const apiReferenceLines = (references: Readonly<Record<string, string>>) =>
  apiReferenceRows(references).map(({ service, value }) => `${service}: ${value}`);

/** A row's API references, a 'service: value' line each, sorted by their text. */
export function apiReferencesColumn<
  TData extends { apiReferences: Readonly<Record<string, string>> },
>(header: string): ColumnDef<TData> {
  return {
    id: 'apiReferences',
    accessorFn: (row) => apiReferenceLines(row.apiReferences).join('; '),
    header,
    sortingFn: textSorting,
    cell: ({ row }) => (
      <ul className="text-xs">
        {apiReferenceLines(row.original.apiReferences).map((line) => (
          <li key={line} className="whitespace-nowrap">
            {line}
          </li>
        ))}
      </ul>
    ),
  };
}
