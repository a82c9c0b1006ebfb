import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { AppliedMigration, PendingMigration } from '@console/contracts';
import { dateColumn } from '@/components/data-table/columns';
import { numberSorting, textSorting } from '@/components/data-table/sorting';

/** Pending Migrations (spec part 2, section 2): Version, Description, Class Name. */
export function pendingColumns(t: TFunction): ColumnDef<PendingMigration>[] {
  return [
    { accessorKey: 'version', header: t('migrations.version'), sortingFn: numberSorting },
    { accessorKey: 'description', header: t('migrations.description'), sortingFn: textSorting },
    { accessorKey: 'className', header: t('migrations.className'), sortingFn: textSorting },
  ];
}

/** Applied Migrations: Version, Description, Applied On. */
export function appliedColumns(t: TFunction): ColumnDef<AppliedMigration>[] {
  return [
    { accessorKey: 'version', header: t('migrations.version'), sortingFn: numberSorting },
    { accessorKey: 'description', header: t('migrations.description'), sortingFn: textSorting },
    dateColumn<AppliedMigration>('appliedOn', t('migrations.appliedOn')),
  ];
}
