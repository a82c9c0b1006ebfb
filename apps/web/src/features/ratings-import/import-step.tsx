/**
 * Step 2 of the ratings import (spec part 2, sections 3, 4 and 9): the three options with their
 * defaults, Start Import, then the job's progress polled every second until it is completed
 * (View Results) or failed (its message, Back to Upload). Cancelling stops polling, cancels the
 * job and shows "Import cancelled by user" as a failure.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  RATINGS_IMPORT_DEFAULT_OPTIONS,
  type RatingsImportJob,
  type RatingsImportOptions,
} from '@console/contracts';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { apiErrorText } from '@/lib/api-client';
import { useCancelImportMutation, useImportStatusQuery, useStartImportMutation } from './api';
import { ERROR_TOAST_MS, type ParsedFile } from './upload-step';

export function ImportStep({
  parsed,
  onBack,
  onCompleted,
}: {
  parsed: ParsedFile;
  onBack: () => void;
  onCompleted: (job: RatingsImportJob) => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [options, setOptions] = useState<RatingsImportOptions>(RATINGS_IMPORT_DEFAULT_OPTIONS);
  const [importId, setImportId] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const start = useStartImportMutation();
  const cancel = useCancelImportMutation();
  // Polling runs while there is a job and nothing failed on this side (a cancel stops it).
  const status = useImportStatusQuery(failure === null ? importId : null);
  const job = status.data;

  const begin = () =>
    start.mutate(
      { records: parsed.result.ratingsData, options },
      {
        onSuccess: setImportId,
        onError: () =>
          toast.error(t('fatfImport.messages.startFailed'), { duration: ERROR_TOAST_MS }),
      },
    );

  const stop = () => {
    if (importId === null) return;
    setFailure(t('fatfImport.messages.cancelled'));
    cancel.mutate(importId, {
      onError: () =>
        toast.error(t('fatfImport.messages.cancelFailed'), { duration: ERROR_TOAST_MS }),
    });
  };

  const failedText =
    failure ??
    (status.isError ? apiErrorText(status.error, t('fatfImport.messages.unknownError')) : null) ??
    (job?.status === 'failed' || job?.status === 'cancelled'
      ? job.message || t('fatfImport.messages.failed')
      : null);
  const running = importId !== null && failedText === null && job?.status !== 'completed';

  return (
    <section aria-labelledby={titleId} className="space-y-4">
      <h2 id={titleId} className="text-lg font-semibold">
        {t('fatfImport.configure.title')}
      </h2>
      <p>
        {t('fatfImport.configure.records', {
          count: parsed.result.ratingsData.length,
          fileName: parsed.fileName,
        })}
      </p>
      <fieldset className="space-y-3" disabled={importId !== null}>
        {(Object.keys(RATINGS_IMPORT_DEFAULT_OPTIONS) as (keyof RatingsImportOptions)[]).map(
          (option) => (
            <OptionCheckbox
              key={option}
              option={option}
              checked={options[option]}
              onChange={(checked) => setOptions((current) => ({ ...current, [option]: checked }))}
            />
          ),
        )}
      </fieldset>

      {importId === null && (
        <div className="flex gap-2">
          <Button variant="outline" onClick={onBack}>
            {t('fatfImport.configure.back')}
          </Button>
          <Button onClick={begin} disabled={start.isPending}>
            {t('fatfImport.configure.start')}
          </Button>
        </div>
      )}

      {importId !== null && failedText === null && (
        <Progress job={job} label={t('fatfImport.configure.progress')} />
      )}
      {running && (
        <Button variant="outline" onClick={stop}>
          {t('fatfImport.configure.cancel')}
        </Button>
      )}
      {failedText !== null && (
        <>
          <Alert variant="destructive">
            <AlertDescription>{failedText}</AlertDescription>
          </Alert>
          <Button onClick={onBack}>{t('fatfImport.configure.backToUpload')}</Button>
        </>
      )}
      {job?.status === 'completed' && failedText === null && (
        <div className="space-y-2">
          <p role="status">{t('fatfImport.configure.completed')}</p>
          <Button onClick={() => onCompleted(job)}>{t('fatfImport.configure.viewResults')}</Button>
        </div>
      )}
    </section>
  );
}

function OptionCheckbox({
  option,
  checked,
  onChange,
}: {
  option: keyof RatingsImportOptions;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={id}
        checked={checked}
        onCheckedChange={(value) => onChange(value === true)}
        aria-describedby={`${id}-hint`}
      />
      <div className="space-y-1">
        <Label htmlFor={id}>{t(`fatfImport.configure.${option}`)}</Label>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {t(`fatfImport.configure.${option}Hint`)}
        </p>
      </div>
    </div>
  );
}

function Progress({ job, label }: { job: RatingsImportJob | undefined; label: string }) {
  const value = job?.progress ?? 0;
  return (
    <div className="space-y-2">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        className="h-2 w-full overflow-hidden rounded-full bg-secondary"
      >
        <div className="h-full bg-primary transition-all" style={{ width: `${value}%` }} />
      </div>
      <p role="status" className="text-sm text-muted-foreground">
        {value}% {job?.message ?? ''}
      </p>
    </div>
  );
}
