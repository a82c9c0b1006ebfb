import { useTranslation } from 'react-i18next';

/** Placeholder of the ratings import guide (/docs/fatf-import, opened in a new window). */
export default function FatfImportDocsPage() {
  const { t } = useTranslation();
  return (
    <main className="mx-auto max-w-3xl p-6 md:p-10">
      <h1 className="text-2xl font-bold tracking-tight">{t('pages.fatfImportDocs')}</h1>
    </main>
  );
}
