import { CircleAlertIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '@/lib/api-client';
import { Alert, AlertDescription, AlertTitle } from './ui/alert';
import { Button } from './ui/button';

/**
 * The one way a screen shows a failed call: 'API Error: {message} (Status: {status or N/A})'
 * (spec part 1, section 8) in a destructive alert, with a Retry button when the screen can retry.
 */
export function ApiErrorAlert({
  error,
  onRetry,
  text,
  fallback,
  className,
}: {
  error: unknown;
  /** The screen's own words for the error (spec part 2, section 8: forms), instead of the API's. */
  text?: string;
  onRetry?: () => void;
  /** Text for an error that is not an API error (defaults to apiErrorText's own fallback). */
  fallback?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert variant="destructive" className={className}>
      <CircleAlertIcon aria-hidden="true" />
      <AlertTitle>{t('common.errorTitle')}</AlertTitle>
      <AlertDescription>
        <p>{text ?? apiErrorText(error, fallback)}</p>
        {onRetry && (
          <Button variant="outline" size="sm" className="mt-2" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )}
      </AlertDescription>
    </Alert>
  );
}
