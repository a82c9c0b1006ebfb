import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '../paths';

/** Shown in place of a screen the signed-in user's roles do not allow. */
export function NotAvailable() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-start gap-4">
      <h1 className="text-2xl font-bold tracking-tight">{t('access.notAvailableTitle')}</h1>
      <p className="text-muted-foreground">{t('access.notAvailable')}</p>
      <Button asChild variant="outline">
        <Link to={paths.dashboard()}>{t('common.backToDashboard')}</Link>
      </Button>
    </div>
  );
}
