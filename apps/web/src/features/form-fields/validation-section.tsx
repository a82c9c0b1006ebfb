/**
 * Validation & Constraints of the field dialog: required (with its message), max length,
 * pattern, and the fields that become required when this one has a value (storage names of the
 * catalogue).
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckboxField, ChipsInput, FormField, type ChipsAddition } from '@/components/form';
import { useFieldCatalogue } from './catalogue';
import { DialogSection } from './dialog-section';
import type { FieldFormValues } from './field-form';

export function ValidationSection({ currentId }: { currentId: number | undefined }) {
  const { t } = useTranslation();
  const namesId = useId();
  const { storageNames } = useFieldCatalogue(currentId);

  // A required field must be one of the catalogue (once it is known), each named once.
  const addRequiredField = (names: string[], draft: string): ChipsAddition => {
    const name = draft.trim();
    if (name === '') return {};
    if (storageNames && !storageNames.includes(name)) {
      return { problem: t('formFields.dialog.unknownField', { name }) };
    }
    return { chips: names.includes(name) ? names : [...names, name] };
  };

  return (
    <DialogSection title={t('formFields.dialog.sections.validation')}>
      <CheckboxField<FieldFormValues> name="required" label={t('formFields.dialog.required')} />
      <FormField<FieldFormValues>
        name="validationErrorMessage"
        label={t('formFields.dialog.validationErrorMessage')}
        description={t('formFields.dialog.validationErrorMessageHint')}
      />
      <div className="grid items-start gap-3 sm:grid-cols-[10rem_1fr]">
        <FormField<FieldFormValues>
          name="maxLength"
          label={t('formFields.dialog.maxLength')}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
        />
        <FormField<FieldFormValues>
          name="pattern"
          label={t('formFields.dialog.pattern')}
          description={t('formFields.dialog.patternHint')}
          spellCheck={false}
          className="font-mono"
        />
      </div>
      <ChipsInput<FieldFormValues>
        name="requireFields"
        label={t('formFields.dialog.requireFields')}
        description={t('formFields.dialog.requireFieldsHint')}
        placeholder={t('formFields.dialog.requireFieldPlaceholder')}
        addLabel={t('formFields.dialog.addRequireField')}
        removeLabel={(name) => t('formFields.dialog.removeRequireField', { name })}
        add={addRequiredField}
        list={namesId}
        autoComplete="off"
        spellCheck={false}
        chipClassName="font-mono"
      />
      <datalist id={namesId}>
        {storageNames?.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </DialogSection>
  );
}
