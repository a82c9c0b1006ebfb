import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';

/** The dashboard itself (the empty child of /dashboard): a welcome text. */
export default function DashboardHome() {
  const { t } = useTranslation();
  return (
    <PageHeader title={t('dashboard.welcomeTitle')} description={t('dashboard.welcomeText')} />
  );
}
