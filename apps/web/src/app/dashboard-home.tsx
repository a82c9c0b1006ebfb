import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';
import { addNamespaces } from '@/lib/i18n';
import { dashboard } from '@/locales/en.json?dashboard&lang.json';

addNamespaces({ dashboard });

/** The dashboard itself (the empty child of /dashboard): a welcome text. */
export default function DashboardHome() {
  const { t } = useTranslation();
  return (
    <PageHeader title={t('dashboard.welcomeTitle')} description={t('dashboard.welcomeText')} />
  );
}
