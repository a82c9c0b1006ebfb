/**
 * The ratings import wizard at /dashboard/fatf-import (spec part 2, sections 2, 4, 8 and 9;
 * docs/fatf-import.md): Upload File, Configure Import, Review Results, beside the Import
 * Statistics card and the Quick Actions. Step 1 leads to 2 with records and no error; the
 * import's completion leads to 3; Back and Import Another File return to 1.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { RatingsImportJob } from '@console/contracts';
import { paths } from '@/app/paths';
import { PageHeader } from '@/components/page-header';
import { buttonVariants } from '@/components/ui/button-variants';
import { addNamespaces } from '@/lib/i18n';
import { fatfImport } from '@/locales/en.json?fatfImport&lang.json';
import { ratingsQueryKey } from './api';
import { ImportStep } from './import-step';
import { ResultsStep } from './results-step';
import { SidePanel } from './side-panel';
import { UploadStep, type ParsedFile } from './upload-step';

addNamespaces({ fatfImport });

const STEPS = ['upload', 'configure', 'results'] as const;

export default function FatfImportPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<(typeof STEPS)[number]>('upload');
  const [parsed, setParsed] = useState<ParsedFile | null>(null);
  const [completed, setCompleted] = useState<RatingsImportJob | null>(null);

  const restart = () => {
    setParsed(null);
    setCompleted(null);
    setStep('upload');
  };

  return (
    <div className="min-w-0 space-y-6">
      <PageHeader
        title={t('pages.fatfImport')}
        description={t('fatfImport.description')}
        actions={
          <Link
            to={paths.fatfImportDocs()}
            target="_blank"
            rel="noopener"
            className={buttonVariants({ variant: 'outline' })}
          >
            {t('fatfImport.guide')}
          </Link>
        }
      />
      <ol aria-label={t('fatfImport.steps.label')} className="flex flex-wrap gap-4 text-sm">
        {STEPS.map((name, index) => (
          <li
            key={name}
            aria-current={name === step ? 'step' : undefined}
            className={name === step ? 'font-semibold' : 'text-muted-foreground'}
          >
            {index + 1}. {t(`fatfImport.steps.${name}`)}
          </li>
        ))}
      </ol>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0">
          {step === 'upload' && (
            <UploadStep
              parsed={parsed}
              onParsed={setParsed}
              onProceed={() => setStep('configure')}
            />
          )}
          {step === 'configure' && parsed && (
            <ImportStep
              parsed={parsed}
              onBack={() => setStep('upload')}
              onCompleted={(job) => {
                setCompleted(job);
                setStep('results');
                void queryClient.invalidateQueries({ queryKey: ratingsQueryKey });
              }}
            />
          )}
          {step === 'results' && completed && (
            <ResultsStep job={completed} onImportAnother={restart} />
          )}
        </div>
        <SidePanel />
      </div>
    </div>
  );
}
