import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { Country } from '@console/contracts';
import { dateSorting, numberSorting, textSorting } from '@/components/data-table/sorting';
import { RowActions } from '@/components/data-table/row-actions';
import { formatDateTime } from '@/lib/format';

export interface CountryRowActions {
  onDelete: (country: Country) => void;
}

/**
 * The columns of the countries table (spec part 1, section 2, "Countries screen"): every one
 * sortable but the actions; a value that is not set shows 'N/A', as dates do.
 */
export function countriesColumns(
  t: TFunction,
  { onDelete }: CountryRowActions,
): ColumnDef<Country>[] {
  const notSet = t('countries.notSet');
  const text = (value: string | null) => value ?? notSet;
  return [
    {
      accessorKey: 'id',
      header: t('countries.columns.id'),
      sortingFn: numberSorting,
    },
    {
      accessorKey: 'countryName',
      header: t('countries.columns.countryName'),
      sortingFn: textSorting,
      meta: { className: 'font-medium' },
    },
    {
      accessorKey: 'alpha2Code',
      header: t('countries.columns.alpha2Code'),
      sortingFn: textSorting,
    },
    {
      accessorKey: 'alpha3Code',
      header: t('countries.columns.alpha3Code'),
      sortingFn: textSorting,
    },
    {
      accessorKey: 'sequence',
      header: t('countries.columns.sequence'),
      sortingFn: numberSorting,
      cell: ({ row }) => row.original.sequence ?? notSet,
    },
    {
      accessorKey: 'validFrom',
      header: t('countries.columns.validFrom'),
      sortingFn: dateSorting,
      cell: ({ row }) => formatDateTime(row.original.validFrom),
    },
    {
      accessorKey: 'validTo',
      header: t('countries.columns.validTo'),
      sortingFn: dateSorting,
      cell: ({ row }) => formatDateTime(row.original.validTo),
    },
    {
      accessorKey: 'cachedRisk',
      header: t('countries.columns.risk'),
      sortingFn: textSorting,
      cell: ({ row }) => text(row.original.cachedRisk),
    },
    {
      accessorKey: 'cachedRiskAt',
      header: t('countries.columns.riskDate'),
      sortingFn: dateSorting,
      cell: ({ row }) => formatDateTime(row.original.cachedRiskAt),
    },
    {
      id: 'actions',
      header: t('countries.columns.actions'),
      enableSorting: false,
      meta: { className: 'w-0 whitespace-nowrap' },
      // Editing countries is not offered yet (spec: "edit (disabled)"): no onEdit.
      cell: ({ row }) => (
        <RowActions
          editLabel={t('countries.edit', { name: row.original.countryName })}
          deleteLabel={t('countries.delete', { name: row.original.countryName })}
          onDelete={() => onDelete(row.original)}
        />
      ),
    },
  ];
}
