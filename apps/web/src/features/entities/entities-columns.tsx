import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { entityDisplayName, type Entity } from '@console/contracts';

/**
 * The columns of the entities table (spec part 1, section 2, "Entities screen"): ID (sorted by
 * the server), tenant, the derived name (entityName, else the id) and country. The Profile
 * button (dynamic form EditEntityProfile) comes with the forms, and with it the actions column.
 */
export function entitiesColumns(t: TFunction): ColumnDef<Entity>[] {
  return [
    {
      id: 'partyEntityId',
      accessorKey: 'partyEntityId',
      header: t('entities.columns.id'),
      meta: { className: 'font-mono text-xs' },
    },
    {
      id: 'tenant',
      accessorKey: 'tenantName',
      header: t('entities.columns.tenant'),
      enableSorting: false,
    },
    {
      id: 'name',
      accessorFn: (entity) => entityDisplayName(entity),
      header: t('entities.columns.name'),
      enableSorting: false,
      meta: { className: 'font-medium' },
    },
    {
      id: 'country',
      accessorFn: (entity) => entity.country ?? t('entities.notSet'),
      header: t('entities.columns.country'),
      enableSorting: false,
    },
  ];
}
