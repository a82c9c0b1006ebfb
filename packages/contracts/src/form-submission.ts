import { COUNTRY_ID_MAX } from './countries.ts';
import { DOCUMENT_TYPE_ID_MAX_LENGTH } from './document-types.ts';
import {
  decodeConditionalRequirement,
  FIELD_VALUE_MAX_LENGTH,
  fieldAllows,
  requirementApplies,
  type ConditionalRequirement,
  type FormField,
} from './form-fields.ts';
import { isCanonicalId } from './ids.ts';
import { isValidEmail } from './tenant-users.ts';

/**
 * The server's validation of a submitted form (spec part 2, "Form-test dialog", section 7; part 1,
 * section 8; docs/form-usage.md): a pure function of the form's fields, the submitted values and
 * what the caller may change, shared by the test submission and the profile submissions.
 */

/** What the validation reads of a field. */
export type SubmissionField = Pick<
  FormField,
  | 'name'
  | 'displayName'
  | 'type'
  | 'required'
  | 'validationErrorMessage'
  | 'maxLength'
  | 'pattern'
  | 'options'
  | 'requireFields'
  | 'conditionalRequirements'
  | 'aliasFor'
  | 'viewPermissions'
  | 'editPermissions'
>;

/** Errors of a submission: the field's label (display name) to its messages, in form order. */
export type SubmissionErrors = Record<string, string[]>;

export interface SubmissionContext {
  /** The caller's roles: a field it may not view or edit keeps its stored value. */
  roles: readonly string[];
  /** Country ids that exist (only those the submission names need be listed; see referencedIds). */
  countryIds: ReadonlySet<string>;
  /** Document type ids that exist (idem). */
  documentTypeIds: ReadonlySet<string>;
  /**
   * The stored values a submission changes (a profile), by storage key (`profileKeyOf`): what a
   * field the caller may not edit keeps, and what it is compared with. None for a test submission.
   */
  stored?: Readonly<Record<string, string>>;
}

/** The answers of a DropdownYesNo field, in its order. */
export const YES_NO_OPTIONS = ['Yes', 'No'] as const;
/** The values a Checkbox sends. */
export const CHECKBOX_VALUES = ['true', 'false'] as const;

/** Every message of the validation, each naming the field by its label. */
export const SUBMISSION_MESSAGES = {
  required: (label: string) => `${label} is required.`,
  tooLong: (label: string, max: number) => `${label} must be ${max} characters or less.`,
  pattern: (label: string) => `${label} is not in the expected format.`,
  email: (label: string) => `${label} must be a valid email address.`,
  phone: (label: string) => `${label} must be a valid phone number.`,
  date: (label: string) => `${label} must be a valid date (yyyy-MM-dd).`,
  dateTime: (label: string) => `${label} must be a valid date and time (yyyy-MM-ddTHH:mm).`,
  option: (label: string) => `${label} must be one of its options.`,
  yesNo: (label: string) => `${label} must be Yes or No.`,
  checkbox: (label: string) => `${label} must be true or false.`,
  country: (label: string) => `${label} must be a known country.`,
  documentType: (label: string) => `${label} must be a known document type.`,
  /** A conditional requirement without a message of its own. */
  requiredWhen: (label: string, watched: string, requirement: ConditionalRequirement) =>
    `${label} is required when ${watched} ${describeTrigger(requirement)}.`,
  /** A field named by another's requireFields, when that one has a value. */
  requiredWith: (label: string, other: string) =>
    `${label} is required when ${other} is filled in.`,
  notEditable: (label: string) => `${label} cannot be changed by your account.`,
  /** A file sent for a field that is not a FileUpload. */
  notAFile: (label: string) => `${label} does not take a file.`,
  /** Under the key itself: the form has no field of that storage name. */
  unknownField: 'Not a field of this form.',
} as const;

