/**
 * The document type dialog (spec part 1, sections 2, 4 and 5): create or edit. The ID is typed
 * only when creating (it strips invalid characters as typed and shows the spec's message under
 * the field) and read-only when editing. Save is enabled exactly when the display name is not
 * empty and, in create mode, the ID is valid. A refusal of the server is shown in the dialog,
 * which stays open with everything typed.
 */
import { useMemo } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  documentTypeCreateSchema,
  documentTypeUpdateSchema,
  type DocumentType,
} from '@console/contracts';
import { DialogForm, FormDialog, FormField, type FormDialogProps } from '@/components/form';
import { useSaveDocumentTypeMutation } from './api';
import {
  VALIDITY_PARTS,
  canSaveDocumentType,
  documentTypeFormSchema,
  documentTypeFormValues,
  documentTypeRequest,
  documentTypeServerFields,
  emptyDocumentTypeValues,
  type DocumentTypeDialogMode,
  type DocumentTypeFormValues,
} from './document-type-form';
import { DocumentTypeIdField } from './document-type-id-field';
import { ApiReferencesField, TagsField } from './name-editors';

export interface DocumentTypeDialogProps extends Pick<FormDialogProps, 'open' | 'onOpenChange'> {
  /** The document type to edit; none to create one. */
  documentType: DocumentType | null;
}

export function DocumentTypeDialog({ open, onOpenChange, documentType }: DocumentTypeDialogProps) {
  const { t } = useTranslation();
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={
        documentType ? t('documentTypes.dialog.editTitle') : t('documentTypes.dialog.createTitle')
      }
      description={
        documentType
          ? t('documentTypes.dialog.editDescription', { id: documentType.id })
          : t('documentTypes.dialog.createDescription')
      }
      className="max-h-[90vh] overflow-y-auto sm:max-w-2xl"
    >
      {/* Mounted afresh for each opening, with the values of the row being edited. */}
      <DocumentTypeForm key={documentType?.id ?? ''} documentType={documentType} />
    </FormDialog>
  );
}

function DocumentTypeForm({ documentType }: { documentType: DocumentType | null }) {
  const { t } = useTranslation();
  const mode: DocumentTypeDialogMode = documentType ? 'edit' : 'create';
  const schema = useMemo(() => documentTypeFormSchema(mode, t), [mode, t]);
  const form = useForm<DocumentTypeFormValues>({
    resolver: zodResolver(schema),
    defaultValues: documentType ? documentTypeFormValues(documentType) : emptyDocumentTypeValues,
    mode: 'onChange',
  });
  const [id, displayName] = useWatch({ control: form.control, name: ['id', 'displayName'] });
  const save = useSaveDocumentTypeMutation(documentType?.id);

  const onSubmit = async (values: DocumentTypeFormValues) => {
    await save.mutateAsync(documentTypeRequest(values, documentType ?? undefined));
    toast.success(
      mode === 'create'
        ? t('documentTypes.created', { id: values.id })
        : t('documentTypes.updated', { id: values.id }),
    );
  };

  return (
    <DialogForm
      form={form}
      schema={mode === 'create' ? documentTypeCreateSchema : documentTypeUpdateSchema}
      serverFields={documentTypeServerFields}
      onSubmit={onSubmit}
      canSubmit={canSaveDocumentType(mode, { id, displayName })}
      submitText={t('documentTypes.dialog.save')}
      pendingText={t('documentTypes.dialog.saving')}
      cancelText={t('documentTypes.dialog.cancel')}
    >
      <DocumentTypeIdField mode={mode} />
      <FormField<DocumentTypeFormValues>
        name="displayName"
        label={t('documentTypes.dialog.displayName')}
      />
      <TagsField />
      <ApiReferencesField />
      <FormField<DocumentTypeFormValues>
        name="sequence"
        label={t('documentTypes.dialog.sequence')}
        description={t('documentTypes.dialog.sequenceHint')}
        type="number"
        inputMode="numeric"
        step={1}
        className="sm:w-40"
      />
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">{t('documentTypes.dialog.validityPeriod')}</legend>
        <p className="text-muted-foreground text-xs">
          {t('documentTypes.dialog.validityPeriodHint')}
        </p>
        <div className="grid gap-2 sm:grid-cols-3">
          {VALIDITY_PARTS.map((part) => (
            <FormField<DocumentTypeFormValues>
              key={part}
              name={part}
              label={t(`documentTypes.dialog.${part}`)}
              type="number"
              inputMode="numeric"
              min={0}
              max={part === 'months' ? 11 : part === 'days' ? 30 : undefined}
              step={1}
            />
          ))}
        </div>
      </fieldset>
    </DialogForm>
  );
}
