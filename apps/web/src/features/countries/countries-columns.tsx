import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { Country } from '@console/contracts';
import { actionsColumn, dateColumn } from '@/components/data-table/columns';
import { numberSorting, textSorting } from '@/components/data-table/sorting';

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
    dateColumn<Country>('validFrom', t('countries.columns.validFrom')),
    dateColumn<Country>('validTo', t('countries.columns.validTo')),
    {
      accessorKey: 'cachedRisk',
      header: t('countries.columns.risk'),
      sortingFn: textSorting,
      cell: ({ row }) => text(row.original.cachedRisk),
    },
    dateColumn<Country>('cachedRiskAt', t('countries.columns.riskDate')),
    // Editing countries is not offered yet (spec: "edit (disabled)"): no onEdit.
    actionsColumn(t('countries.columns.actions'), (country: Country) => ({
      editLabel: t('countries.edit', { name: country.countryName }),
      deleteLabel: t('countries.delete', { name: country.countryName }),
      onDelete: () => onDelete(country),
    })),
  ];
}
