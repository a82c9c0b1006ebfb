import isSafeRegex from 'safe-regex2';
import { z } from 'zod';
import { apiRoute } from './api.ts';
import { apiReferenceMapSchema, DISPLAY_NAME_MAX_LENGTH, tagListSchema } from './document-types.ts';
import { idParamsSchema } from './ids.ts';
import { isPrototypeKey, prototypeKeyMessage } from './keys.ts';
import { text } from './text.ts';

/**
 * Form fields: the catalogue every form picks its fields from (spec part 2, sections 2-5, 7-9,
 * "Form field", "Field dialog", "Form fields list"). The dialog and the server share these rules.
 */

// ---------------------------------------------------------------------------------------------
// Types and limits.

/** The field types of spec 3; 'Country' is shown as 'Country Selector'. */
export const FORM_FIELD_TYPES = [
  'Checkbox',
  'Country',
  'Date',
  'DateTime',
  'DocumentType',
  'DropdownYesNo',
  'Email',
  'FileUpload',
  'PartyList',
  'PhoneNumber',
  'Select',
  'Text',
] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

export function isFormFieldType(value: unknown): value is FormFieldType {
  return (FORM_FIELD_TYPES as readonly unknown[]).includes(value);
}

/**
 * A Text field is one line up to this many characters and a multi-line box above it (spec 3:
 * "Text (input or textarea)"; the field has no other property that could choose).
 */
export const TEXT_INPUT_MAX_LENGTH = 255;

/** Roles a field's viewPermissions / editPermissions may name; an empty list means every role. */
export const FIELD_PERMISSION_ROLES = ['admin', 'staff', 'tenant'] as const;
export type FieldPermissionRole = (typeof FIELD_PERMISSION_ROLES)[number];

/** The group of a field that names none. */
export const DEFAULT_UI_GROUP = 'General';
/**
 * Group names the forms service cannot serve as `/svc/formusage/{group}/fieldgroup`: that path
 * is `/svc/formusage/tenant/{id}` (and entity) for these names, whatever their letter case.
 */
export const RESERVED_UI_GROUPS = ['tenant', 'entity'] as const;

export const STORAGE_NAME_MAX_LENGTH = 50;
export const FIELD_DISPLAY_NAME_MAX_LENGTH = DISPLAY_NAME_MAX_LENGTH;
export const FIELD_SECTION_MAX_LENGTH = 100;
export const UI_GROUP_MAX_LENGTH = 100;
export const FIELD_NOTE_MAX_LENGTH = 2000;
export const VALIDATION_MESSAGE_MAX_LENGTH = 500;
export const PATTERN_MAX_LENGTH = 500;
export const PRINT_LABEL_MAX_LENGTH = 200;
/** The largest maxLength a field may set, and the longest value of a field that sets none. */
export const FIELD_VALUE_MAX_LENGTH = 10_000;
export const SELECT_OPTION_MAX_LENGTH = 200;
export const SELECT_OPTIONS_MAX_COUNT = 200;
export const REQUIRE_FIELDS_MAX_COUNT = 50;
export const CONDITIONAL_REQUIREMENTS_MAX_COUNT = 20;
export const TRIGGER_VALUE_MAX_LENGTH = 200;
export const TRIGGER_VALUES_MAX_COUNT = 50;

// ---------------------------------------------------------------------------------------------
// Storage name (spec 5, "Field dialog").

/** The spec's messages, word for word. */
export const STORAGE_NAME_MESSAGES = {
  required: 'Storage name is required.',
  tooLong: `Storage name must be ${STORAGE_NAME_MAX_LENGTH} characters or less.`,
  mustStartWith: 'Storage name must start with a letter or underscore.',
  invalidCharacters: 'Storage name can only contain letters, numbers, and underscores.',
} as const;

/** The alert of a save without the three required properties (spec 5). */
export const FIELD_REQUIRED_PROPERTIES_MESSAGE =
  'Storage Name, Display Name, and Type are required.';

