/**
 * /fatf/data, where the ratings import leads (spec part 2: no route definition shown): the stored
 * ratings, one page at a time, by jurisdiction with the latest report first, each report's
 * effectiveness and compliance ratings counted by grade.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import {
  apiPath,
  COMPLIANCE_RATINGS,
  EFFECTIVENESS_RATINGS,
  ratingsImportApi,
  type StoredRating,
} from '@console/contracts';
import { paths } from '@/app/paths';
import { ListScreen, QueryTable } from '@/components/data-table';
import { buttonVariants } from '@/components/ui/button-variants';
import { addNamespaces } from '@/lib/i18n';
import { useServerPaging } from '@/lib/paging';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { fatfImport } from '@/locales/en.json?fatfImport&lang.json';
import { useStoredRatingsQuery } from './api';

addNamespaces({ fatfImport });

/** 'SE 4 · ME 5 · LE 2': how many ratings of each grade, grades without any left out. */
export function gradeCounts(ratings: Record<string, string>, grades: readonly string[]): string {
  const values = Object.values(ratings);
  return grades
    .map((grade) => [grade, values.filter((value) => value === grade).length] as const)
    .filter(([, count]) => count > 0)
    .map(([grade, count]) => `${grade} ${count}`)
    .join(' · ');
}

function columnsOf(t: TFunction): ColumnDef<StoredRating>[] {
  const header = (name: string) => t(`fatfImport.data.columns.${name}`);
  return [
    { accessorKey: 'jurisdiction', header: header('jurisdiction') },
    {
      accessorKey: 'countryName',
      header: header('country'),
      cell: ({ row }) => row.original.countryName ?? t('fatfImport.data.noCountry'),
    },
    { accessorKey: 'reportType', header: header('reportType') },
    { accessorKey: 'reportDate', header: header('reportDate') },
    { accessorKey: 'assessmentBody', header: header('assessmentBody') },
    {
      id: 'effectiveness',
      header: header('effectiveness'),
      cell: ({ row }) => gradeCounts(row.original.effectiveness, EFFECTIVENESS_RATINGS),
    },
    {
      id: 'compliance',
      header: header('compliance'),
      cell: ({ row }) => gradeCounts(row.original.compliance, COMPLIANCE_RATINGS),
    },
  ];
}

export default function FatfDataPage() {
  const { t } = useTranslation();
  const paging = useServerPaging(PAGE_SIZE_KEYS.fatfData);
  const ratings = useStoredRatingsQuery(paging.offsetRequest);
  const columns = useMemo(() => columnsOf(t), [t]);
  return (
    <ListScreen
      title={t('pages.fatfData')}
      exportList={{ path: apiPath(ratingsImportApi.ratingsExport), name: 'fatf-data' }}
      actions={
        <Link to={paths.fatfImport()} className={buttonVariants({ variant: 'outline' })}>
          {t('fatfImport.data.import')}
        </Link>
      }
    >
      <p className="text-muted-foreground">{t('fatfImport.data.description')}</p>
      <QueryTable<StoredRating>
        query={ratings}
        paging={paging}
        columns={columns}
        label={t('pages.fatfData')}
        emptyText={t('fatfImport.data.empty')}
        getRowId={(row) => String(row.id)}
      />
    </ListScreen>
  );
}