/** "is 'A'", "is 'A' or 'B'", "is one of 'A', 'B', 'C'"; and for a none requirement the negations. */
function describeTrigger(requirement: ConditionalRequirement): string {
  const { type, values } = decodeConditionalRequirement(requirement);
  const quoted = values.map((value) => `'${value}'`);
  if (type === 'any') {
    if (quoted.length === 1) return `is ${quoted[0]}`;
    if (quoted.length === 2) return `is ${quoted[0]} or ${quoted[1]}`;
    return `is one of ${quoted.join(', ')}`;
  }
  if (quoted.length === 1) return `is not ${quoted[0]}`;
  if (quoted.length === 2) return `is neither ${quoted[0]} nor ${quoted[1]}`;
  return `is none of ${quoted.join(', ')}`;
}

// ---------------------------------------------------------------------------------------------
// Who may see and change a field (forms-design.md, "Field permissions").

/** Whether the caller sees the field: rendering leaves out the others. */
export const canViewField = (
  field: Pick<FormField, 'viewPermissions'>,
  roles: readonly string[],
): boolean => fieldAllows(field.viewPermissions, roles);

/** Whether the caller may change the field: it sees it and its edit permissions admit it. */
export const canEditField = (
  field: Pick<FormField, 'viewPermissions' | 'editPermissions'>,
  roles: readonly string[],
): boolean => canViewField(field, roles) && fieldAllows(field.editPermissions, roles);

/** Where a profile keeps a field's value: under `aliasFor` when it names one, else its own name. */
export const profileKeyOf = (field: Pick<FormField, 'name' | 'aliasFor'>): string =>
  field.aliasFor ?? field.name;

// ---------------------------------------------------------------------------------------------
// Value rules.

/**
 * The value of `key` in `record`, its own only: a key a client chose (a display name such as
 * `constructor`, a storage name of a row older than the storage-name rule, keys.ts) must not read
 * what every object inherits.
 */
export function ownValue<Value>(
  record: Readonly<Record<string, Value>>,
  key: string,
): Value | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A value with its surrounding white space removed: what is checked, answered and stored. */
export function trimValues(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value.trim()]));
}

/** Whether a (trimmed) value counts as given: a Checkbox when checked, anything else when not empty. */
export function hasValue(field: Pick<FormField, 'type'>, value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  return field.type !== 'Checkbox' || value === 'true';
}

export const PHONE_DIGITS_MIN = 7;
/** E.164's longest number. */
export const PHONE_DIGITS_MAX = 15;
const PHONE = /^\+?[0-9 ().-]+$/;

/**
 * A phone number as people write it: an optional leading '+', then digits, spaces, dots, dashes
 * and parentheses, with 7 to 15 digits (E.164's longest).
 */
export function isValidPhoneNumber(value: string): boolean {
  if (!PHONE.test(value)) return false;
  let digits = 0;
  for (const character of value) if (character >= '0' && character <= '9') digits++;
  return digits >= PHONE_DIGITS_MIN && digits <= PHONE_DIGITS_MAX;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

function isRealDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** yyyy-MM-dd of a day that exists (years 0001 to 9999), as `<input type=date>` sends it. */
export function isValidDate(value: string): boolean {
  const match = DATE.exec(value);
  return match !== null && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** yyyy-MM-ddTHH:mm or yyyy-MM-ddTHH:mm:ss, as `<input type=datetime-local>` sends it. */
export function isValidDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (match === null) return false;
  const [hours, minutes, seconds] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  return (
    isRealDate(Number(match[1]), Number(match[2]), Number(match[3])) &&
    hours <= 23 &&
    minutes <= 59 &&
    seconds <= 59
  );
}

/** Compiled patterns by source; a pattern that does not compile is null (and not applied). */
const compiledPatterns = new Map<string, RegExp | null>();
const COMPILED_PATTERNS_MAX = 1000;

/**
 * Whether `value` matches `pattern` as an HTML pattern attribute does: the whole value, compiled
 * with the 'v' flag. A pattern that does not compile is ignored (browsers ignore it too); the
 * field dialog refuses such a pattern, so only a row written by other means can hold one.
 */
export function matchesPattern(pattern: string, value: string): boolean {
  let compiled = compiledPatterns.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(`^(?:${pattern})$`, 'v');
    } catch {
      compiled = null;
    }
    if (compiledPatterns.size >= COMPILED_PATTERNS_MAX) compiledPatterns.clear();
    compiledPatterns.set(pattern, compiled);
  }
  return compiled === null || compiled.test(value);
}