/**
 * The one message that applies to a storage name, or null when it is valid. The name is trimmed
 * first (spec 5), then checked in the spec's order: required, length, first character,
 * characters; and last, it must not be a prototype key (keys.ts). Letters are ASCII letters: the
 * name is a key of the submitted DataObject, of a profile and of every object built from them.
 */
export function validateStorageName(raw: string): string | null {
  const name = raw.trim();
  if (name.length === 0) return STORAGE_NAME_MESSAGES.required;
  if (name.length > STORAGE_NAME_MAX_LENGTH) return STORAGE_NAME_MESSAGES.tooLong;
  if (!/^[A-Za-z_]/.test(name)) return STORAGE_NAME_MESSAGES.mustStartWith;
  if (!/^[A-Za-z0-9_]*$/.test(name)) return STORAGE_NAME_MESSAGES.invalidCharacters;
  if (isPrototypeKey(name)) return `${prototypeKeyMessage('Storage name', name)}.`;
  return null;
}

export const isValidStorageName = (raw: string): boolean => validateStorageName(raw) === null;

/**
 * Whether the dialog lets the storage name be changed (spec 5): when creating or cloning, when
 * an admin edits, or when the current name is invalid (so that it can be mended). The server
 * applies the same rule to a PUT that renames.
 */
export function canEditStorageName(
  mode: 'create' | 'edit' | 'clone',
  isAdminUser: boolean,
  currentName: string,
): boolean {
  return mode !== 'edit' || isAdminUser || !isValidStorageName(currentName);
}

/** The server's 403 to a PUT that renames a valid storage name without being an admin. */
export const STORAGE_NAME_ADMIN_ONLY_MESSAGE =
  'Only an administrator can change a valid storage name.';

