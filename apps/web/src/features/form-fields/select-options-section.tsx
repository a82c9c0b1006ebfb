/**
 * Select Options of the field dialog, shown for a Select field only (spec 2): one option per
 * line, trimmed, empty lines dropped when saving (`parseSelectOptions`).
 */
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField } from '@/components/form';
import { Textarea } from '@/components/ui/textarea';
import { DialogSection } from './dialog-section';
import type { FieldFormValues } from './field-form';

export function SelectOptionsSection() {
  const { t } = useTranslation();
  const { register } = useFormContext<FieldFormValues>();
  const type = useWatch<FieldFormValues, 'type'>({ name: 'type' });
  if (type !== 'Select') return null;
  return (
    <DialogSection title={t('formFields.dialog.sections.options')}>
      <FormField<FieldFormValues>
        name="options"
        label={t('formFields.dialog.options')}
        description={t('formFields.dialog.optionsHint')}
        render={(control) => <Textarea {...control} {...register('options')} rows={5} />}
      />
    </DialogSection>
  );
}
