import { useTranslation } from 'react-i18next';
import { NoticePage } from '../notice-page';
import { paths } from '../paths';
import { addNamespaces } from '@/lib/i18n';
import { login } from '@/locales/en.json?login&lang.json';

addNamespaces({ login });

/**
 * The pages behind the login screen's legal links. The spec does not show their content: the
 * operator of the console provides it; until then each page shows its title.
 */
export function LegalPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <NoticePage title={t(titleKey)} back={{ to: paths.login(), label: t('login.backToSignIn') }} />
  );
}
