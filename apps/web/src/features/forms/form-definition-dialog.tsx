/**
 * The form-definition dialog (spec part 2, "Form-definition dialog", section 4 "Form dialog"):
 * create a form, edit one (its name locked) or clone one (its name with '_Copy', no id, a name no
 * form has). Editing and cloning load the definition first; the dialog scrolls inside itself so
 * that it fits a laptop screen.
 */
import { useTranslation } from 'react-i18next';
import type { FormListItem } from '@console/contracts';
import { ApiErrorAlert } from '@/components/api-error-alert';
import { FormDialog, type FormDialogProps } from '@/components/form';
import { formsErrorText, useFormDefinitionQuery } from './api';
import { FormDefinitionForm } from './form-definition-form';
import type { FormDialogMode } from './form-definition-values';

export interface FormDefinitionDialogProps extends Pick<FormDialogProps, 'open' | 'onOpenChange'> {
  mode: FormDialogMode;
  /** The form to edit or clone; none to create one. */
  form: FormListItem | null;
  /** Told the success message of each save, for the screen's banner. */
  onSaved: (message: string) => void;
}

export function FormDefinitionDialog({
  open,
  onOpenChange,
  mode,
  form,
  onSaved,
}: FormDefinitionDialogProps) {
  const { t } = useTranslation();
  const name = mode === 'create' ? null : (form?.name ?? null);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(`forms.dialog.${mode}Title`)}
      description={t(`forms.dialog.${mode}Description`, { name })}
      className="max-h-[90vh] overflow-y-auto sm:max-w-2xl"
    >
      {name === null ? (
        <FormDefinitionForm key="create" mode="create" definition={null} onSaved={onSaved} />
      ) : (
        <LoadedDefinitionForm
          key={`${mode}:${name}`}
          mode={mode as Exclude<FormDialogMode, 'create'>}
          name={name}
          onSaved={onSaved}
        />
      )}
    </FormDialog>
  );
}

/** Edit and clone: the form's definition, freshly loaded, then the form on its values. */
function LoadedDefinitionForm({
  mode,
  name,
  onSaved,
}: {
  mode: Exclude<FormDialogMode, 'create'>;
  name: string;
  onSaved: (message: string) => void;
}) {
  const { t } = useTranslation();
  const definition = useFormDefinitionQuery(name);
  if (definition.isError) {
    return (
      <ApiErrorAlert
        error={definition.error}
        text={formsErrorText(definition.error, (status) =>
          t('forms.errors.definitionFailed', { status }),
        )}
        onRetry={() => void definition.refetch()}
      />
    );
  }
  // A definition cached from an earlier opening may be stale: the form starts from a fresh one.
  if (!definition.data || !definition.isFetchedAfterMount) {
    return (
      <p role="status" className="text-muted-foreground text-sm">
        {t('forms.dialog.loading')}
      </p>
    );
  }
  return <FormDefinitionForm mode={mode} definition={definition.data} onSaved={onSaved} />;
}
