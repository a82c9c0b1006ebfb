import { z } from 'zod';
import { apiRoute } from './api.ts';
import {
  caseInsensitive,
  compareCodePoints,
  compareIgnoringCase,
  compareOrder,
  FIELD_VALUE_MAX_LENGTH,
  formFieldSchema,
  STORAGE_NAME_MAX_LENGTH,
  UI_GROUP_MAX_LENGTH,
  type FormField,
} from './form-fields.ts';
import { INT4_ID_MAX, isCanonicalId } from './ids.ts';
import { isPrototypeKey, prototypeKeyMessage } from './keys.ts';
import { recordError, text } from './text.ts';

/**
 * Forms: definitions built from the field catalogue, their rendering and their test submission
 * (spec part 2, sections 2-5, 7-9: "Forms list", "Form-definition dialog", "Form-test dialog",
 * "Forms service").
 */

// ---------------------------------------------------------------------------------------------
// Form name.

export const FORM_NAME_MAX_LENGTH = 100;
export const FORM_DESCRIPTION_MAX_LENGTH = 2000;
/** Most fields one form may hold (the benchmark renders a form of 200). */
export const FORM_FIELDS_MAX_COUNT = 500;
export const UI_GROUP_ORDER_MAX_COUNT = 100;
export const COL_SPAN_MIN = 0;
export const COL_SPAN_MAX = 12;

/**
 * The name's messages. 'Name is required.' is the text of the key validation.nameRequired (spec 5).
 * A name is a path segment of the forms service (`/svc/formauthoring/{name}`): it starts with a
 * letter (so that a submit to `{name or formId}` can tell a name from an id) and holds letters,
 * digits and underscores, like the spec's EditTenantProfile and EditIndividualId_passport.
 */
export const FORM_NAME_MESSAGES = {
  required: 'Name is required.',
  tooLong: `Name must be ${FORM_NAME_MAX_LENGTH} characters or less.`,
  invalid: 'Name must start with a letter and contain only letters, numbers, and underscores.',
  reserved: 'This name is used by the forms service itself. Please choose another name.',
} as const;

/** Names that are paths of the forms service (`/svc/formauthoring/list`, ...), in any case. */
export const RESERVED_FORM_NAMES = ['list', 'allfields', 'fields'] as const;

/** The one message that applies to a form name, or null when it is valid. */
export function validateFormName(raw: string): string | null {
  const name = raw.trim();
  if (name.length === 0) return FORM_NAME_MESSAGES.required;
  if (name.length > FORM_NAME_MAX_LENGTH) return FORM_NAME_MESSAGES.tooLong;
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) return FORM_NAME_MESSAGES.invalid;
  if ((RESERVED_FORM_NAMES as readonly string[]).includes(name.toLowerCase())) {
    return FORM_NAME_MESSAGES.reserved;
  }
  return null;
}

