import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthLayout } from '../auth-layout';
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
    <AuthLayout>
      <h1 className="text-xl font-semibold">{t(titleKey)}</h1>
      <Link
        to={paths.login()}
        className="rounded-sm text-sm font-medium underline underline-offset-4 outline-none focus-visible:ring-ring/50 focus-visible:ring-[3px]"
      >
        {t('login.backToSignIn')}
      </Link>
    </AuthLayout>
  );
}
