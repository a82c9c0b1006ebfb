/**
 * What the field dialog says above its buttons: the spec's alert for a save without the three
 * required properties (section 5), and the failure of its call (section 8, "Fields").
 */
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { CircleAlertIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FIELD_REQUIRED_PROPERTIES_MESSAGE } from '@console/contracts';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { serverMessage } from '@/lib/api-client';
import { formFieldErrorText, type FormFieldCall } from './api';
import type { FieldFormValues } from './field-form';
import { missesRequiredProperties } from './field-request';

/** 'Storage Name, Display Name, and Type are required.' once a save was tried without one. */
export function RequiredPropertiesAlert() {
  const { control } = useFormContext<FieldFormValues>();
  const { submitCount } = useFormState({ control });
  const [name, displayName, type] = useWatch({ control, name: ['name', 'displayName', 'type'] });
  if (submitCount === 0 || !missesRequiredProperties({ name, displayName, type })) return null;
  return (
    <Alert variant="destructive">
      <CircleAlertIcon aria-hidden="true" />
      <AlertDescription>{FIELD_REQUIRED_PROPERTIES_MESSAGE}</AlertDescription>
    </Alert>
  );
}

/** 'Failed to create form field: {status}' (or the missing token), then the server's reason. */
export function FailureMessage({ call, error }: { call: FormFieldCall; error: unknown }) {
  const { t } = useTranslation();
  const reason = serverMessage(error);
  return (
    <>
      <p>{formFieldErrorText(call, error, t)}</p>
      {reason && <p>{reason}</p>}
    </>
  );
}
