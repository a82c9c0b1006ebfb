/**
 * The tenant and tenant-user dialogs say a missing required field once, in an alert above the
 * fields ('Please fill in all required fields.', spec part 1, section 5), rather than under each
 * field; the field is still marked invalid.
 */
import { useFormState } from 'react-hook-form';
import { CircleAlertIcon } from 'lucide-react';
import { REQUIRED_FIELDS_MESSAGE } from '@console/contracts';
import { Alert, AlertDescription } from '@/components/ui/alert';

/** A field's message, unless it is the alert's: for `FormField`'s `messageOf`. */
export const withoutRequiredFieldsMessage = (message: string | undefined) =>
  message === REQUIRED_FIELDS_MESSAGE ? undefined : message;

/** The alert, once a save was tried with a required field missing. */
export function RequiredFieldsAlert() {
  const { errors, isSubmitted } = useFormState();
  const missing =
    isSubmitted &&
    Object.values(errors).some((error) => error?.message === REQUIRED_FIELDS_MESSAGE);
  if (!missing) return null;
  return (
    <Alert variant="destructive">
      <CircleAlertIcon aria-hidden="true" />
      <AlertDescription>{REQUIRED_FIELDS_MESSAGE}</AlertDescription>
    </Alert>
  );
}
