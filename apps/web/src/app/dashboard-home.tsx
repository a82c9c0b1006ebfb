import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';
import { addNamespaces } from '@/lib/i18n';
import { useBrowserIdle } from '@/lib/use-browser-idle';
import { dashboard } from '@/locales/en.json?dashboard&lang.json';

addNamespaces({ dashboard });

// The overview and what it needs (the contracts' schemas with zod, the query hooks: about 30 kB
// gzip) load once the browser is idle after the shell showed: the shell is usable first.
const OverviewCards = lazy(async () => ({
  default: (await import('@/features/overview/overview-cards')).OverviewCards,
}));

/** The dashboard itself (the empty child of /dashboard): the welcome text, then the overview. */
export default function DashboardHome() {
  const { t } = useTranslation();
  const idle = useBrowserIdle();
  return (
    <div className="space-y-6">
      <PageHeader title={t('dashboard.welcomeTitle')} description={t('dashboard.welcomeText')} />
      {idle && (
        <Suspense fallback={<p role="status">{t('dashboard.overview.loading')}</p>}>
          <OverviewCards />
        </Suspense>
      )}
    </div>
  );
}
