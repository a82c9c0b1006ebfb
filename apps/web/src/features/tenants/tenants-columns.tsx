import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { Tenant } from '@console/contracts';
import { numberSorting, textSorting } from '@/components/data-table/sorting';
import { actionsColumn } from '@/components/data-table/columns';
import { ProfileButton } from '@/features/form-usage';

export interface TenantColumnsOptions {
  onEdit: (tenant: Tenant) => void;
  onDelete: (tenant: Tenant) => void;
  onProfile: (tenant: Tenant) => void;
}

/**
 * The columns of the tenants table (spec part 1, section 2, "Tenants screen"): ID, company name
 * and domicile country name, sortable, and the row's actions: its profile (dynamic form
 * EditTenantProfile), edit and delete.
 */
export function tenantsColumns(
  t: TFunction,
  { onEdit, onDelete, onProfile }: TenantColumnsOptions,
): ColumnDef<Tenant>[] {
  return [
    { accessorKey: 'id', header: t('tenants.columns.id'), sortingFn: numberSorting },
    {
      accessorKey: 'companyName',
      header: t('tenants.columns.companyName'),
      sortingFn: textSorting,
      meta: { className: 'font-medium' },
    },
    {
      accessorKey: 'domicileCountryName',
      header: t('tenants.columns.domicileCountryName'),
      sortingFn: textSorting,
    },
    actionsColumn(t('tenants.columns.actions'), (tenant: Tenant) => ({
      editLabel: t('tenants.edit', { name: tenant.companyName }),
      onEdit: () => onEdit(tenant),
      deleteLabel: t('tenants.delete', { name: tenant.companyName }),
      onDelete: () => onDelete(tenant),
      children: <ProfileButton name={tenant.companyName} onClick={() => onProfile(tenant)} />,
    })),
  ];
}
