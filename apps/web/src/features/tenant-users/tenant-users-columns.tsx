import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { TenantUser } from '@console/contracts';
import { numberSorting, textSorting } from '@/components/data-table/sorting';
import { RowActions } from '@/components/data-table/row-actions';

/**
 * The columns of the tenant users table (spec part 1, section 2, "Tenant users screen"): ID,
 * email and tenant company name, sortable, and the delete action.
 */
export function tenantUsersColumns(
  t: TFunction,
  { onDelete }: { onDelete: (tenantUser: TenantUser) => void },
): ColumnDef<TenantUser>[] {
  return [
    { accessorKey: 'id', header: t('tenantUsers.columns.id'), sortingFn: numberSorting },
    {
      accessorKey: 'email',
      header: t('tenantUsers.columns.email'),
      sortingFn: textSorting,
      meta: { className: 'font-medium' },
    },
    {
      accessorKey: 'tenantCompanyName',
      header: t('tenantUsers.columns.tenantCompanyName'),
      sortingFn: textSorting,
    },
    {
      id: 'actions',
      header: t('tenantUsers.columns.actions'),
      enableSorting: false,
      meta: { className: 'w-0 whitespace-nowrap' },
      cell: ({ row }) => (
        <RowActions
          deleteLabel={t('tenantUsers.delete', { email: row.original.email })}
          onDelete={() => onDelete(row.original)}
        />
      ),
    },
  ];
}
