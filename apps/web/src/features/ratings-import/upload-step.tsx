/**
 * Step 1 of the ratings import (spec part 2, sections 2, 4 and 9): choose a CSV file, read it in
 * a Web Worker, and see what it holds: 5 sample records, 10 jurisdictions then '+N more', 5
 * errors and 5 warnings. Proceed to Import only with records and no error.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { RatingsIssue, RatingsRecord } from '@console/contracts';
import { checkRatingsFile, type RatingsParseResult } from '@console/contracts/ratings-csv';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { parseRatingsFile } from './api';

export const PREVIEW = { records: 5, jurisdictions: 10, issues: 5 } as const;
/** The spec's error toast closes after 5 s. */
export const ERROR_TOAST_MS = 5000;

export interface ParsedFile {
  fileName: string;
  result: RatingsParseResult;
}

export function UploadStep({
  parsed,
  onParsed,
  onProceed,
}: {
  parsed: ParsedFile | null;
  onParsed: (parsed: ParsedFile | null) => void;
  onProceed: () => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const [reading, setReading] = useState<string | null>(null);

  const read = async (file: File | undefined) => {
    onParsed(null);
    if (!file) return;
    const refusal = checkRatingsFile(file);
    if (refusal) {
      toast.error(refusal, { duration: ERROR_TOAST_MS });
      return;
    }
    setReading(file.name);
    try {
      const result = await parseRatingsFile(file);
      onParsed({ fileName: file.name, result });
      if (result.errors.length > 0) {
        toast.error(t('fatfImport.messages.parsedWithErrors', { count: result.errors.length }), {
          duration: ERROR_TOAST_MS,
        });
      }
    } catch {
      toast.error(t('fatfImport.messages.parseFailed'), { duration: ERROR_TOAST_MS });
    } finally {
      setReading(null);
    }
  };

  const canProceed =
    parsed !== null && parsed.result.ratingsData.length > 0 && parsed.result.errors.length === 0;
  return (
    <section aria-labelledby={`${inputId}-title`} className="space-y-4">
      <h2 id={`${inputId}-title`} className="text-lg font-semibold">
        {t('fatfImport.upload.title')}
      </h2>
      <div className="space-y-2">
        <Label htmlFor={inputId}>{t('fatfImport.upload.fileLabel')}</Label>
        <Input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          aria-describedby={`${inputId}-hint`}
          onChange={(event) => void read(event.target.files?.[0])}
        />
        <p id={`${inputId}-hint`} className="text-sm text-muted-foreground">
          {t('fatfImport.upload.hint')}
        </p>
      </div>
      {reading && <p role="status">{t('fatfImport.upload.parsing', { fileName: reading })}</p>}
      {parsed && <ParseSummary parsed={parsed} />}
      <Button disabled={!canProceed} onClick={onProceed}>
        {t('fatfImport.upload.proceed')}
      </Button>
    </section>
  );
}

function ParseSummary({ parsed }: { parsed: ParsedFile }) {
  const { t } = useTranslation();
  const { ratingsData, errors, warnings } = parsed.result;
  return (
    <div className="space-y-4">
      <p role="status">
        {t('fatfImport.upload.summary', {
          fileName: parsed.fileName,
          records: ratingsData.length,
          errors: errors.length,
          warnings: warnings.length,
        })}
      </p>
      {ratingsData.length > 0 && <SampleRecords records={ratingsData} />}
      {ratingsData.length > 0 && <Jurisdictions records={ratingsData} />}
      <IssueList title={t('fatfImport.upload.errors')} issues={errors} tone="error" />
      <IssueList title={t('fatfImport.upload.warnings')} issues={warnings} tone="warning" />
    </div>
  );
}

function SampleRecords({ records }: { records: readonly RatingsRecord[] }) {
  const { t } = useTranslation();
  const columns = ['jurisdiction', 'reportType', 'reportDate', 'assessmentBody'] as const;
  return (
    <div className="space-y-2">
      <h3 className="font-medium">{t('fatfImport.upload.sample')}</h3>
      <div className="overflow-x-auto rounded-md border">
        <Table aria-label={t('fatfImport.upload.sample')}>
          <TableHeader>
            <TableRow>
              {columns.map((column) => (
                <TableHead key={column}>{t(`fatfImport.upload.columns.${column}`)}</TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {records.slice(0, PREVIEW.records).map((record, index) => (
              <TableRow key={index}>
                {columns.map((column) => (
                  <TableCell key={column}>{record[column]}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}

function Jurisdictions({ records }: { records: readonly RatingsRecord[] }) {
  const { t } = useTranslation();
  const names = [...new Set(records.map((record) => record.jurisdiction))];
  const more = names.length - PREVIEW.jurisdictions;
  return (
    <div className="space-y-2">
      <h3 className="font-medium">{t('fatfImport.upload.jurisdictions')}</h3>
      <ul aria-label={t('fatfImport.upload.jurisdictions')} className="flex flex-wrap gap-2">
        {names.slice(0, PREVIEW.jurisdictions).map((name) => (
          <li key={name}>
            <Badge variant="secondary">{name}</Badge>
          </li>
        ))}
        {more > 0 && (
          <li>
            <Badge variant="outline">{t('fatfImport.upload.more', { count: more })}</Badge>
          </li>
        )}
      </ul>
    </div>
  );
}

function IssueList({
  title,
  issues,
  tone,
}: {
  title: string;
  issues: readonly RatingsIssue[];
  tone: 'error' | 'warning';
}) {
  const { t } = useTranslation();
  if (issues.length === 0) return null;
  const more = issues.length - PREVIEW.issues;
  return (
    <div className="space-y-2">
      <h3 className={tone === 'error' ? 'font-medium text-destructive' : 'font-medium'}>
        {title} ({issues.length})
      </h3>
      <ul aria-label={title} className="list-disc space-y-1 pl-5 text-sm">
        {issues.slice(0, PREVIEW.issues).map((issue, index) => (
          <li key={index}>
            {t('fatfImport.upload.issue', {
              row: issue.row,
              column: issue.column ? `, ${issue.column}` : '',
              message: issue.message,
            })}
            {issue.value ? ` (${issue.value})` : ''}
          </li>
        ))}
        {more > 0 && <li>{t('fatfImport.upload.moreIssues', { count: more })}</li>}
      </ul>
    </div>
  );
}
