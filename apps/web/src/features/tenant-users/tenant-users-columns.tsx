import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { TenantUser } from '@console/contracts';
import { numberSorting, textSorting } from '@/components/data-table/sorting';
import { actionsColumn } from '@/components/data-table/columns';

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
    actionsColumn(t('tenantUsers.columns.actions'), (tenantUser: TenantUser) => ({
      deleteLabel: t('tenantUsers.delete', { email: tenantUser.email }),
      onDelete: () => onDelete(tenantUser),
    })),
  ];
}
