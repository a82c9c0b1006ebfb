/**
 * The form of the form-definition dialog: name, description, selected fields, UI group order and
 * column span override (spec part 2, "Form-definition dialog"), checked by the contract's schema;
 * saving sends the fields in their save order and says so in a toast and the screen's banner.
 */
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  COL_SPAN_MAX,
  COL_SPAN_MIN,
  formDefinitionCreateSchema,
  formDefinitionUpdateSchema,
  type FormDefinition,
  type FormDefinitionUpdate,
} from '@console/contracts';
import { DialogForm, FormField } from '@/components/form';
import { Textarea } from '@/components/ui/textarea';
import { useFormFieldsQuery } from '@/features/form-fields/api';
import { ApiError } from '@/lib/api-client';
import { formsErrorText, useFormListQuery, useSaveFormMutation } from './api';
import {
  emptyFormDefinitionValues,
  formDefinitionResolver,
  formDefinitionValues,
  type FormDefinitionValues,
  type FormDialogMode,
} from './form-definition-values';
import { GroupOrderField } from './group-order-field';
import { SelectedFieldsField } from './selected-fields-field';

const SUCCESS_KEYS = {
  create: 'forms.created',
  edit: 'forms.updated',
  clone: 'forms.cloned',
} as const;

export function FormDefinitionForm({
  mode,
  definition,
  onSaved,
}: {
  mode: FormDialogMode;
  /** The definition edited or cloned; null to create a form. */
  definition: FormDefinition | null;
  onSaved: (message: string) => void;
}) {
  const { t } = useTranslation();
  const catalogue = useFormFieldsQuery();
  const forms = useFormListQuery();
  const fieldsById = useMemo(
    () =>
      new Map(
        [...(definition?.field_definitions ?? []), ...(catalogue.data ?? [])].map((field) => [
          field.id,
          field,
        ]),
      ),
    [definition, catalogue.data],
  );
  const takenNames = useMemo(
    () => new Set((forms.data ?? []).map((form) => form.name.toLowerCase())),
    [forms.data],
  );
  const resolver = useMemo(
    () => formDefinitionResolver({ mode, fieldsById, id: definition?.id, takenNames, t }),
    [mode, fieldsById, definition?.id, takenNames, t],
  );
  const form = useForm<FormDefinitionValues, unknown, FormDefinitionUpdate>({
    resolver,
    defaultValues:
      definition && mode !== 'create'
        ? formDefinitionValues(definition, mode)
        : emptyFormDefinitionValues,
  });
  const save = useSaveFormMutation(mode === 'edit' ? (definition?.name ?? null) : null);

  const onSubmit = async (body: FormDefinitionUpdate) => {
    try {
      await save.mutateAsync(body);
    } catch (error) {
      // A 400 or 409 goes under its fields; any other failure in the words of spec 8.
      if (error instanceof ApiError && (error.status === 400 || error.status === 409)) throw error;
      const failed = mode === 'edit' ? 'forms.errors.updateFailed' : 'forms.errors.createFailed';
      throw new Error(formsErrorText(error, (status) => t(failed, { status })));
    }
    const message = t(SUCCESS_KEYS[mode]);
    toast.success(message);
    onSaved(message);
  };

  return (
    <DialogForm
      form={form}
      schema={mode === 'edit' ? formDefinitionUpdateSchema : formDefinitionCreateSchema}
      conflictField="name"
      onSubmit={onSubmit}
      submitText={t('forms.dialog.save')}
      pendingText={t('forms.dialog.saving')}
      cancelText={t('forms.dialog.cancel')}
    >
      <FormField<FormDefinitionValues>
        name="name"
        label={t('forms.dialog.name')}
        description={mode === 'edit' ? t('forms.dialog.nameLocked') : t('forms.dialog.nameHint')}
        required
        readOnly={mode === 'edit'}
        autoComplete="off"
        spellCheck={false}
      />
      <FormField<FormDefinitionValues>
        name="description"
        label={t('forms.dialog.description')}
        render={(control) => (
          <Textarea {...control} {...form.register('description')} rows={2} className="max-h-32" />
        )}
      />
      <SelectedFieldsField catalogue={catalogue} fieldsById={fieldsById} />
      <GroupOrderField fieldsById={fieldsById} />
      <FormField<FormDefinitionValues>
        name="colSpanOverride"
        label={t('forms.dialog.colSpanOverride')}
        description={t('forms.dialog.colSpanHint')}
        type="number"
        inputMode="numeric"
        min={COL_SPAN_MIN}
        max={COL_SPAN_MAX}
        step={1}
        className="sm:w-32"
      />
    </DialogForm>
  );
}
