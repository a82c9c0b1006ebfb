import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';

/** Placeholder until the screen is built: its title only. */
export default function FatfImportPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.fatfImport')} />;
}
