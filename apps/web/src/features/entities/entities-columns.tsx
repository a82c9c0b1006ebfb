import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { entityDisplayName, type Entity } from '@console/contracts';
import { ProfileButton } from '@/features/form-usage';

/**
 * The columns of the entities table (spec part 1, section 2, "Entities screen"): ID (sorted by
 * the server), tenant, the derived name (entityName, else the id) and country; the actions
 * column has the Profile button (dynamic form EditEntityProfile).
 */
export function entitiesColumns(
  t: TFunction,
  { onProfile }: { onProfile: (entity: Entity) => void },
): ColumnDef<Entity>[] {
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
    {
      id: 'actions',
      header: t('entities.columns.actions'),
      enableSorting: false,
      meta: { className: 'w-0 whitespace-nowrap' },
      cell: ({ row }) => (
        <ProfileButton
          name={entityDisplayName(row.original)}
          onClick={() => onProfile(row.original)}
        />
      ),
    },
  ];
}
