/**
 * Beside the wizard (spec part 2, section 2): the Import Statistics card, the Quick Actions
 * (Download Template, View Import History, Export Data) and the Import History dialog.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { ColumnDef } from '@tanstack/react-table';
import type { RatingsImportJob } from '@console/contracts';
import { ratingsCsvTemplate } from '@console/contracts/ratings-csv';
import { DataTable } from '@/components/data-table';
import { dateColumn } from '@/components/data-table/columns';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/format';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { downloadExport, saveFile, useImportHistoryQuery, useRatingsStatsQuery } from './api';
import { ERROR_TOAST_MS } from './upload-step';

/** Export Data, with the spec's message when it fails. */
export function useExportAction() {
  const { t } = useTranslation();
  return () =>
    void downloadExport().catch(() =>
      toast.error(t('fatfImport.messages.exportFailed'), { duration: ERROR_TOAST_MS }),
    );
}

export function SidePanel() {
  const { t } = useTranslation();
  const [historyOpen, setHistoryOpen] = useState(false);
  const exportData = useExportAction();
  const actionsId = useId();
  return (
    <aside className="space-y-6">
      <StatisticsCard />
      <section aria-labelledby={actionsId} className="space-y-3 rounded-lg border p-4">
        <h2 id={actionsId} className="font-semibold">
          {t('fatfImport.actions.title')}
        </h2>
        <div className="flex flex-col gap-2">
          <Button
            variant="outline"
            onClick={() =>
              saveFile(
                new Blob([ratingsCsvTemplate()], { type: 'text/csv' }),
                'fatf-ratings-template.csv',
              )
            }
          >
            {t('fatfImport.actions.downloadTemplate')}
          </Button>
          <Button variant="outline" onClick={() => setHistoryOpen(true)}>
            {t('fatfImport.actions.history')}
          </Button>
          <Button variant="outline" onClick={exportData}>
            {t('fatfImport.actions.export')}
          </Button>
        </div>
      </section>
      <HistoryDialog open={historyOpen} onOpenChange={setHistoryOpen} />
    </aside>
  );
}

function StatisticsCard() {
  const { t } = useTranslation();
  const titleId = useId();
  const stats = useRatingsStatsQuery().data;
  const items = [
    ['totalImports', stats?.totalImports],
    ['totalRecords', stats?.totalRecords],
    ['countriesWithData', stats?.countriesWithData],
    [
      'lastImportDate',
      stats &&
        (stats.lastImportDate ? formatDateTime(stats.lastImportDate) : t('fatfImport.stats.never')),
    ],
  ] as const;
  return (
    <section aria-labelledby={titleId} className="space-y-3 rounded-lg border p-4">
      <h2 id={titleId} className="font-semibold">
        {t('fatfImport.stats.title')}
      </h2>
      <dl className="grid grid-cols-2 gap-3">
        {items.map(([name, value]) => (
          <div key={name}>
            <dt className="text-xs text-muted-foreground">{t(`fatfImport.stats.${name}`)}</dt>
            <dd className="font-medium">{value ?? '…'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function HistoryDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const history = useImportHistoryQuery(open);
  const columns: ColumnDef<RatingsImportJob>[] = [
    { accessorKey: 'id', header: t('fatfImport.history.columns.id') },
    {
      accessorKey: 'status',
      header: t('fatfImport.history.columns.status'),
      cell: ({ row }) => t(`fatfImport.status.${row.original.status}`),
    },
    dateColumn<RatingsImportJob>('startTime', t('fatfImport.history.columns.startTime')),
    { accessorKey: 'createdBy', header: t('fatfImport.history.columns.createdBy') },
    { accessorKey: 'recordCount', header: t('fatfImport.history.columns.records') },
    {
      id: 'imported',
      header: t('fatfImport.history.columns.imported'),
      accessorFn: (job) => job.result?.recordsImported ?? null,
    },
    { accessorKey: 'message', header: t('fatfImport.history.columns.message') },
  ];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-4xl">
        <DialogHeader>
          <DialogTitle>{t('fatfImport.history.title')}</DialogTitle>
        </DialogHeader>
        <div className="min-w-0 overflow-x-auto">
          <DataTable
            columns={columns}
            data={history.data}
            label={t('fatfImport.history.title')}
            emptyText={t('fatfImport.history.empty')}
            isLoading={history.isLoading}
            error={history.error}
            onRetry={() => void history.refetch()}
            pageSizeKey={PAGE_SIZE_KEYS.fatfImportHistory}
          />
        </div>
      </DialogContent>
    </Dialog>
  );
}
