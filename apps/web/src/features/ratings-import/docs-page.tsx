/**
 * The ratings import guide at /docs/fatf-import (opened in a new window from the import screen,
 * no sign-in): the file format, the rules of each cell and the options, with the codes and
 * option texts taken from the same contracts and strings the import uses.
 */
import { useTranslation } from 'react-i18next';
import {
  COMPLIANCE_RATINGS,
  EFFECTIVENESS_RATINGS,
  RATINGS_IMPORT_DEFAULT_OPTIONS,
  REPORT_TYPES,
} from '@console/contracts';
import { addNamespaces } from '@/lib/i18n';
import { fatfImport } from '@/locales/en.json?fatfImport&lang.json';

addNamespaces({ fatfImport });

export default function FatfImportDocsPage() {
  const { t } = useTranslation();
  const fileRules = t('fatfImport.docs.file', { returnObjects: true }) as string[];
  const rules = [
    t('fatfImport.docs.rules.jurisdiction'),
    t('fatfImport.docs.rules.effectiveness', { values: EFFECTIVENESS_RATINGS.join(', ') }),
    t('fatfImport.docs.rules.compliance', { values: COMPLIANCE_RATINGS.join(', ') }),
    t('fatfImport.docs.rules.reportType', { values: REPORT_TYPES.join(', ') }),
    t('fatfImport.docs.rules.reportDate'),
    t('fatfImport.docs.rules.counts'),
  ];
  return (
    <main className="mx-auto max-w-3xl space-y-6 p-6 md:p-10">
      <h1 className="text-2xl font-bold tracking-tight">{t('pages.fatfImportDocs')}</h1>
      <p>{t('fatfImport.docs.intro')}</p>
      <Section title={t('fatfImport.docs.fileTitle')} items={fileRules} />
      <Section title={t('fatfImport.docs.rulesTitle')} items={rules} />
      <Section
        title={t('fatfImport.docs.optionsTitle')}
        items={(
          Object.keys(
            RATINGS_IMPORT_DEFAULT_OPTIONS,
          ) as (keyof typeof RATINGS_IMPORT_DEFAULT_OPTIONS)[]
        ).map(
          (option) =>
            `${t(`fatfImport.configure.${option}`)}: ${t(`fatfImport.configure.${option}Hint`)}`,
        )}
      />
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t('fatfImport.docs.templateTitle')}</h2>
        <p>{t('fatfImport.docs.template')}</p>
      </section>
    </main>
  );
}

function Section({ title, items }: { title: string; items: readonly string[] }) {
  return (
    <section className="space-y-2">
      <h2 className="text-lg font-semibold">{title}</h2>
      <ul className="list-disc space-y-1 pl-5">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </section>
  );
}
