/**
 * Step 3 of the ratings import (spec part 2, sections 2 and 9): what the import did, its first 5
 * errors, and Import Another File, View Imported Data and Export Data.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { RatingsImportJob } from '@console/contracts';
import { paths } from '@/app/paths';
import { Button } from '@/components/ui/button';
import { useExportAction } from './side-panel';
import { PREVIEW } from './upload-step';

export function ResultsStep({
  job,
  onImportAnother,
}: {
  job: RatingsImportJob;
  onImportAnother: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const titleId = useId();
  const exportData = useExportAction();
  const result = job.result;
  const errors = result?.errors ?? [];
  return (
    <section aria-labelledby={titleId} className="space-y-4">
      <h2 id={titleId} className="text-lg font-semibold">
        {t('fatfImport.results.title')}
      </h2>
      <dl className="grid grid-cols-3 gap-4">
        {(
          [
            ['processed', result?.recordsProcessed],
            ['imported', result?.recordsImported],
            ['skipped', result?.recordsSkipped],
          ] as const
        ).map(([name, value]) => (
          <div key={name} className="rounded-md border p-3">
            <dt className="text-sm text-muted-foreground">{t(`fatfImport.results.${name}`)}</dt>
            <dd className="text-2xl font-semibold">{value ?? 0}</dd>
          </div>
        ))}
      </dl>
      {errors.length > 0 && (
        <div className="space-y-2">
          <h3 className="font-medium">
            {t('fatfImport.results.errors')} ({errors.length})
          </h3>
          <ul aria-label={t('fatfImport.results.errors')} className="list-disc pl-5 text-sm">
            {errors.slice(0, PREVIEW.issues).map((error, index) => (
              <li key={index}>{error.message}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <Button onClick={onImportAnother}>{t('fatfImport.results.importAnother')}</Button>
        <Button variant="outline" onClick={() => void navigate(paths.fatfData())}>
          {t('fatfImport.results.viewData')}
        </Button>
        <Button variant="outline" onClick={exportData}>
          {t('fatfImport.results.export')}
        </Button>
      </div>
    </section>
  );
}