/** A storage name as a schema: trimmed, with the spec's single message. */
export const storageNameSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? STORAGE_NAME_MESSAGES.required
        : 'Storage name must be a string',
  })
  .trim()
  .max(STORAGE_NAME_MAX_LENGTH, { error: STORAGE_NAME_MESSAGES.tooLong, abort: true })
  .superRefine((name, ctx) => {
    const message = validateStorageName(name);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

// ---------------------------------------------------------------------------------------------
// Clone (spec 4, "Field dialog").

/** yyyyMMdd_HHmmss of `now` in the user's time zone (the browser's). */
export function cloneTimestamp(now: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  // Four digits for the year too (a clock set to year 999 gives 0999, not 999).
  return (
    `${String(now.getFullYear()).padStart(4, '0')}${two(now.getMonth() + 1)}${two(now.getDate())}_` +
    `${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`
  );
}

/**
 * The storage name of a clone: the name, shortened so that the whole stays within 50
 * characters, then '_' and the timestamp (yyyyMMdd_HHmmss).
 */
export function cloneStorageName(name: string, now: Date): string {
  const suffix = `_${cloneTimestamp(now)}`;
  return name.trim().slice(0, STORAGE_NAME_MAX_LENGTH - suffix.length) + suffix;
}

export const CLONE_DISPLAY_NAME_SUFFIX = ' (Clone)';

/** The display name of a clone: ' (Clone)' appended, the name shortened to stay within its limit. */
export function cloneDisplayName(displayName: string): string {
  return (
    displayName.slice(0, FIELD_DISPLAY_NAME_MAX_LENGTH - CLONE_DISPLAY_NAME_SUFFIX.length) +
    CLONE_DISPLAY_NAME_SUFFIX
  );
}

// ---------------------------------------------------------------------------------------------
// Select options and conditional requirements (spec 3 and 5).

/** Select options as typed in the dialog: one per line, trimmed, empty lines dropped. */
export function parseSelectOptions(lines: string): string[] {
  return lines
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Trigger values as typed in the dialog: comma-separated, trimmed, empty ones dropped. */
export function parseTriggerValues(values: string): string[] {
  return values
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/**
 * A conditional requirement as stored: this field is required when the field `fieldName` has one
 * of `triggerValues` ('any'), or, when every trigger value starts with '!', when it has none of
 * them ('none').
 */
export interface ConditionalRequirement {
  fieldName: string;
  triggerValues: string[];
  validationMessage?: string | null;
}

/** The two kinds of requirement the dialog offers; 'none' is stored with '!' before each value. */
export type RequirementType = 'any' | 'none';
export const NONE_TRIGGER_PREFIX = '!';

/** A requirement as the dialog edits it: its kind and its values without the '!'. */
export interface RequirementRow {
  fieldName: string;
  type: RequirementType;
  values: string[];
  validationMessage?: string | null;
}

export function encodeConditionalRequirement(row: RequirementRow): ConditionalRequirement {
  return {
    fieldName: row.fieldName,
    triggerValues:
      row.type === 'none' ? row.values.map((value) => NONE_TRIGGER_PREFIX + value) : row.values,
    ...(row.validationMessage ? { validationMessage: row.validationMessage } : {}),
  };
}

export function decodeConditionalRequirement(requirement: ConditionalRequirement): RequirementRow {
  const { triggerValues } = requirement;
  const none =
    triggerValues.length > 0 &&
    triggerValues.every((value) => value.startsWith(NONE_TRIGGER_PREFIX));
  return {
    fieldName: requirement.fieldName,
    type: none ? 'none' : 'any',
    values: none
      ? triggerValues.map((value) => value.slice(NONE_TRIGGER_PREFIX.length))
      : triggerValues,
    validationMessage: requirement.validationMessage ?? null,
  };
}

/**
 * The requirements to save from the dialog's rows (spec 5): rows without a field name or without
 * trigger values are dropped; names and values trimmed.
 */
export function conditionalRequirementsOf(
  rows: readonly {
    fieldName: string;
    type: RequirementType;
    triggerValues: string;
    validationMessage?: string | null;
  }[],
): ConditionalRequirement[] {
  return rows.flatMap((row) => {
    const fieldName = row.fieldName.trim();
    const values = parseTriggerValues(row.triggerValues);
    if (!fieldName || values.length === 0) return [];
    const validationMessage = row.validationMessage?.trim() || null;
    return [encodeConditionalRequirement({ fieldName, type: row.type, values, validationMessage })];
  });
}

/**
 * Whether a requirement holds for the value of the field it watches: 'any' when the value is one
 * of the trigger values, 'none' when it is none of them. Values compare trimmed, exactly.
 */
export function requirementApplies(requirement: ConditionalRequirement, value: string): boolean {
  const { type, values } = decodeConditionalRequirement(requirement);
  const matches = values.includes(value.trim());
  return type === 'any' ? matches : !matches;
}

// ---------------------------------------------------------------------------------------------
// The fields list (spec 2, "Form fields list").

/** The fields list's order: UI group, then order (missing last), then display name, ignoring case. */
export function compareFormFieldsForList(
  a: Pick<FormField, 'uiGroup' | 'order' | 'displayName'>,
  b: Pick<FormField, 'uiGroup' | 'order' | 'displayName'>,
): number {
  return (
    caseInsensitive(a.uiGroup, b.uiGroup) ||
    compareOrder(a.order, b.order) ||
    caseInsensitive(a.displayName, b.displayName)
  );
}

const collator = new Intl.Collator('en', { sensitivity: 'base' });
/** Case-insensitive English order: 0 for names that differ only in letter case (or accents). */
export function compareIgnoringCase(a: string, b: string): number {
  return collator.compare(a, b);
}

/** Code point order: a last, deterministic tie-break. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Case-insensitive English order; code points decide between names it ranks equal. */
export function caseInsensitive(a: string, b: string): number {
  return compareIgnoringCase(a, b) || compareCodePoints(a, b);
}

/** Field order, a missing order after every number. */
export function compareOrder(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

// ---------------------------------------------------------------------------------------------
// API shapes (spec 7, "Form fields").

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const int32 = (name: string) =>
  z
    .number({ error: `${name} must be a whole number` })
    .int({ error: `${name} must be a whole number` })
    .min(INT32_MIN, { error: `${name} is out of range` })
    .max(INT32_MAX, { error: `${name} is out of range` })
    .nullish()
    .transform((value) => value ?? null);

/** An optional text: trimmed, stored as null when empty or absent. */
const optionalText = (name: string, max: number) =>
  text({ name, max, trim: true })
    .nullish()
    .transform((value) => (value ? value : null));

const optionalFlag = (name: string) =>
  z
    .boolean({ error: `${name} must be true or false` })
    .nullish()
    .transform((value) => value ?? false);

/** Whether `pattern` compiles as an HTML pattern attribute does (the 'v' flag). */
export function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(`^(?:${pattern})$`, 'v');
    return true;
  } catch {
    return false;
  }
}

export const INVALID_PATTERN_MESSAGE = 'Pattern is not a valid regular expression.';
export const UNSAFE_PATTERN_MESSAGE =
  'Pattern repeats a repetition (such as (a+)+) and could take too long to check. Please simplify it.';

/**
 * Whether a pattern is free of nested repetition (star height at most 1, safe-regex2): staff
 * write patterns, and the server runs them on values of up to 10,000 characters that tenant
 * users submit, where a pattern such as `(a+)+b` would keep a CPU busy for minutes. A heuristic:
 * overlapping alternatives under one repetition (`(a|a)*b`) are not caught.
 */
export function isSafePattern(pattern: string): boolean {
  return isSafeRegex(`^(?:${pattern})$`);
}

const permissionsSchema = (name: string) =>
  z
    .array(
      z.enum(FIELD_PERMISSION_ROLES, { error: `${name} may only name admin, staff or tenant` }),
      {
        error: `${name} must be a list of roles`,
      },
    )
    .max(FIELD_PERMISSION_ROLES.length * 2)
    .nullish()
    .transform((roles) => [...new Set(roles ?? [])]);

export const conditionalRequirementSchema = z
  .object(
    {
      fieldName: storageNameSchema,
      triggerValues: z
        .array(text({ name: 'A trigger value', max: TRIGGER_VALUE_MAX_LENGTH, trim: true }), {
          error: 'triggerValues must be a list of strings',
        })
        .min(1, { error: 'A conditional requirement needs at least one trigger value' })
        .max(TRIGGER_VALUES_MAX_COUNT, {
          error: `A conditional requirement can have at most ${TRIGGER_VALUES_MAX_COUNT} trigger values`,
        }),
      validationMessage: optionalText('validationMessage', VALIDATION_MESSAGE_MAX_LENGTH),
    },
    { error: 'Each conditional requirement must be an object with fieldName and triggerValues' },
  )
  .superRefine((requirement, ctx) => {
    const prefixed = requirement.triggerValues.filter((value) =>
      value.startsWith(NONE_TRIGGER_PREFIX),
    );
    if (prefixed.length > 0 && prefixed.length < requirement.triggerValues.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['triggerValues'],
        message: "Either every trigger value starts with '!' (none of them) or none does",
      });
    }
    if (requirement.triggerValues.some((value) => value === '' || value === NONE_TRIGGER_PREFIX)) {
      ctx.addIssue({
        code: 'custom',
        path: ['triggerValues'],
        message: 'A trigger value must not be empty',
      });
    }
  });

/** The fields of a create and an update: every property of spec 3 but id and the stamps. */
const formFieldWriteShape = {
  name: storageNameSchema,
  displayName: text({
    name: 'Display name',
    max: FIELD_DISPLAY_NAME_MAX_LENGTH,
    trim: true,
  }).refine((value) => value.length > 0, { error: 'Display name is required.' }),
  type: z.enum(FORM_FIELD_TYPES, { error: 'Type is required.' }),
  section: optionalText('section', FIELD_SECTION_MAX_LENGTH),
  order: int32('order'),
  note: optionalText('note', FIELD_NOTE_MAX_LENGTH),
  required: optionalFlag('required'),
  validationErrorMessage: optionalText('validationErrorMessage', VALIDATION_MESSAGE_MAX_LENGTH),
  maxLength: z
    .number({ error: 'maxLength must be a whole number' })
    .int({ error: 'maxLength must be a whole number' })
    .min(1, { error: `maxLength must be from 1 to ${FIELD_VALUE_MAX_LENGTH}` })
    .max(FIELD_VALUE_MAX_LENGTH, { error: `maxLength must be from 1 to ${FIELD_VALUE_MAX_LENGTH}` })
    .nullish()
    .transform((value) => value ?? null),
  pattern: optionalText('pattern', PATTERN_MAX_LENGTH)
    .refine((pattern) => pattern === null || isValidPattern(pattern), {
      error: INVALID_PATTERN_MESSAGE,
      abort: true,
    })
    .refine((pattern) => pattern === null || isSafePattern(pattern), {
      error: UNSAFE_PATTERN_MESSAGE,
    }),
  printLabel: optionalText('printLabel', PRINT_LABEL_MAX_LENGTH),
  requireFields: z
    .array(storageNameSchema, { error: 'requireFields must be a list of storage names' })
    .max(REQUIRE_FIELDS_MAX_COUNT, {
      error: `A field can require at most ${REQUIRE_FIELDS_MAX_COUNT} other fields`,
    })
    .nullish()
    .transform((names) => [...new Set(names ?? [])]),
  options: z
    .array(text({ name: 'An option', max: SELECT_OPTION_MAX_LENGTH, trim: true }), {
      error: 'options must be a list of strings',
    })
    .max(SELECT_OPTIONS_MAX_COUNT, {
      error: `A field can have at most ${SELECT_OPTIONS_MAX_COUNT} options`,
    })
    .nullish()
    .transform((options) => (options ?? []).filter((option) => option !== '')),
  aliasFor: z
    .union([storageNameSchema, z.literal('')])
    .nullish()
    .transform((name) => (name ? name : null)),
  print: optionalFlag('print'),
  printSequence: int32('printSequence'),
  viewPermissions: permissionsSchema('viewPermissions'),
  editPermissions: permissionsSchema('editPermissions'),
  uiGroup: text({ name: 'UI group', max: UI_GROUP_MAX_LENGTH, trim: true })
    .nullish()
    .transform((group) => (group ? group : DEFAULT_UI_GROUP))
    .refine((group) => !(RESERVED_UI_GROUPS as readonly string[]).includes(group.toLowerCase()), {
      error: `UI group cannot be named ${RESERVED_UI_GROUPS.join(' or ')}`,
    }),
  apiReferences: apiReferenceMapSchema('A form field')
    .nullish()
    .transform((references) => references ?? {}),
  tags: tagListSchema('A form field')
    .nullish()
    .transform((tags) => tags ?? []),
  conditionalRequirements: z
    .array(conditionalRequirementSchema, {
      error: 'conditionalRequirements must be a list',
    })
    .max(CONDITIONAL_REQUIREMENTS_MAX_COUNT, {
      error: `A field can have at most ${CONDITIONAL_REQUIREMENTS_MAX_COUNT} conditional requirements`,
    })
    .nullish()
    .transform((requirements) => requirements ?? []),
};

/** Rules across properties: options only (and always) for Select, no field refers to itself. */
function checkFieldConsistency(
  field: z.output<z.ZodObject<typeof formFieldWriteShape>>,
  ctx: z.RefinementCtx,
): void {
  if (field.type === 'Select' && field.options.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['options'], message: 'A Select field needs options.' });
  }
  if (field.type !== 'Select' && field.options.length > 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['options'],
      message: 'Only a Select field has options.',
    });
  }
  const seen = new Set<string>();
  for (const option of field.options) {
    if (seen.has(option)) {
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `Option '${option}' is given twice.`,
      });
    }
    seen.add(option);
  }
  const self = field.name.toLowerCase();
  if (field.aliasFor?.toLowerCase() === self) {
    ctx.addIssue({ code: 'custom', path: ['aliasFor'], message: 'A field cannot alias itself.' });
  }
  if (field.requireFields.some((name) => name.toLowerCase() === self)) {
    ctx.addIssue({
      code: 'custom',
      path: ['requireFields'],
      message: 'A field cannot require itself.',
    });
  }
  field.conditionalRequirements.forEach((requirement, index) => {
    if (requirement.fieldName.toLowerCase() === self) {
      ctx.addIssue({
        code: 'custom',
        path: ['conditionalRequirements', index, 'fieldName'],
        message: 'A field cannot depend on itself.',
      });
    }
  });
}

