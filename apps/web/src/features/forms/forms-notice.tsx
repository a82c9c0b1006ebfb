/**
 * The banner of the forms screen (spec part 2, "Forms list": error and success banners): the
 * outcome of the last action, kept until the next one or until dismissed.
 */
import { useTranslation } from 'react-i18next';
import { CircleAlertIcon, CircleCheckIcon, XIcon } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

export function FormsNotice({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  const { t } = useTranslation();
  const success = notice.kind === 'success';
  const Icon = success ? CircleCheckIcon : CircleAlertIcon;
  return (
    <Alert
      variant={success ? 'default' : 'destructive'}
      role={success ? 'status' : 'alert'}
      className={success ? 'border-green-600/40 text-green-800 dark:text-green-300' : undefined}
    >
      <Icon aria-hidden="true" />
      <AlertDescription className="flex items-center justify-between gap-2 text-current">
        <span>{notice.text}</span>
        <Button
          variant="ghost"
          size="icon"
          className="size-6"
          aria-label={t('forms.dismiss')}
          onClick={onDismiss}
        >
          <XIcon aria-hidden="true" />
        </Button>
      </AlertDescription>
    </Alert>
  );
}
