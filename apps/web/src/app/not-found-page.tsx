import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthLayout } from './auth-layout';
import { paths } from './paths';
import { addNamespaces } from '@/lib/i18n';
import { notFound } from '@/locales/en.json?notFound&lang.json';

addNamespaces({ notFound });

/** Any URL the route table does not know. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout>
      <h1 className="text-xl font-semibold">{t('notFound.title')}</h1>
      <p className="text-muted-foreground text-sm">{t('notFound.text')}</p>
      <Link
        to={paths.dashboard()}
        className="text-sm font-medium underline underline-offset-4 focus-visible:ring-ring/50 rounded-sm outline-none focus-visible:ring-[3px]"
      >
        {t('common.backToDashboard')}
      </Link>
    </AuthLayout>
  );
}