/** Body of POST /svc/formauthoring/fields: a field without id (spec 7). */
export const formFieldCreateSchema = z
  .object(
    {
      id: z.undefined({ error: 'A new field has no id (a clone drops it)' }).optional(),
      ...formFieldWriteShape,
    },
    { error: 'Expected a form field object' },
  )
  .superRefine(checkFieldConsistency);
export type FormFieldCreate = z.input<typeof formFieldCreateSchema>;
export type ParsedFormFieldWrite = z.output<typeof formFieldCreateSchema>;
/** A field as a create or an update stores it: every property but the id, parsed. */
export type FormFieldWrite = Omit<ParsedFormFieldWrite, 'id'>;

/** Body of PUT /svc/formauthoring/fields/{id}: the field; an id in it must be the URL's. */
export const formFieldUpdateSchema = z
  .object(
    {
      id: z.number({ error: 'id must be a whole number' }).int().optional(),
      ...formFieldWriteShape,
    },
    { error: 'Expected a form field object' },
  )
  .superRefine(checkFieldConsistency);
export type FormFieldUpdate = z.input<typeof formFieldUpdateSchema>;

const timestamp = z.iso.datetime();

/** One field of GET /svc/formauthoring/allfields, and the answer of POST and PUT. */
export const formFieldSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  displayName: z.string(),
  type: z.enum(FORM_FIELD_TYPES),
  section: z.string().nullable(),
  order: z.number().int().nullable(),
  note: z.string().nullable(),
  required: z.boolean(),
  validationErrorMessage: z.string().nullable(),
  maxLength: z.number().int().nullable(),
  pattern: z.string().nullable(),
  printLabel: z.string().nullable(),
  requireFields: z.array(z.string()),
  options: z.array(z.string()),
  aliasFor: z.string().nullable(),
  print: z.boolean(),
  printSequence: z.number().int().nullable(),
  viewPermissions: z.array(z.enum(FIELD_PERMISSION_ROLES)),
  editPermissions: z.array(z.enum(FIELD_PERMISSION_ROLES)),
  uiGroup: z.string(),
  apiReferences: z.record(z.string(), z.string()),
  tags: z.array(z.string()),
  conditionalRequirements: z.array(
    z.object({
      fieldName: z.string(),
      triggerValues: z.array(z.string()),
      validationMessage: z.string().nullable().optional(),
    }),
  ),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type FormField = z.infer<typeof formFieldSchema>;

export const formFieldListSchema = z.array(formFieldSchema);

/** `{id}` of PUT and DELETE /svc/formauthoring/fields/{id}. */
export const formFieldIdParamsSchema = idParamsSchema;

/**
 * Whether a role may see / change a field: its list is empty (everyone) or names one of the
 * caller's roles.
 */
export function fieldAllows(
  permissions: readonly FieldPermissionRole[],
  roles: readonly string[],
): boolean {
  return permissions.length === 0 || permissions.some((role) => roles.includes(role));
}

/** The form fields calls (method and path; see api.ts). */
export const formFieldsApi = {
  list: apiRoute('GET', '/svc/formauthoring/allfields'),
  export: apiRoute('GET', '/svc/formauthoring/allfields/export'),
  create: apiRoute('POST', '/svc/formauthoring/fields'),
  update: apiRoute('PUT', '/svc/formauthoring/fields/:id'),
  delete: apiRoute('DELETE', '/svc/formauthoring/fields/:id'),
  usedTags: apiRoute('GET', '/svc/formauthoring/used-tags'),
  usedApiServiceNames: apiRoute('GET', '/svc/formauthoring/used-api-service-names'),
} as const;
