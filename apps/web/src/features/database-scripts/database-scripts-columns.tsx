import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { DatabaseScript, ScriptExecution, ScriptStatus } from '@console/contracts';
import { dateColumn } from '@/components/data-table/columns';
import { numberSorting, textSorting } from '@/components/data-table/sorting';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

/** The scripts (spec part 2, section 2): name, description, Type, Version, and the way to select one. */
export function scriptsColumns(
  t: TFunction,
  selectedId: number | undefined,
  onSelect: (script: DatabaseScript) => void,
): ColumnDef<DatabaseScript>[] {
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
    },
    { accessorKey: 'type', header: t('databaseScripts.type'), sortingFn: textSorting },
    { accessorKey: 'version', header: t('databaseScripts.version'), sortingFn: numberSorting },
    {
      id: 'select',
      header: () => <span className="sr-only">{t('databaseScripts.select')}</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const selected = row.original.id === selectedId;
        return (
          <Button
            size="sm"
            variant={selected ? 'default' : 'outline'}
            aria-pressed={selected}
            aria-label={`${t('databaseScripts.select')} ${row.original.name}`}
            onClick={() => onSelect(row.original)}
          >
            {selected ? t('databaseScripts.selected') : t('databaseScripts.select')}
          </Button>
        );
      },
    },
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
