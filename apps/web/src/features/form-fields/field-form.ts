/**
 * The values of the field dialog (spec part 2, sections 3 and 4): what its inputs hold, for a
 * new field, a stored one and a clone. `field-request.ts` turns them into the call's body.
 */
import {
  cloneDisplayName,
  cloneStorageName,
  decodeConditionalRequirement,
  type FieldPermissionRole,
  type FormField,
  type FormFieldType,
  type RequirementType,
} from '@console/contracts';
import { apiReferenceRows, type ApiReferenceRow } from '@/components/form';

export type FieldDialogMode = 'create' | 'edit' | 'clone';

/** A conditional requirement as its row shows it: the values as typed, without '!'. */
export interface RequirementFormRow {
  fieldName: string;
  type: RequirementType;
  triggerValues: string;
  validationMessage: string;
}

/** What the inputs hold: numbers and options as typed, so that an empty field stays empty. */
export interface FieldFormValues {
  name: string;
  displayName: string;
  type: FormFieldType | '';
  uiGroup: string;
  section: string;
  order: string;
  note: string;
  aliasFor: string;
  printLabel: string;
  print: boolean;
  printSequence: string;
  viewPermissions: FieldPermissionRole[];
  editPermissions: FieldPermissionRole[];
  tags: string[];
  required: boolean;
  validationErrorMessage: string;
  maxLength: string;
  pattern: string;
  requireFields: string[];
  /** Select options, one per line. */
  options: string;
  apiReferences: ApiReferenceRow[];
  conditionalRequirements: RequirementFormRow[];
}

export const emptyFieldValues: FieldFormValues = {
  name: '',
  displayName: '',
  type: '',
  uiGroup: '',
  section: '',
  order: '',
  note: '',
  aliasFor: '',
  printLabel: '',
  print: false,
  printSequence: '',
  viewPermissions: [],
  editPermissions: [],
  tags: [],
  required: false,
  validationErrorMessage: '',
  maxLength: '',
  pattern: '',
  requireFields: [],
  options: '',
  apiReferences: [],
  conditionalRequirements: [],
};

export const emptyRequirementRow: RequirementFormRow = {
  fieldName: '',
  type: 'any',
  triggerValues: '',
  validationMessage: '',
};

const numberText = (value: number | null) => (value === null ? '' : String(value));

/** The dialog's values for a stored field: as it is (edit), or as its clone (spec 4). */
export function fieldFormValues(field: FormField, mode: FieldDialogMode, now = new Date()) {
  const values: FieldFormValues = {
    name: field.name,
    displayName: field.displayName,
    type: field.type,
    uiGroup: field.uiGroup,
    section: field.section ?? '',
    order: numberText(field.order),
    note: field.note ?? '',
    aliasFor: field.aliasFor ?? '',
    printLabel: field.printLabel ?? '',
    print: field.print,
    printSequence: numberText(field.printSequence),
    viewPermissions: [...field.viewPermissions],
    editPermissions: [...field.editPermissions],
    tags: [...field.tags],
    required: field.required,
    validationErrorMessage: field.validationErrorMessage ?? '',
    maxLength: numberText(field.maxLength),
    pattern: field.pattern ?? '',
    requireFields: [...field.requireFields],
    options: field.options.join('\n'),
    apiReferences: apiReferenceRows(field.apiReferences),
    conditionalRequirements: field.conditionalRequirements.map((requirement) => {
      const row = decodeConditionalRequirement(requirement);
      return {
        fieldName: row.fieldName,
        type: row.type,
        triggerValues: row.values.join(', '),
        validationMessage: row.validationMessage ?? '',
      };
    }),
  };
  if (mode !== 'clone') return values;
  return {
    ...values,
    name: cloneStorageName(field.name, now),
    displayName: cloneDisplayName(field.displayName),
  };
}