/** The types whose value a pattern constrains (the inputs an HTML pattern attribute applies to). */
export const PATTERN_TYPES: readonly FormField['type'][] = ['Text', 'Email', 'PhoneNumber'];

/** The types whose length maxLength limits (the inputs with a maxlength attribute). */
export const LENGTH_TYPES: readonly FormField['type'][] = [
  'Text',
  'Email',
  'PhoneNumber',
  'PartyList',
];

/** Whether two trimmed values are the same answer (an unchecked Checkbox is no value). */
const sameValue = (field: Pick<FormField, 'type'>, a: string, b: string): boolean =>
  field.type === 'Checkbox' ? hasValue(field, a) === hasValue(field, b) : a === b;

/** A country's value is its id (ISO 3166-1 numeric), in plain digits. */
export const isCountryIdText = (value: string): boolean => isCanonicalId(value, COUNTRY_ID_MAX);

/**
 * The country and document type ids a submission names (trimmed, well-formed ones only), so that
 * the caller looks up only those.
 */
export function referencedIds(
  fields: readonly Pick<FormField, 'name' | 'type'>[],
  values: Readonly<Record<string, string>>,
): { countryIds: number[]; documentTypeIds: string[] } {
  const countryIds = new Set<number>();
  const documentTypeIds = new Set<string>();
  for (const field of fields) {
    const value = ownValue(values, field.name)?.trim();
    if (!value) continue;
    if (field.type === 'Country' && isCountryIdText(value)) countryIds.add(Number(value));
    if (field.type === 'DocumentType' && value.length <= DOCUMENT_TYPE_ID_MAX_LENGTH) {
      documentTypeIds.add(value);
    }
  }
  return { countryIds: [...countryIds], documentTypeIds: [...documentTypeIds] };
}

