import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { Tenant } from '@console/contracts';
import { numberSorting, textSorting } from '@/components/data-table/sorting';
import { RowActions } from '@/components/data-table/row-actions';

export interface TenantColumnsOptions {
  onEdit: (tenant: Tenant) => void;
  onDelete: (tenant: Tenant) => void;
}

/**
 * The columns of the tenants table (spec part 1, section 2, "Tenants screen"): ID, company name
 * and domicile country name, sortable, and the row's actions. The profile dialog (dynamic form
 * EditTenantProfile) comes with the forms.
 */
export function tenantsColumns(
  t: TFunction,
  { onEdit, onDelete }: TenantColumnsOptions,
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
    {
      id: 'actions',
      header: t('tenants.columns.actions'),
      enableSorting: false,
      meta: { className: 'w-0 whitespace-nowrap' },
      cell: ({ row }) => (
        <RowActions
          editLabel={t('tenants.edit', { name: row.original.companyName })}
          onEdit={() => onEdit(row.original)}
          deleteLabel={t('tenants.delete', { name: row.original.companyName })}
          onDelete={() => onDelete(row.original)}
        />
      ),
    },
  ];
}
