import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';
import { OverviewCards } from '@/features/overview/overview-cards';
import { addNamespaces } from '@/lib/i18n';
import { dashboard } from '@/locales/en.json?dashboard&lang.json';

addNamespaces({ dashboard });

/** The dashboard itself (the empty child of /dashboard): the welcome text, then the overview. */
export default function DashboardHome() {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <PageHeader title={t('dashboard.welcomeTitle')} description={t('dashboard.welcomeText')} />
      <OverviewCards />
    </div>
  );
}
