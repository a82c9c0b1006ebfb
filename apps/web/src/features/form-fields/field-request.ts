/**
 * The body of the field dialog's call and its rules (spec part 2, sections 3 and 5). The rules
 * are the contract's own (`formFieldCreateSchema`, `formFieldUpdateSchema`, the storage-name
 * messages, select options one per line, conditional requirements with '!' for "none of"), so
 * the dialog refuses exactly what the server would.
 */
import type { TFunction } from 'i18next';
import type { Resolver } from 'react-hook-form';
import type { z } from 'zod';
import {
  conditionalRequirementsOf,
  formFieldCreateSchema,
  formFieldUpdateSchema,
  normalizeTags,
  parseSelectOptions,
  type FormFieldCreate,
  type FormFieldType,
  type FormFieldUpdate,
} from '@console/contracts';
import { apiReferenceMap, apiReferenceProblems, contractResolver } from '@/components/form';
import type { FieldDialogMode, FieldFormValues } from './field-form';

/** An input's number: null when empty, NaN when it is not a number (the contract refuses it). */
function numberOrNull(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/** The body as typed: the type may still be missing (the contract says 'Type is required.'). */
export type FieldRequestAsTyped = Omit<FormFieldCreate, 'type'> & {
  type: FormFieldType | undefined;
};

/**
 * The body of POST or PUT as typed, before the contract's rules: options only for a Select,
 * tags normalised, blank API reference rows and incomplete requirement rows left out (spec 5).
 */
export function fieldRequestOf(values: FieldFormValues): FieldRequestAsTyped {
  return {
    name: values.name,
    displayName: values.displayName,
    type: values.type === '' ? undefined : values.type,
    uiGroup: values.uiGroup,
    section: values.section,
    order: numberOrNull(values.order),
    note: values.note,
    aliasFor: values.aliasFor.trim(),
    printLabel: values.printLabel,
    print: values.print,
    printSequence: numberOrNull(values.printSequence),
    viewPermissions: values.viewPermissions,
    editPermissions: values.editPermissions,
    tags: normalizeTags(values.tags),
    required: values.required,
    validationErrorMessage: values.validationErrorMessage,
    maxLength: numberOrNull(values.maxLength),
    pattern: values.pattern,
    requireFields: values.requireFields,
    options: values.type === 'Select' ? parseSelectOptions(values.options) : [],
    apiReferences: apiReferenceMap(values.apiReferences),
    conditionalRequirements: conditionalRequirementsOf(values.conditionalRequirements),
  };
}

/** Whether one of the three required properties is missing (spec 5: the alert). */
export function missesRequiredProperties(
  values: Pick<FieldFormValues, 'name' | 'displayName' | 'type'>,
): boolean {
  return values.name.trim() === '' || values.displayName.trim() === '' || values.type === '';
}

/** The checked body of the dialog's call (a create's has no id). */
export type FieldRequest = z.output<typeof formFieldUpdateSchema>;

/** The resolver of the dialog: the contract of its call, each problem under its field. */
export function fieldFormResolver(
  mode: FieldDialogMode,
  t: TFunction,
): Resolver<FieldFormValues, unknown, FieldRequest> {
  const problems = (values: FieldFormValues) =>
    apiReferenceProblems(values.apiReferences).map(({ index, part, kind, service }) => ({
      path: `apiReferences.${index}.${part}`,
      message: t(`formFields.dialog.errors.${kind}`, { service }),
    }));
  return contractResolver<FieldFormValues, z.ZodType<FieldRequest, FormFieldUpdate>>(
    fieldSchemaOf(mode),
    // A missing type is the contract's to refuse, in its words.
    (values) => fieldRequestOf(values) as FormFieldUpdate,
    problems,
  );
}

/** The contract of the dialog's call: PUT when editing, POST when creating or cloning. */
export const fieldSchemaOf = (mode: FieldDialogMode) =>
  mode === 'edit' ? formFieldUpdateSchema : formFieldCreateSchema;
