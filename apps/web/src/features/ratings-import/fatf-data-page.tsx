import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';

/** Placeholder of /fatf/data, where the ratings import leads (spec part 2: no route shown). */
export default function FatfDataPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('pages.fatfData')} />;
}
