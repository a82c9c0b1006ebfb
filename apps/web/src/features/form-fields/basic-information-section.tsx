/**
 * Basic Information of the field dialog: storage name, display name, type (Country shows as
 * 'Country Selector'), UI group (the groups in use suggested), section, order and note, then how
 * the field prints and who may see and change it. A missing display name or type is said by the
 * dialog's alert, not under the field.
 */
import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FORM_FIELD_TYPES } from '@console/contracts';
import { FormField, SelectField } from '@/components/form';
import { Textarea } from '@/components/ui/textarea';
import { useFieldCatalogue } from './catalogue';
import { DialogSection } from './dialog-section';
import type { FieldFormValues } from './field-form';
import { PrintAndPermissionsFields } from './print-and-permissions-fields';
import { StorageNameField } from './storage-name-field';

export function BasicInformationSection({
  storageNameEditable,
  currentId,
}: {
  storageNameEditable: boolean;
  /** The field being edited, left out of the suggestions. */
  currentId: number | undefined;
}) {
  const { t } = useTranslation();
  const groupsId = useId();
  const { control, register, setValue } = useFormContext<FieldFormValues>();
  const [displayName, type] = useWatch({ control, name: ['displayName', 'type'] });
  const { uiGroups } = useFieldCatalogue(currentId);
  const typeOptions = FORM_FIELD_TYPES.map((value) => ({
    value,
    label: t(`formFields.types.${value}`),
  }));

  return (
    <DialogSection title={t('formFields.dialog.sections.basic')}>
      <div className="grid items-start gap-3 sm:grid-cols-2">
        <StorageNameField editable={storageNameEditable} />
        <FormField<FieldFormValues>
          name="displayName"
          label={t('formFields.dialog.displayName')}
          required
          messageOf={(message) => (displayName.trim() === '' ? undefined : message)}
        />
        <SelectField<FieldFormValues>
          name="type"
          label={t('formFields.dialog.type')}
          required
          placeholder={t('formFields.dialog.typePlaceholder')}
          options={typeOptions}
          messageOf={(message) => (type === '' ? undefined : message)}
          // Spec 4: changing the type away from Select clears the options.
          onValueChange={(value) => {
            if (value !== 'Select') setValue('options', '', { shouldValidate: true });
          }}
        />
        <FormField<FieldFormValues>
          name="uiGroup"
          label={t('formFields.dialog.uiGroup')}
          description={t('formFields.dialog.uiGroupHint')}
          list={groupsId}
          autoComplete="off"
        />
        <datalist id={groupsId}>
          {uiGroups.map((group) => (
            <option key={group} value={group} />
          ))}
        </datalist>
        <FormField<FieldFormValues> name="section" label={t('formFields.dialog.section')} />
        <FormField<FieldFormValues>
          name="order"
          label={t('formFields.dialog.order')}
          type="number"
          inputMode="numeric"
          step={1}
        />
      </div>
      <FormField<FieldFormValues>
        name="note"
        label={t('formFields.dialog.note')}
        description={t('formFields.dialog.noteHint')}
        render={(control) => <Textarea {...control} {...register('note')} rows={2} />}
      />
      <PrintAndPermissionsFields currentId={currentId} />
    </DialogSection>
  );
}
