/**
 * The form-test dialog (spec part 2, section 2, "Form-test dialog"; sections 5, 7, 8 and 9): the
 * form's definition gives its groups (`effectiveGroupOrder`), whose HTML loads side by side; a
 * group that fails shows its error in place and a warning names the failed groups; an
 * unresolved field reference in the HTML raises a warning too. The setup event carries the
 * countries and document types. Submit sends the inputs named `DataObject.…` as `{DataObject}`
 * and shows the server's answer: its message, or why it refused, field by field.
 */
import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { effectiveGroupOrder } from '@console/contracts';
import {
  DynamicDialogForm,
  loadingOrFailure,
  serverMessageOf,
  useFieldGroups,
  validationProblemOf,
  type CollectedForm,
  type SubmitOutcome,
} from '@/components/dynamic-form';
import { FormDialog } from '@/components/form';
import { ApiError } from '@/lib/api-client';
import { getAuthSession } from '@/lib/auth-session';
import { addNamespaces } from '@/lib/i18n';
import { useFormChoices } from '@/features/form-usage/api';
import { loadWarnings } from '@/features/form-usage/load-warnings';
import { formUsage } from '@/locales/en.json?formUsage&lang.json';
import { useFormDefinitionQuery } from './api';
import { fetchFormFieldGroup, formTestQueryKeys, submitTestForm } from './form-test-api';

addNamespaces({ formUsage });

export interface FormTestDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The form to render and submit. */
  formName: string | null;
}

export function FormTestDialog({ open, onOpenChange, formName }: FormTestDialogProps) {
  const { t } = useTranslation();
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('formUsage.test.title', { name: formName ?? '' })}
      description={t('formUsage.test.description')}
      className="max-h-[90vh] overflow-y-auto sm:max-w-3xl"
    >
      {/* Made afresh at each opening: nothing typed in an earlier test remains. */}
      <FormTest key={formName ?? ''} formName={formName} />
    </FormDialog>
  );
}

const NO_GROUPS: readonly string[] = [];

function FormTest({ formName }: { formName: string | null }) {
  const { t } = useTranslation();
  const definition = useFormDefinitionQuery(formName);
  const groups = useMemo(
    () =>
      definition.data
        ? effectiveGroupOrder(definition.data.uiGroupOrder, definition.data.field_definitions)
        : NO_GROUPS,
    [definition.data],
  );
  const fieldGroups = useFieldGroups({
    groups,
    queryKey: (group) => formTestQueryKeys.fieldGroup(formName ?? '', group),
    load: (group, signal) => fetchFormFieldGroup(formName ?? '', group, signal),
    enabled: formName !== null,
  });
  const setup = useFormChoices();

  // Without a form name nothing loads: Submit then says the name is missing.
  const waiting =
    formName !== null &&
    loadingOrFailure(definition, {
      loadingText: t('formUsage.test.loading'),
      closeText: t('formUsage.test.close'),
    });
  if (waiting) return waiting;

  const warnings = loadWarnings(fieldGroups, t);
  if (formName !== null && groups.length === 0) {
    warnings.unshift(t('formUsage.test.noGroups', { name: formName }));
  }
  const onSubmit = async ({ DataObject }: CollectedForm): Promise<SubmitOutcome> => {
    if (!formName) return { kind: 'failure', message: t('formUsage.test.formNameMissing') };
    if (!getAuthSession().accessToken) {
      return { kind: 'failure', message: t('formUsage.test.noToken') };
    }
    try {
      const result = await submitTestForm(formName, DataObject);
      return { kind: 'success', message: result.message };
    } catch (error) {
      return submitFailure(error, t);
    }
  };

  return (
    <DynamicDialogForm
      formName={formName ?? ''}
      groups={fieldGroups.groups}
      warnings={warnings}
      setup={setup}
      onSubmit={onSubmit}
      canSubmit={!fieldGroups.loading}
      submitText={t('formUsage.test.submit')}
      pendingText={t('formUsage.test.submitting')}
      cancelText={t('formUsage.test.close')}
    />
  );
}

/**
 * What a refused test submission says (spec part 2, section 8, "Forms"): a 400 with an errors
 * map, its title (else 'Validation failed.') and each field's messages, marked on the form; any
 * other answer, the server's message, else 'Validation failed. Please check the form.' for a
 * 400 and 'Submission failed with status: {status}' otherwise; no answer at all, 'An unexpected
 * error occurred during submission.'
 */
function submitFailure(error: unknown, t: TFunction): SubmitOutcome {
  const problem = validationProblemOf(error);
  if (problem) {
    return {
      kind: 'failure',
      message: problem.title ?? t('formUsage.test.validationFailed'),
      errors: problem.errors,
    };
  }
  if (error instanceof ApiError && error.status !== undefined) {
    const fallback =
      error.status === 400
        ? t('formUsage.test.validationFailedCheck')
        : t('formUsage.test.submissionFailed', { status: error.status });
    return { kind: 'failure', message: serverMessageOf(error) ?? fallback };
  }
  return { kind: 'failure', message: t('formUsage.test.unexpected') };
}
