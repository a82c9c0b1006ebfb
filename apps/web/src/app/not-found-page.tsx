import { useTranslation } from 'react-i18next';
import { NoticePage } from './notice-page';
import { paths } from './paths';
import { addNamespaces } from '@/lib/i18n';
import { notFound } from '@/locales/en.json?notFound&lang.json';

addNamespaces({ notFound });

/** Any URL the route table does not know. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <NoticePage
      title={t('notFound.title')}
      text={t('notFound.text')}
      back={{ to: paths.dashboard(), label: t('common.backToDashboard') }}
    />
  );
}