/** The format problem of a given (trimmed, non-empty) value, or null. */
function formatProblem(
  field: SubmissionField,
  value: string,
  context: SubmissionContext,
): string | null {
  const label = field.displayName;
  switch (field.type) {
    case 'Email':
      return isValidEmail(value) ? null : SUBMISSION_MESSAGES.email(label);
    case 'PhoneNumber':
      return isValidPhoneNumber(value) ? null : SUBMISSION_MESSAGES.phone(label);
    case 'Date':
      return isValidDate(value) ? null : SUBMISSION_MESSAGES.date(label);
    case 'DateTime':
      return isValidDateTime(value) ? null : SUBMISSION_MESSAGES.dateTime(label);
    case 'Select':
      return field.options.includes(value) ? null : SUBMISSION_MESSAGES.option(label);
    case 'DropdownYesNo':
      return (YES_NO_OPTIONS as readonly string[]).includes(value)
        ? null
        : SUBMISSION_MESSAGES.yesNo(label);
    case 'Checkbox':
      return (CHECKBOX_VALUES as readonly string[]).includes(value)
        ? null
        : SUBMISSION_MESSAGES.checkbox(label);
    case 'Country':
      return context.countryIds.has(value) ? null : SUBMISSION_MESSAGES.country(label);
    case 'DocumentType':
      return context.documentTypeIds.has(value) ? null : SUBMISSION_MESSAGES.documentType(label);
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The validation.

/**
 * The problems of a submission, by label; an empty object when it is valid. `values` are the
 * submitted values by storage name (untrimmed: they are trimmed here). Per field of the form, in
 * its order:
 * - a field the caller may not edit keeps its stored value and is not checked; a different value
 *   sent for it is refused ("{label} cannot be changed by your account.");
 * - a missing value: `required` (its validationErrorMessage, else "{label} is required."), then
 *   its conditional requirements (required when `requirementApplies` to the watched field's value,
 *   'any' or '!' none; the requirement's message, else one naming the watched field and values),
 *   then the requireFields of the form's other fields that have a value; one message at most;
 * - a given value: its length (maxLength, else FIELD_VALUE_MAX_LENGTH), its pattern (Text, Email,
 *   PhoneNumber; the field's validationErrorMessage, else a format message) and its type's rule.
 * A key that names no field of the form: "Not a field of this form." under the key.
 */
export function validateSubmission(
  fields: readonly SubmissionField[],
  values: Readonly<Record<string, string>>,
  context: SubmissionContext,
): SubmissionErrors {
  const errors = new Map<string, string[]>();
  const add = (label: string, message: string) => {
    const list = errors.get(label);
    if (list) {
      if (!list.includes(message)) list.push(message);
    } else errors.set(label, [message]);
  };
  const stored = context.stored ?? {};
  const byName = new Map<string, SubmissionField>();
  for (const field of fields) if (!byName.has(field.name)) byName.set(field.name, field);

  const editable = new Map<string, boolean>();
  for (const field of fields) editable.set(field.name, canEditField(field, context.roles));
  /**
   * The value a field will hold: the caller's (trimmed) when it may edit it, else the stored one;
   * a name that is no field of the form has its stored value.
   */
  const valueOf = (name: string): string => {
    const field = byName.get(name);
    if (!field) return (ownValue(stored, name) ?? '').trim();
    if (!editable.get(name)) return (ownValue(stored, profileKeyOf(field)) ?? '').trim();
    return (ownValue(values, name) ?? '').trim();
  };

  /** Fields named by the requireFields of a field that has a value: name to that field's label. */
  const requiredWith = new Map<string, string>();
  for (const field of fields) {
    if (field.requireFields.length === 0 || !hasValue(field, valueOf(field.name))) continue;
    for (const name of field.requireFields) {
      if (!requiredWith.has(name)) requiredWith.set(name, field.displayName);
    }
  }

  for (const [name, field] of byName) {
    const label = field.displayName;
    const sent = ownValue(values, name);
    if (!editable.get(name)) {
      if (sent !== undefined && !sameValue(field, sent.trim(), valueOf(name))) {
        add(label, SUBMISSION_MESSAGES.notEditable(label));
      }
      continue;
    }
    const value = (sent ?? '').trim();
    if (!hasValue(field, value)) {
      const missing = missingMessage(field, requiredWith.get(name), (watched) => ({
        value: valueOf(watched),
        label: byName.get(watched)?.displayName ?? watched,
      }));
      if (missing) add(label, missing);
      if (value === '') continue;
    }
    const max = LENGTH_TYPES.includes(field.type)
      ? (field.maxLength ?? FIELD_VALUE_MAX_LENGTH)
      : FIELD_VALUE_MAX_LENGTH;
    if (value.length > max) add(label, SUBMISSION_MESSAGES.tooLong(label, max));
    if (
      field.pattern &&
      PATTERN_TYPES.includes(field.type) &&
      !matchesPattern(field.pattern, value)
    ) {
      add(label, field.validationErrorMessage ?? SUBMISSION_MESSAGES.pattern(label));
    }
    const problem = formatProblem(field, value, context);
    if (problem) add(label, problem);
  }

  for (const key of Object.keys(values)) {
    if (!byName.has(key)) add(key, SUBMISSION_MESSAGES.unknownField);
  }
  return Object.fromEntries(errors);
}

/** The one message of a field without a value that must have one, or null. */
function missingMessage(
  field: SubmissionField,
  requiredBy: string | undefined,
  watched: (name: string) => { value: string; label: string },
): string | null {
  const label = field.displayName;
  if (field.required) return field.validationErrorMessage ?? SUBMISSION_MESSAGES.required(label);
  for (const requirement of field.conditionalRequirements) {
    const other = watched(requirement.fieldName);
    if (requirementApplies(requirement, other.value)) {
      return (
        requirement.validationMessage ??
        SUBMISSION_MESSAGES.requiredWhen(label, other.label, requirement)
      );
    }
  }
  if (requiredBy !== undefined) return SUBMISSION_MESSAGES.requiredWith(label, requiredBy);
  return null;
}

/** Whether a submission's errors are none. */
export const isValidSubmission = (errors: SubmissionErrors): boolean =>
  Object.keys(errors).length === 0;
