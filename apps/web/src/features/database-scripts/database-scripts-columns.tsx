import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { DatabaseScript, ScriptExecution, ScriptStatus } from '@console/contracts';
import { dateColumn } from '@/components/data-table/columns';
import { numberSorting, textSorting } from '@/components/data-table/sorting';
import { Badge } from '@/components/ui/badge';

/**
 * The scripts (spec part 2, section 2): name, description, Type, Version. A row is selected by a
 * click or the keyboard (the table's `rowSelection`); a long description wraps, so every column
 * stays in view at 1280 px.
 */
export function scriptsColumns(t: TFunction): ColumnDef<DatabaseScript>[] {
  return [
    {
      accessorKey: 'name',
      header: t('databaseScripts.name'),
      sortingFn: textSorting,
      meta: { className: 'font-medium' },
    },
    {
      accessorKey: 'description',
      header: t('databaseScripts.description'),
      sortingFn: textSorting,
      meta: { className: 'w-full min-w-64 whitespace-normal break-words' },
    },
    { accessorKey: 'type', header: t('databaseScripts.type'), sortingFn: textSorting },
    { accessorKey: 'version', header: t('databaseScripts.version'), sortingFn: numberSorting },
  ];
}

const STATUS_VARIANT: Record<ScriptStatus, 'default' | 'secondary' | 'destructive'> = {
  Success: 'default',
  Running: 'secondary',
  Failed: 'destructive',
};

/** Recent Executions: Script, Status, Executed By, Executed At (and what the run said). */
export function executionsColumns(t: TFunction): ColumnDef<ScriptExecution>[] {
  return [
    { accessorKey: 'scriptName', header: t('databaseScripts.script'), enableSorting: false },
    {
      accessorKey: 'status',
      header: t('databaseScripts.status'),
      enableSorting: false,
      cell: ({ row }) => (
        <Badge variant={STATUS_VARIANT[row.original.status]}>{row.original.status}</Badge>
      ),
    },
    { accessorKey: 'executedBy', header: t('databaseScripts.executedBy'), enableSorting: false },
    {
      ...dateColumn<ScriptExecution>('executedAt', t('databaseScripts.executedAt')),
      enableSorting: false,
    },
    { accessorKey: 'message', header: t('databaseScripts.message'), enableSorting: false },
  ];
}
