import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { entityUserTypeLabel, type EntityUser } from '@console/contracts';
import { Badge } from '@/components/ui/badge';
import { EntityUserKeys } from './entity-user-keys';
import { entityUserName } from './entity-user-name';

export interface EntityUserColumnsOptions {
  canDeleteKeys: boolean;
  onDeleteKey: (user: EntityUser, keyName: string) => void;
}

/**
 * The columns of the entity users table (spec part 1, section 2, "Entity users screen"): name,
 * entity, type (0 primary, 1 standard, otherwise the number), state, email and the keys.
 */
export function entityUsersColumns(
  t: TFunction,
  { canDeleteKeys, onDeleteKey }: EntityUserColumnsOptions,
): ColumnDef<EntityUser>[] {
  return [
    {
      id: 'name',
      accessorFn: entityUserName,
      header: t('entityUsers.columns.name'),
      meta: { className: 'font-medium' },
    },
    { id: 'entity', accessorKey: 'entityName', header: t('entityUsers.columns.entity') },
    {
      id: 'type',
      accessorFn: (user) => entityUserTypeLabel(user.type),
      header: t('entityUsers.columns.type'),
    },
    {
      id: 'state',
      accessorKey: 'state',
      header: t('entityUsers.columns.state'),
      cell: ({ row }) => <Badge variant="outline">{row.original.state}</Badge>,
    },
    {
      id: 'email',
      accessorFn: (user) => user.email ?? t('entityUsers.notSet'),
      header: t('entityUsers.columns.email'),
    },
    {
      id: 'keys',
      header: t('entityUsers.columns.keys'),
      meta: { className: 'align-top' },
      cell: ({ row }) => (
        <EntityUserKeys
          user={row.original}
          userName={entityUserName(row.original)}
          canDelete={canDeleteKeys}
          onDeleteKey={onDeleteKey}
        />
      ),
    },
  ];
}
