/**
 * The entities screen of the tenant portal (spec part 1, section 2, "Entities screen"): the
 * entities of every tenant for staff, of their own tenant for a tenant user (the server decides),
 * one page at a time with the list screens' paging controls.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Entity } from '@console/contracts';
import { DataTable, WaitingForConfiguration } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { useEntitiesQuery } from './api';
import { entitiesColumns } from './entities-columns';
import { usePortalPaging, useStayWithinPages } from './portal-paging';

export default function EntitiesPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.entities')} />
      <WaitingForConfiguration>
        <EntitiesTable />
      </WaitingForConfiguration>
    </>
  );
}

function EntitiesTable() {
  const { t } = useTranslation();
  const paging = usePortalPaging(PAGE_SIZE_KEYS.entities);
  const entities = useEntitiesQuery(paging.request);
  const columns = useMemo(() => entitiesColumns(t), [t]);
  useStayWithinPages(paging.page, paging.pageSize, entities.data?.totalCount, paging.setPage);

  return (
    <DataTable<Entity>
      columns={columns}
      data={entities.data?.data}
      label={t('pages.entities')}
      emptyText={t('entities.empty')}
      getRowId={(row) => row.partyEntityId}
      isLoading={entities.isPending}
      error={entities.isError ? entities.error : undefined}
      onRetry={() => void entities.refetch()}
      server={{
        page: paging.page,
        pageSize: paging.pageSize,
        totalCount: entities.data?.totalCount ?? 0,
        onPageChange: paging.setPage,
        onPageSizeChange: paging.setPageSize,
        sorting: paging.sorting,
        onSortingChange: paging.setSorting,
        pagerText: 'list',
      }}
    />
  );
}
