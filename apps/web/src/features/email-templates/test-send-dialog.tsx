import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { EMAIL_MAX_LENGTH } from '@console/contracts';
import { ApiErrorAlert } from '@/components/api-error-alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { sendTestEmail } from './api';
import { isTestRecipient } from './editor-state';

/**
 * Sends the selected saved version to one address (spec 5: a template key and a selected version;
 * the basic {email} pattern).
 */
export function TestSendDialog({
  open,
  onOpenChange,
  templateKey,
  version,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  templateKey: string;
  /** The saved version on screen (the test button is disabled for anything else). */
  version: { id: number; versionNumber: number };
}) {
  const { t } = useTranslation();
  const [recipient, setRecipient] = useState('');
  const [invalid, setInvalid] = useState(false);
  const send = useMutation({
    mutationFn: (to: string) =>
      sendTestEmail({ ToAddress: to, TemplateKey: templateKey, VersionId: version.id }),
    onSuccess: () => {
      toast.success(t('emailTemplates.testSent'));
      onOpenChange(false);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const to = recipient.trim();
    const ok = isTestRecipient(to);
    setInvalid(!ok);
    if (ok) send.mutate(to);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!send.isPending) onOpenChange(next);
      }}
    >
      <DialogContent>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{t('emailTemplates.testDialog.title')}</DialogTitle>
            <DialogDescription>
              {t('emailTemplates.testDialog.description', {
                key: templateKey,
                version: version.versionNumber,
              })}
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="test-recipient">{t('emailTemplates.testDialog.recipient')}</Label>
            <Input
              id="test-recipient"
              type="email"
              value={recipient}
              maxLength={EMAIL_MAX_LENGTH}
              aria-invalid={invalid}
              aria-describedby={invalid ? 'test-recipient-message' : undefined}
              onChange={(event) => setRecipient(event.target.value)}
            />
            {invalid && (
              <p id="test-recipient-message" className="text-destructive text-sm">
                {t('emailTemplates.errors.invalidEmail')}
              </p>
            )}
          </div>
          {send.isError && (
            <ApiErrorAlert error={send.error} fallback={t('emailTemplates.errors.testFailed')} />
          )}
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              disabled={send.isPending}
              onClick={() => onOpenChange(false)}
            >
              {t('emailTemplates.testDialog.cancel')}
            </Button>
            <Button type="submit" disabled={send.isPending || !recipient.trim()}>
              {send.isPending
                ? t('emailTemplates.testDialog.sending')
                : t('emailTemplates.testDialog.send')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
