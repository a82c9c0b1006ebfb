import { IdCardIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { addNamespaces } from '@/lib/i18n';
import { formUsage } from '@/locales/en.json?formUsage&lang.json';

// The button shows with the tenants and entities screens, before the dialogs' code loads.
addNamespaces({ formUsage });

/** A row's Profile button (spec part 1, section 2): 'Profile', named for the row's tenant or entity. */
export function ProfileButton({ name, onClick }: { name: string; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-label={t('formUsage.profileOf', { name })}
      onClick={onClick}
    >
      <IdCardIcon aria-hidden="true" />
      {t('formUsage.profile')}
    </Button>
  );
}
