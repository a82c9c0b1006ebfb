/**
 * The field dialog (spec part 2, sections 2, 4 and 5): create, edit or clone a field of the
 * catalogue. Its sections are Basic Information, Tags, Validation & Constraints, Select Options
 * (a Select field only), API References and Conditional Requirements. Saving without a storage
 * name, display name or type shows the spec's alert; a refusal of the server is shown in the
 * dialog (a 400 under its field, a 409 under the storage name), which stays open with everything
 * typed.
 */
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { canEditStorageName, type FormField } from '@console/contracts';
import { DialogForm, FormDialog, type FormDialogProps } from '@/components/form';
import { useIsAdmin } from '@/lib/signed-in-user';
import { useSaveFormFieldMutation } from './api';
import { BasicInformationSection } from './basic-information-section';
import { ConditionalRequirementsSection } from './conditional-requirements-section';
import { FailureMessage, RequiredPropertiesAlert } from './dialog-alerts';
import {
  emptyFieldValues,
  fieldFormValues,
  type FieldDialogMode,
  type FieldFormValues,
} from './field-form';
import { fieldFormResolver, fieldSchemaOf, type FieldRequest } from './field-request';
import { ApiReferencesSection, TagsSection } from './name-sections';
import { SelectOptionsSection } from './select-options-section';
import { ValidationSection } from './validation-section';

export interface FieldDialogProps extends Pick<FormDialogProps, 'open' | 'onOpenChange'> {
  mode: FieldDialogMode;
  /** The field to edit or clone; none to create one. */
  field: FormField | null;
}

export function FieldDialog({ open, onOpenChange, mode, field }: FieldDialogProps) {
  const { t } = useTranslation();
  const name = field?.name ?? '';
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(`formFields.dialog.${mode}Title`)}
      description={t(`formFields.dialog.${mode}Description`, { name })}
      // The dialog scrolls inside itself: a whole field is taller than a laptop's screen.
      className="max-h-[90vh] overflow-y-auto sm:max-w-3xl"
    >
      {/* Mounted afresh for each opening, with the values of the field (or of its clone). */}
      <FieldForm key={`${mode}-${field?.id ?? 'new'}`} mode={mode} field={field} />
    </FormDialog>
  );
}

const SUCCESS_KEYS = { create: 'created', edit: 'updated', clone: 'cloned' } as const;

function FieldForm({ mode, field }: { mode: FieldDialogMode; field: FormField | null }) {
  const { t } = useTranslation();
  const isAdminUser = useIsAdmin();
  const resolver = useMemo(() => fieldFormResolver(mode, t), [mode, t]);
  const form = useForm<FieldFormValues, unknown, FieldRequest>({
    resolver,
    defaultValues: field ? fieldFormValues(field, mode) : emptyFieldValues,
    mode: 'onChange',
  });
  const save = useSaveFormFieldMutation(mode === 'edit' ? field?.id : undefined);

  const onSubmit = async (body: FieldRequest) => {
    // A new field and a clone are sent without id (spec 4).
    await save.mutateAsync({ ...body, id: undefined });
    toast.success(t(`formFields.${SUCCESS_KEYS[mode]}`));
  };

  return (
    <DialogForm
      form={form}
      schema={fieldSchemaOf(mode)}
      onSubmit={onSubmit}
      // A 409 is a storage name another field has.
      conflictField="name"
      failureMessage={(error) => (
        <FailureMessage call={mode === 'edit' ? 'update' : 'create'} error={error} />
      )}
      submitText={t('formFields.dialog.save')}
      pendingText={t('formFields.dialog.saving')}
      cancelText={t('formFields.dialog.cancel')}
    >
      <RequiredPropertiesAlert />
      <BasicInformationSection
        storageNameEditable={canEditStorageName(mode, isAdminUser, field?.name ?? '')}
        currentId={mode === 'edit' ? field?.id : undefined}
      />
      <TagsSection />
      <ValidationSection currentId={mode === 'edit' ? field?.id : undefined} />
      <SelectOptionsSection />
      <ApiReferencesSection />
      <ConditionalRequirementsSection currentId={mode === 'edit' ? field?.id : undefined} />
    </DialogForm>
  );
}
