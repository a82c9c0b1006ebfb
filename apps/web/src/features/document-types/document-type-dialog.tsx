/**
 * The document type dialog (spec part 1, sections 2, 4 and 5): create or edit. The ID is typed
 * only when creating (it strips invalid characters as typed and shows the spec's message under
 * the field) and read-only when editing. Save is enabled exactly when the display name is not
 * empty and, in create mode, the ID is valid. A refusal of the server is shown in the dialog,
 * which stays open with everything typed.
 */
import { useId, useMemo, useState, type ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { CircleAlertIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  DOCUMENT_TYPE_ID_MESSAGES,
  sanitizeDocumentTypeIdInput,
  type DocumentType,
} from '@console/contracts';
import { Alert, AlertDescription } from '@/components/ui/alert';
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
import { apiErrorMessage } from '@/lib/api-client';
import { useSaveDocumentTypeMutation, useUsedApiServiceNamesQuery, useUsedTagsQuery } from './api';
import {
  VALIDITY_PARTS,
  canSaveDocumentType,
  documentTypeFormSchema,
  documentTypeFormValues,
  documentTypeRequest,
  emptyDocumentTypeValues,
  type DocumentTypeDialogMode,
  type DocumentTypeFormValues,
} from './document-type-form';
import { ApiReferencesEditor, TagsEditor } from './name-editors';

export interface DocumentTypeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The document type to edit; none to create one. */
  documentType: DocumentType | null;
}

export function DocumentTypeDialog({ open, onOpenChange, documentType }: DocumentTypeDialogProps) {
  const { t } = useTranslation();
  const mode: DocumentTypeDialogMode = documentType ? 'edit' : 'create';
  const [saving, setSaving] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!saving) onOpenChange(next);
      }}
    >
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>
            {mode === 'create'
              ? t('documentTypes.dialog.createTitle')
              : t('documentTypes.dialog.editTitle')}
          </DialogTitle>
          <DialogDescription>
            {mode === 'create'
              ? t('documentTypes.dialog.createDescription')
              : t('documentTypes.dialog.editDescription', { id: documentType?.id })}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted afresh for each opening, with the values of the row being edited. */}
        <DocumentTypeForm
          key={documentType?.id ?? ''}
          documentType={documentType}
          mode={mode}
          onSavingChange={setSaving}
          onSaved={() => onOpenChange(false)}
          onCancel={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

function DocumentTypeForm({
  documentType,
  mode,
  onSavingChange,
  onSaved,
  onCancel,
}: {
  documentType: DocumentType | null;
  mode: DocumentTypeDialogMode;
  onSavingChange: (saving: boolean) => void;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const schema = useMemo(() => documentTypeFormSchema(mode, t), [mode, t]);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<DocumentTypeFormValues>({
    resolver: zodResolver(schema),
    defaultValues: documentType ? documentTypeFormValues(documentType) : emptyDocumentTypeValues,
    mode: 'onChange',
  });
  const [id, displayName] = useWatch({ control, name: ['id', 'displayName'] });
  // The last thing typed into the ID had characters the input stripped: say which ones it keeps.
  const [idStripped, setIdStripped] = useState(false);
  const usedTags = useUsedTagsQuery();
  const usedServiceNames = useUsedApiServiceNamesQuery();
  const save = useSaveDocumentTypeMutation(documentType?.id);

  const onSubmit = handleSubmit(async (values) => {
    onSavingChange(true);
    try {
      await save.mutateAsync(documentTypeRequest(values, documentType ?? undefined));
      toast.success(
        mode === 'create'
          ? t('documentTypes.created', { id: values.id })
          : t('documentTypes.updated', { id: values.id }),
      );
      onSaved();
    } catch {
      // Shown in the dialog (save.error); the values stay as typed.
    } finally {
      onSavingChange(false);
    }
  });

  const idMessage =
    mode === 'create'
      ? idStripped
        ? DOCUMENT_TYPE_ID_MESSAGES.invalidCharacters
        : errors.id?.message
      : undefined;

  return (
    <form id={formId} noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      <Field
        label={t('documentTypes.dialog.id')}
        message={idMessage}
        hint={mode === 'create' ? t('documentTypes.dialog.idHint') : undefined}
      >
        {(fieldProps) => (
          <Controller
            control={control}
            name="id"
            render={({ field }) => (
              <Input
                {...fieldProps}
                name={field.name}
                ref={field.ref}
                value={field.value}
                onBlur={field.onBlur}
                readOnly={mode === 'edit'}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                onChange={(event) => {
                  const typed = event.target.value;
                  const kept = sanitizeDocumentTypeIdInput(typed);
                  setIdStripped(kept !== typed);
                  field.onChange(kept);
                }}
              />
            )}
          />
        )}
      </Field>

      <Field label={t('documentTypes.dialog.displayName')} message={errors.displayName?.message}>
        {(fieldProps) => <Input {...fieldProps} {...register('displayName')} />}
      </Field>

      <Controller
        control={control}
        name="tags"
        render={({ field }) => (
          <TagsEditor value={field.value} onChange={field.onChange} usedTags={usedTags.data} />
        )}
      />

      <ApiReferencesEditor
        control={control}
        register={register}
        errors={errors.apiReferences}
        usedServiceNames={usedServiceNames.data}
      />

      <Field
        label={t('documentTypes.dialog.sequence')}
        message={errors.sequence?.message}
        hint={t('documentTypes.dialog.sequenceHint')}
      >
        {(fieldProps) => (
          <Input
            {...fieldProps}
            type="number"
            inputMode="numeric"
            step={1}
            className="sm:w-40"
            {...register('sequence')}
          />
        )}
      </Field>

      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">{t('documentTypes.dialog.validityPeriod')}</legend>
        <p className="text-muted-foreground text-xs">
          {t('documentTypes.dialog.validityPeriodHint')}
        </p>
        <div className="grid gap-2 sm:grid-cols-3">
          {VALIDITY_PARTS.map((part) => (
            <Field
              key={part}
              label={t(`documentTypes.dialog.${part}`)}
              message={errors[part]?.message}
            >
              {(fieldProps) => (
                <Input
                  {...fieldProps}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={part === 'months' ? 11 : part === 'days' ? 30 : undefined}
                  step={1}
                  {...register(part)}
                />
              )}
            </Field>
          ))}
        </div>
      </fieldset>

      {save.isError && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription>{apiErrorMessage(save.error)}</AlertDescription>
        </Alert>
      )}

      <DialogFooter>
        <Button type="button" variant="outline" disabled={save.isPending} onClick={onCancel}>
          {t('documentTypes.dialog.cancel')}
        </Button>
        <Button
          type="submit"
          disabled={!canSaveDocumentType(mode, { id, displayName }) || save.isPending}
          aria-busy={save.isPending || undefined}
        >
          {save.isPending ? t('documentTypes.dialog.saving') : t('documentTypes.dialog.save')}
        </Button>
      </DialogFooter>
    </form>
  );
}

interface FieldControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** A labelled input with its hint and its message underneath, tied together for screen readers. */
function Field({
  label,
  hint,
  message,
  children,
}: {
  label: string;
  hint?: string;
  message?: string;
  children: (props: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const messageId = `${id}-message`;
  const describedBy = [hint && hintId, message && messageId].filter(Boolean).join(' ');
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': message ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p id={hintId} className="text-muted-foreground text-xs">
          {hint}
        </p>
      )}
      {message && (
        <p id={messageId} className="text-destructive text-sm">
          {message}
        </p>
      )}
    </div>
  );
}