export const formNameSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? FORM_NAME_MESSAGES.required
        : 'Name must be a string',
  })
  .trim()
  .max(FORM_NAME_MAX_LENGTH, { error: FORM_NAME_MESSAGES.tooLong, abort: true })
  .superRefine((name, ctx) => {
    const message = validateFormName(name);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** The clone of a form is named with this suffix (spec 2: "the name gets a Copy suffix"). */
export const FORM_CLONE_SUFFIX = '_Copy';

/** The name a clone starts with: the name and '_Copy', within the name's limit. */
export function cloneFormName(name: string): string {
  return name.slice(0, FORM_NAME_MAX_LENGTH - FORM_CLONE_SUFFIX.length) + FORM_CLONE_SUFFIX;
}

// ---------------------------------------------------------------------------------------------
// Groups and field order (spec 2, "Form-definition dialog").

type GroupedField = Pick<FormField, 'uiGroup' | 'order' | 'displayName'>;

/** The default UI group order: the groups of the selected fields, in order of first appearance. */
export function defaultUiGroupOrder(fields: readonly Pick<FormField, 'uiGroup'>[]): string[] {
  return [...new Set(fields.map((field) => field.uiGroup))];
}

/**
 * The groups a form shows, in order: those of `uiGroupOrder` that hold one of its fields, then
 * the groups of its fields that the order does not name, in order of first appearance. The
 * rendering and the test dialog both use it.
 */
export function effectiveGroupOrder(
  uiGroupOrder: readonly string[],
  fields: readonly Pick<FormField, 'uiGroup'>[],
): string[] {
  const present = defaultUiGroupOrder(fields);
  const listed = uiGroupOrder.filter((group) => present.includes(group));
  return [...new Set([...listed, ...present])];
}

/**
 * The selected fields as a form saves them (spec 2): by group order (groups the order does not
 * name last, in order of first appearance), then field order (missing last), then display name
 * ignoring case. Stable for fields equal on all three.
 */
export function sortFieldsForSave<Field extends GroupedField>(
  fields: readonly Field[],
  uiGroupOrder: readonly string[],
): Field[] {
  const groups = effectiveGroupOrder(uiGroupOrder, fields);
  return [...fields].sort(
    (a, b) =>
      groups.indexOf(a.uiGroup) - groups.indexOf(b.uiGroup) ||
      compareOrder(a.order, b.order) ||
      caseInsensitive(a.displayName, b.displayName),
  );
}

/**
 * The forms list's order (spec 2): name ignoring case, then the latest update first (names that
 * differ only in letter case are ranked by their update, not by their capitals), then code points.
 */
export function compareFormsForList(
  a: Pick<FormListItem, 'name' | 'updatedAt'>,
  b: Pick<FormListItem, 'name' | 'updatedAt'>,
): number {
  return (
    compareIgnoringCase(a.name, b.name) ||
    Date.parse(b.updatedAt) - Date.parse(a.updatedAt) ||
    compareCodePoints(a.name, b.name)
  );
}

// ---------------------------------------------------------------------------------------------
// Submission (spec 2 "Form-test dialog", 3 "Submission payload", 7 and 8).

/** Inputs of a rendered form are named `DataObject.<storage name>`. */
export const DATA_OBJECT = 'DataObject';
export const dataObjectInputName = (storageName: string) => `${DATA_OBJECT}.${storageName}`;

/** The storage name of an input named `DataObject.<storage name>`, or null for any other input. */
export function dataObjectKey(inputName: string): string | null {
  const prefix = `${DATA_OBJECT}.`;
  return inputName.startsWith(prefix) && inputName.length > prefix.length
    ? inputName.slice(prefix.length)
    : null;
}

/**
 * The refusal of an input (a FormData name, a file part) whose storage name no field may have:
 * a prototype key (keys.ts), such as `DataObject.__proto__`. Null for any other input.
 */
export function reservedInputNameMessage(inputName: string): string | null {
  const key = dataObjectKey(inputName);
  return key !== null && isPrototypeKey(key)
    ? prototypeKeyMessage(`The field name of ${inputName}`, key)
    : null;
}

/** Most values one submission carries. */
export const SUBMISSION_VALUES_MAX_COUNT = 1000;

/** The values of a submission: storage name to the text of its input. */
export const dataObjectSchema = z
  .record(
    text({ name: 'A field name', max: STORAGE_NAME_MAX_LENGTH }),
    text({
      name: 'A value',
      max: FIELD_VALUE_MAX_LENGTH,
      typeError: 'Each value must be a string',
    }),
    { error: recordError('DataObject must be an object of field name to value') },
  )
  .refine((values) => Object.keys(values).length <= SUBMISSION_VALUES_MAX_COUNT, {
    error: `A submission can carry at most ${SUBMISSION_VALUES_MAX_COUNT} values`,
  });
export type DataObject = z.infer<typeof dataObjectSchema>;

/** Body of POST /svc/formauthoring/{name or formId}/submit: `{DataObject: {...}}`. */
export const formSubmissionSchema = z.object(
  { DataObject: dataObjectSchema },
  { error: 'Expected {DataObject: {...}}' },
);
export type FormSubmission = z.input<typeof formSubmissionSchema>;

/** A submission the server accepted. */
export const FORM_SUBMITTED_MESSAGE = 'Form submitted successfully.';
export const formSubmitResultSchema = z.object({
  message: z.string(),
  submittedData: z.record(z.string(), z.string()),
});
export type FormSubmitResult = z.infer<typeof formSubmitResultSchema>;

/**
 * A submission the field rules refused: 400 `{title, errors}`, errors keyed by the field's label
 * (its display name), each a list of messages (spec 7). The server's title is ASP.NET's, whose
 * service the spec describes; the screens fall back to 'Validation failed.' without one.
 */
export const VALIDATION_PROBLEM_TITLE = 'One or more validation errors occurred.';
export const validationProblemSchema = z.object({
  title: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type ValidationProblem = z.infer<typeof validationProblemSchema>;

// ---------------------------------------------------------------------------------------------
// Definitions (spec 3, "Form definition"; spec 7, "Forms service").

/** The fields of a form definition a create and an update send. */
const formDefinitionWriteShape = {
  name: formNameSchema,
  description: text({ name: 'description', max: FORM_DESCRIPTION_MAX_LENGTH, trim: true })
    .nullish()
    .transform((description) => description ?? ''),
  fields: z
    .array(
      z
        .number({ error: 'Each field must be a field id' })
        .int({ error: 'Each field must be a field id' })
        .min(1, { error: 'Each field must be a field id' })
        .max(INT4_ID_MAX, { error: 'Each field must be a field id' }),
      { error: 'fields must be a list of field ids' },
    )
    .max(FORM_FIELDS_MAX_COUNT, {
      error: `A form can have at most ${FORM_FIELDS_MAX_COUNT} fields`,
    })
    .nullish()
    .transform((fields) => fields ?? [])
    .superRefine((fields, ctx) => {
      const seen = new Set<number>();
      fields.forEach((id, index) => {
        if (seen.has(id)) {
          ctx.addIssue({
            code: 'custom',
            path: [index],
            message: `Field ${id} is selected twice.`,
          });
        }
        seen.add(id);
      });
    }),
  uiGroupOrder: z
    .array(text({ name: 'A UI group', max: UI_GROUP_MAX_LENGTH, trim: true }), {
      error: 'uiGroupOrder must be a list of group names',
    })
    .max(UI_GROUP_ORDER_MAX_COUNT, {
      error: `uiGroupOrder can name at most ${UI_GROUP_ORDER_MAX_COUNT} groups`,
    })
    .nullish()
    .transform((groups) => [...new Set((groups ?? []).filter((group) => group !== ''))]),
  colSpanOverride: z
    .number({
      error: `Column span override must be a number from ${COL_SPAN_MIN} to ${COL_SPAN_MAX}`,
    })
    .int({ error: `Column span override must be a number from ${COL_SPAN_MIN} to ${COL_SPAN_MAX}` })
    .min(COL_SPAN_MIN, {
      error: `Column span override must be a number from ${COL_SPAN_MIN} to ${COL_SPAN_MAX}`,
    })
    .max(COL_SPAN_MAX, {
      error: `Column span override must be a number from ${COL_SPAN_MIN} to ${COL_SPAN_MAX}`,
    })
    .nullish()
    .transform((span) => span ?? 0),
};

/** Body of POST /svc/formauthoring: a definition without id (a clone's id is removed). */
export const formDefinitionCreateSchema = z.object(
  {
    id: z.undefined({ error: 'A new form has no id (a clone drops it)' }).optional(),
    ...formDefinitionWriteShape,
  },
  { error: 'Expected a form definition object' },
);
export type FormDefinitionCreate = z.input<typeof formDefinitionCreateSchema>;
export type ParsedFormDefinitionWrite = z.output<typeof formDefinitionCreateSchema>;

/**
 * Body of PUT /svc/formauthoring/{name}: the definition. The name is locked in edit mode: a name
 * in the body must be the URL's; an id in the body must be the form's.
 */
export const formDefinitionUpdateSchema = z.object(
  {
    id: z.number({ error: 'id must be a whole number' }).int().optional(),
    ...formDefinitionWriteShape,
  },
  { error: 'Expected a form definition object' },
);
export type FormDefinitionUpdate = z.input<typeof formDefinitionUpdateSchema>;

/** The answer of POST and PUT: the form's name (spec 7). */
export const formSavedSchema = z.object({ name: z.string() });

const timestamp = z.iso.datetime();

/**
 * GET /svc/formauthoring/{name}/definition: the definition, with `field_definitions` (spec 3:
 * "It can also carry field_definitions"): the fields it references that exist, in its order. A
 * field id without a definition there is a missing reference.
 */
export const formDefinitionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  fields: z.array(z.number().int()),
  uiGroupOrder: z.array(z.string()),
  colSpanOverride: z.number().int().min(COL_SPAN_MIN).max(COL_SPAN_MAX),
  createdAt: timestamp,
  updatedAt: timestamp,
  field_definitions: z.array(formFieldSchema),
});
export type FormDefinition = z.infer<typeof formDefinitionSchema>;

/** The field ids of a definition that name no existing field, in its order. */
export function missingFieldIds(
  definition: Pick<FormDefinition, 'fields' | 'field_definitions'>,
): number[] {
  const known = new Set(definition.field_definitions.map((field) => field.id));
  return definition.fields.filter((id) => !known.has(id));
}

/**
 * One form of GET /svc/formauthoring/list (spec part 2: id, name, createdAt, updatedAt). The
 * document types screen reads it to flag document types whose expected form is missing.
 */
export const formListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type FormListItem = z.infer<typeof formListItemSchema>;

export const formListSchema = z.array(formListItemSchema);

/** `{name}` of the calls on one form. */
export const formNameParamsSchema = z.object({ name: formNameSchema });

/** `{name}` and `{group}` of GET /svc/formauthoring/{name}/fieldgroup/{group}. */
export const formGroupParamsSchema = z.object({
  name: formNameSchema,
  group: text({ name: 'group', max: UI_GROUP_MAX_LENGTH }),
});

/**
 * `{nameOrId}` of POST /svc/formauthoring/{name or formId}/submit: plain digits are an id (a
 * name starts with a letter), anything else a name.
 */
export const formNameOrIdParamsSchema = z.object({
  nameOrId: z
    .string()
    .max(FORM_NAME_MAX_LENGTH, { error: FORM_NAME_MESSAGES.tooLong })
    .transform((raw, ctx): { id: number } | { name: string } => {
      if (/^[0-9]+$/.test(raw)) {
        if (isCanonicalId(raw, INT4_ID_MAX)) return { id: Number(raw) };
        ctx.issues.push({
          code: 'custom',
          input: raw,
          message: `nameOrId must be a form name or a whole number from 1 to ${INT4_ID_MAX}, in plain digits`,
        });
        return z.NEVER;
      }
      const message = validateFormName(raw);
      if (message) {
        ctx.issues.push({ code: 'custom', input: raw, message });
        return z.NEVER;
      }
      return { name: raw.trim() };
    }),
});

/** The forms calls (method and path; see api.ts). */
export const formsApi = {
  list: apiRoute('GET', '/svc/formauthoring/list'),
  export: apiRoute('GET', '/svc/formauthoring/list/export'),
  html: apiRoute('GET', '/svc/formauthoring/:name'),
  definition: apiRoute('GET', '/svc/formauthoring/:name/definition'),
  fieldGroup: apiRoute('GET', '/svc/formauthoring/:name/fieldgroup/:group'),
  create: apiRoute('POST', '/svc/formauthoring'),
  update: apiRoute('PUT', '/svc/formauthoring/:name'),
  delete: apiRoute('DELETE', '/svc/formauthoring/:name'),
  submit: apiRoute('POST', '/svc/formauthoring/:nameOrId/submit'),
} as const;
