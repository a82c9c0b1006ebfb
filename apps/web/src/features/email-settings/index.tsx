/**
 * Email settings (spec part 2, section 2, "Email Settings (placeholder)"): the SMTP fields with
 * their development defaults. Save makes no call: it only shows that this is a placeholder. The
 * server's mail settings are its environment (SMTP_URL, SMTP_FROM; docs/configuration.md).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { addNamespaces } from '@/lib/i18n';
import { emailSettings } from '@/locales/en.json?emailSettings&lang.json';

addNamespaces({ emailSettings });

/** The defaults (spec 2): a local host, port 19025, a no-reply sender, a development app name. */
export const EMAIL_SETTINGS_DEFAULTS = {
  smtpHost: 'localhost',
  smtpPort: 19025,
  username: '',
  password: '',
  useSsl: false,
  senderEmail: 'no-reply@localhost',
  senderName: 'Administration Console (Development)',
};

type TextField = 'smtpHost' | 'username' | 'password' | 'senderEmail' | 'senderName';

export default function EmailSettingsPage() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState(EMAIL_SETTINGS_DEFAULTS);
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof typeof settings>(key: K, value: (typeof settings)[K]) =>
    setSettings((current) => ({ ...current, [key]: value }));

  const textField = (key: TextField, type = 'text') => (
    <div className="grid gap-2">
      <Label htmlFor={`email-settings-${key}`}>{t(`emailSettings.${key}`)}</Label>
      <Input
        id={`email-settings-${key}`}
        type={type}
        value={settings[key]}
        autoComplete="off"
        onChange={(event) => set(key, event.target.value)}
      />
    </div>
  );

  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaved(true); // No call: the screen is a placeholder (spec 2).
  };

  return (
    <>
      <PageHeader title={t('pages.emailSettings')} />
      <form className="grid max-w-xl gap-4" onSubmit={save} noValidate>
        {textField('smtpHost')}
        <div className="grid gap-2">
          <Label htmlFor="email-settings-smtpPort">{t('emailSettings.smtpPort')}</Label>
          <Input
            id="email-settings-smtpPort"
            type="number"
            value={settings.smtpPort}
            onChange={(event) => set('smtpPort', Number(event.target.value))}
          />
        </div>
        {textField('username')}
        {textField('password', 'password')}
        <div className="flex items-center gap-2">
          <Checkbox
            id="email-settings-useSsl"
            checked={settings.useSsl}
            onCheckedChange={(checked) => set('useSsl', checked === true)}
          />
          <Label htmlFor="email-settings-useSsl">{t('emailSettings.useSsl')}</Label>
        </div>
        {textField('senderEmail', 'email')}
        {textField('senderName')}
        {saved && (
          <Alert role="alert">
            <AlertTitle>{t('emailSettings.placeholderTitle')}</AlertTitle>
            <AlertDescription>{t('emailSettings.placeholder')}</AlertDescription>
          </Alert>
        )}
        <div>
          <Button type="submit">{t('emailSettings.save')}</Button>
        </div>
      </form>
    </>
  );
}
