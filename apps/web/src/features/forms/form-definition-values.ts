/**
 * The values of the form-definition dialog and their rules (spec part 2, "Form-definition
 * dialog", sections 4 and 5). The rules are contracts' own (`formDefinitionCreateSchema`,
 * `formDefinitionUpdateSchema`, `effectiveGroupOrder`, `sortFieldsForSave`), so the dialog refuses
 * what the server would; the dialog adds the required name in its own words
 * (validation.nameRequired) and, when it makes a new form, a name the list already has.
 */
import type { TFunction } from 'i18next';
import type { Resolver } from 'react-hook-form';
import {
  cloneFormName,
  effectiveGroupOrder,
  formDefinitionCreateSchema,
  formDefinitionUpdateSchema,
  sortFieldsForSave,
  type FormDefinition,
  type FormDefinitionCreate,
  type FormDefinitionUpdate,
  type FormField,
} from '@console/contracts';
import { contractResolver } from '@/components/form';

/** Create and clone make a new form (POST, no id); edit changes one (PUT, name locked). */
export type FormDialogMode = 'create' | 'edit' | 'clone';

/** What the inputs hold: the selected field ids in the order picked, the span as typed. */
export interface FormDefinitionValues {
  name: string;
  description: string;
  fields: number[];
  uiGroupOrder: string[];
  colSpanOverride: string;
}

/** The fields the dialog knows: the catalogue and the definition's own `field_definitions`. */
export type FieldsById = ReadonlyMap<number, FormField>;

export const emptyFormDefinitionValues: FormDefinitionValues = {
  name: '',
  description: '',
  fields: [],
  uiGroupOrder: [],
  colSpanOverride: '0',
};

/** The dialog's values for editing or cloning `definition` (a clone's name gets '_Copy'). */
export function formDefinitionValues(
  definition: FormDefinition,
  mode: Exclude<FormDialogMode, 'create'>,
): FormDefinitionValues {
  return {
    name: mode === 'clone' ? cloneFormName(definition.name) : definition.name,
    description: definition.description,
    fields: [...definition.fields],
    uiGroupOrder: effectiveGroupOrder(definition.uiGroupOrder, definition.field_definitions),
    colSpanOverride: String(definition.colSpanOverride),
  };
}

/** The selected fields that exist, in the order picked, and the ids that name no field. */
export function splitSelected(ids: readonly number[], fieldsById: FieldsById) {
  const known: FormField[] = [];
  const missing: number[] = [];
  for (const id of ids) {
    const field = fieldsById.get(id);
    if (field) known.push(field);
    else missing.push(id);
  }
  return { known, missing };
}

/**
 * The group order shown and saved: the order kept so far, without groups no selected field has
 * any more, with the groups of newly selected fields after it (spec 2: by default the groups of
 * the selected fields in order of first appearance).
 */
export function groupOrderOf(
  values: Pick<FormDefinitionValues, 'fields' | 'uiGroupOrder'>,
  fieldsById: FieldsById,
): string[] {
  return effectiveGroupOrder(values.uiGroupOrder, splitSelected(values.fields, fieldsById).known);
}

/** An input's number: null when empty (the contract reads 0), NaN when not a number. */
function spanOf(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/**
 * The body of POST (create, clone: no id) or PUT (edit: the form's id): the existing fields sorted
 * by group order, field order and display name (spec 2), then the missing references still
 * selected, in their order.
 */
export function formDefinitionRequest(
  values: FormDefinitionValues,
  fieldsById: FieldsById,
  id?: number,
): FormDefinitionCreate | FormDefinitionUpdate {
  const { known, missing } = splitSelected(values.fields, fieldsById);
  const uiGroupOrder = effectiveGroupOrder(values.uiGroupOrder, known);
  return {
    ...(id === undefined ? {} : { id }),
    name: values.name,
    description: values.description,
    fields: [...sortFieldsForSave(known, uiGroupOrder).map((field) => field.id), ...missing],
    uiGroupOrder,
    colSpanOverride: spanOf(values.colSpanOverride),
  };
}

export interface FormDefinitionRules {
  mode: FormDialogMode;
  fieldsById: FieldsById;
  /** The id of the form edited (edit mode). */
  id?: number;
  /** Names of the forms that exist, in lower case: a new form's name must be none of them. */
  takenNames: ReadonlySet<string>;
  t: TFunction;
}

/** react-hook-form's resolver: the contract's schema, and the dialog's own name rules. */
export function formDefinitionResolver({
  mode,
  fieldsById,
  id,
  takenNames,
  t,
}: FormDefinitionRules): Resolver<FormDefinitionValues, unknown, FormDefinitionUpdate> {
  const contract = contractResolver(
    mode === 'edit' ? formDefinitionUpdateSchema : formDefinitionCreateSchema,
    (values: FormDefinitionValues) =>
      formDefinitionRequest(values, fieldsById, mode === 'edit' ? id : undefined),
  );
  return async (values, context, options) => {
    const result = await contract(values, context, options);
    const name = values.name.trim();
    let problem: string | undefined;
    if (name === '') problem = t('validation.nameRequired');
    else if (mode !== 'edit' && !result.errors.name && takenNames.has(name.toLowerCase())) {
      problem = t('forms.dialog.nameTaken', { name });
    }
    if (problem === undefined) return result;
    return {
      values: {},
      errors: { ...result.errors, name: { type: 'validate', message: problem } },
    };
  };
}
