/**
 * The storage name (spec part 2, section 5): trimmed, with the spec's one message under the field
 * as it is typed, and the Upper Camel Case advice. It is read-only when an existing field's valid
 * name may not change (`canEditStorageName`: only an admin may rename a valid name). The input
 * takes no max length: a longer name gets the spec's message instead of being cut.
 */
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField } from '@/components/form';
import { Input } from '@/components/ui/input';
import { cn } from '@/components/ui/utils';
import type { FieldFormValues } from './field-form';

export function StorageNameField({ editable }: { editable: boolean }) {
  const { t } = useTranslation();
  const { register } = useFormContext<FieldFormValues>();
  return (
    <FormField<FieldFormValues>
      name="name"
      label={t('formFields.dialog.storageName')}
      description={
        editable ? t('formFields.dialog.storageNameHint') : t('formFields.dialog.storageNameLocked')
      }
      required
      render={(control) => (
        <Input
          {...control}
          maxLength={undefined}
          {...register('name')}
          readOnly={!editable}
          autoComplete="off"
          spellCheck={false}
          className={cn('font-mono', !editable && 'bg-muted text-muted-foreground')}
        />
      )}
    />
  );
}
