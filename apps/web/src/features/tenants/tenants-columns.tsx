import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { PencilIcon, Trash2Icon } from 'lucide-react';
import type { Tenant } from '@console/contracts';
import { numberSorting, textSorting } from '@/components/data-table/sorting';
import { Button } from '@/components/ui/button';

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
      cell: ({ row }) => {
        const name = row.original.companyName;
        return (
          <div className="flex items-center gap-1">
            <Button
              variant="ghost"
              size="icon"
              aria-label={t('tenants.edit', { name })}
              onClick={() => onEdit(row.original)}
            >
              <PencilIcon aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t('tenants.delete', { name })}
              onClick={() => onDelete(row.original)}
            >
              <Trash2Icon aria-hidden="true" />
            </Button>
          </div>
        );
      },
    },
  ];
}
