import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ensureAppConfig, useAppConfig } from '@/lib/app-config';

/**
 * A list screen waits for the application configuration before it loads (spec part 1, section 2):
 * until then it shows 'Waiting for configuration...' and does not mount its children, so their
 * queries start only once the API base URL is known. If startup could not load the
 * configuration, one more load is attempted.
 */
export function WaitingForConfiguration({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { status } = useAppConfig();

  useEffect(() => {
    if (status === 'not_loaded') void ensureAppConfig();
  }, [status]);

  if (status === 'not_loaded') {
    return (
      <p role="status" className="text-muted-foreground text-sm">
        {t('common.waitingForConfiguration')}
      </p>
    );
  }
  return <>{children}</>;
}
