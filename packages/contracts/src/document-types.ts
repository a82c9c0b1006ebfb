import { z } from 'zod';
import { apiRoute } from './api.ts';
import { isPrototypeKey, prototypeKeyMessage } from './keys.ts';
import { text } from './text.ts';

/** Rules of document types (spec part 1, sections 5 and 9), shared by the dialog and the server. */

export const DOCUMENT_TYPE_ID_MAX_LENGTH = 50;
/** Longest display name: fits the table column and the dialog. */
export const DISPLAY_NAME_MAX_LENGTH = 200;
/** Longest tag, and most tags one document type may have. */
export const TAG_MAX_LENGTH = 100;
export const TAGS_MAX_COUNT = 50;
/** Longest API reference service name and value (a value may be a URL), and most references. */
export const API_SERVICE_NAME_MAX_LENGTH = 100;
export const API_REFERENCE_MAX_LENGTH = 2000;
export const API_REFERENCES_MAX_COUNT = 50;
/** Most records of one import file (about 3 MB, within the 5 MB body limit). */
export const DOCUMENT_TYPE_IMPORT_MAX_COUNT = 10_000;

/** The spec's messages, word for word. */
export const DOCUMENT_TYPE_ID_MESSAGES = {
  required: 'ID is required',
  tooLong: `ID must be ${DOCUMENT_TYPE_ID_MAX_LENGTH} characters or less`,
  mustStartWithLetter: 'ID must start with a lowercase letter',
  invalidCharacters: 'ID can only contain lowercase letters, numbers, and underscores',
} as const;

const ID_CHARACTERS = /^[a-z0-9_]*$/;
const NOT_ID_CHARACTERS = /[^a-z0-9_]/g;

/**
 * The one message that applies to a document type ID, or null when it is valid. Checked in the
 * spec's order: required, length, first character, characters.
 */
export function validateDocumentTypeId(id: string): string | null {
  if (id.length === 0) return DOCUMENT_TYPE_ID_MESSAGES.required;
  if (id.length > DOCUMENT_TYPE_ID_MAX_LENGTH) return DOCUMENT_TYPE_ID_MESSAGES.tooLong;
  if (!/^[a-z]/.test(id)) return DOCUMENT_TYPE_ID_MESSAGES.mustStartWithLetter;
  if (!ID_CHARACTERS.test(id)) return DOCUMENT_TYPE_ID_MESSAGES.invalidCharacters;
  return null;
}

/**
 * What the ID input keeps of what was typed or pasted: only a-z, 0-9 and '_' (spec: "the input
 * strips invalid characters as typed"). It neither lower-cases nor shortens, so the length and
 * first-character messages still show.
 */
export function sanitizeDocumentTypeIdInput(raw: string): string {
  return raw.replace(NOT_ID_CHARACTERS, '');
}

/** A document type ID as a schema: the same single message as validateDocumentTypeId. */
export const documentTypeIdSchema = z
  .string()
  // The limit as a zod maximum too, so that it shows in the OpenAPI document and the UI can read
  // it; `abort` keeps the single message (the check below would give the same one again).
  .max(DOCUMENT_TYPE_ID_MAX_LENGTH, { error: DOCUMENT_TYPE_ID_MESSAGES.tooLong, abort: true })
  .superRefine((id, ctx) => {
    const message = validateDocumentTypeId(id);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** Tags trimmed, lower-cased and deduplicated (first occurrence wins), empty ones dropped. */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    const normalized = tag.toLowerCase().trim();
    if (normalized) seen.add(normalized);
  }
  return [...seen];
}

/**
 * Name of the form a document type needs (spec 9): 'EditIndividualId_' followed by the ID with
 * everything but ASCII letters and digits removed, lower-cased. 'driving_licence' expects
 * 'EditIndividualId_drivinglicence'.
 */
export function expectedFormName(documentTypeId: string): string {
  return `EditIndividualId_${documentTypeId.replace(/[^a-zA-Z0-9]/g, '').toLowerCase()}`;
}

/**
 * Validity period (spec 5): years at least 0, months 0-11, days 0-30, each optional; empty means
 * no expiry, and a period with all three empty is null.
 */
export const validityPeriodSchema = z.object({
  years: z.number().int().min(0).nullish(),
  months: z.number().int().min(0).max(11).nullish(),
  days: z.number().int().min(0).max(30).nullish(),
});
export type ValidityPeriod = z.infer<typeof validityPeriodSchema>;

/** The period to store: null when no part is given, otherwise only the parts given. */
export function normalizeValidityPeriod(
  period: ValidityPeriod | null | undefined,
): ValidityPeriod | null {
  if (!period) return null;
  const result: ValidityPeriod = {};
  for (const part of ['years', 'months', 'days'] as const) {
    const value = period[part];
    if (value !== null && value !== undefined) result[part] = value;
  }
  return Object.keys(result).length === 0 ? null : result;
}

// ---------------------------------------------------------------------------------------------
// API shapes of the document types calls (spec part 1, sections 3, 5 and 7).

/** A timestamp as the API sends it: ISO 8601 in UTC, or null when not set. */
const timestampOrNull = z.iso.datetime().nullable();

/**
 * A timestamp as the API accepts it: ISO 8601 date-time with a zone (Z or an offset) or a date
 * (midnight UTC); absent is null. Passed on as an ISO string in UTC.
 */
const timestampInput = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'Must be an ISO 8601 date, or date-time with Z or an offset',
  })
  .nullish()
  .transform((value, ctx) => {
    if (value === null || value === undefined) return null;
    const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
    if (Number.isNaN(time)) {
      ctx.issues.push({ code: 'custom', input: value, message: `Not a real date: ${value}` });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  });

const requiredOr = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'Required' : message;

/**
 * Tags: a list of strings, stored trimmed, lower-cased and deduplicated (spec 5). `owner` names what
 * carries them in the count message ('A document type', 'A form field').
 */
export function tagListSchema(owner: string) {
  return z
    .array(text({ name: 'A tag', max: TAG_MAX_LENGTH, typeError: 'Each tag must be a string' }), {
      error: requiredOr('tags must be an array of strings'),
    })
    .max(TAGS_MAX_COUNT, { error: `${owner} can have at most ${TAGS_MAX_COUNT} tags` })
    .transform(normalizeTags);
}

export const documentTypeTagsSchema = tagListSchema('A document type');

/**
 * API references: service name to reference value. Both are stored trimmed; a service name must
 * not be empty, given twice (after trimming) or a prototype key (keys.ts), a value must not be
 * empty. `owner` names what
 * carries them in the count message ('A document type', 'A form field').
 */
export function apiReferenceMapSchema(owner: string) {
  return z
    .record(
      text({ name: 'A service name', max: API_SERVICE_NAME_MAX_LENGTH }),
      text({
        name: 'An API reference',
        max: API_REFERENCE_MAX_LENGTH,
        typeError: 'Each API reference value must be a string',
      }),
      {
        error: (issue) =>
          // A refused service name: its own message ('A service name must not contain ...').
          issue.code === 'invalid_key'
            ? issue.issues[0]?.message
            : requiredOr('apiReferences must be an object of service name to reference value')(
                issue,
              ),
      },
    )
    .superRefine((references, ctx) => {
      if (Object.keys(references).length > API_REFERENCES_MAX_COUNT) {
        ctx.addIssue({
          code: 'custom',
          message: `${owner} can have at most ${API_REFERENCES_MAX_COUNT} API references`,
        });
        return;
      }
      const seen = new Set<string>();
      for (const [service, value] of Object.entries(references)) {
        if (typeof value !== 'string') continue; // already reported as not a string
        const name = service.trim();
        if (!name) {
          ctx.addIssue({
            code: 'custom',
            path: [service],
            message: 'A service name must not be empty',
          });
        } else if (seen.has(name)) {
          ctx.addIssue({
            code: 'custom',
            path: [service],
            message: `Service name '${name}' is given twice`,
          });
        } else if (isPrototypeKey(name)) {
          // The references are an object keyed by service name, here and in every reader.
          ctx.addIssue({
            code: 'custom',
            path: [service],
            message: prototypeKeyMessage('A service name', name),
          });
        } else if (!value.trim()) {
          ctx.addIssue({
            code: 'custom',
            path: [service],
            message: `The reference for '${name}' must not be empty`,
          });
        }
        seen.add(name);
      }
    })
    .transform((references) =>
      Object.fromEntries(
        Object.entries(references).map(([service, value]) => [service.trim(), value.trim()]),
      ),
    );
}

export const apiReferencesSchema = apiReferenceMapSchema('A document type');

/**
 * The ID of a new document type: the spec's rule and messages, with 'ID is required' also for a
 * missing or null ID.
 */
const newDocumentTypeIdSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? DOCUMENT_TYPE_ID_MESSAGES.required
        : 'ID must be a string',
  })
  .max(DOCUMENT_TYPE_ID_MAX_LENGTH, { error: DOCUMENT_TYPE_ID_MESSAGES.tooLong, abort: true })
  .superRefine((id, ctx) => {
    const message = validateDocumentTypeId(id);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** PostgreSQL's integer range: the sequence column is an integer. */
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/** The fields a create, an update and an import record share. */
const documentTypeFields = {
  displayName: text({ name: 'displayName', max: DISPLAY_NAME_MAX_LENGTH, trim: true }).refine(
    (value) => value.length > 0,
    { error: 'displayName is required' },
  ),
  tags: documentTypeTagsSchema.optional().transform((tags) => tags ?? []),
  apiReferences: apiReferencesSchema.optional().transform((references) => references ?? {}),
  sequence: z
    .number({ error: 'sequence must be a whole number' })
    .int({ error: 'sequence must be a whole number' })
    .min(INT32_MIN, { error: 'sequence is out of range' })
    .max(INT32_MAX, { error: 'sequence is out of range' })
    .nullish()
    .transform((value) => value ?? null),
  validFrom: timestampInput,
  validTo: timestampInput,
  validityPeriod: validityPeriodSchema
    .nullish()
    .transform((period) => normalizeValidityPeriod(period)),
};

/** Valid from must not come after valid to (a check the two fields only have together). */
function checkValidityDates(
  value: { validFrom: string | null; validTo: string | null },
  ctx: z.RefinementCtx,
): void {
  if (value.validFrom && value.validTo && Date.parse(value.validFrom) > Date.parse(value.validTo)) {
    ctx.addIssue({
      code: 'custom',
      path: ['validTo'],
      message: 'validTo must not be before validFrom',
    });
  }
}

/** Body of POST api/documenttypes: the dialog in create mode. */
export const documentTypeCreateSchema = z
  .object(
    { id: newDocumentTypeIdSchema, ...documentTypeFields },
    { error: 'Expected a document type object' },
  )
  .superRefine(checkValidityDates);
export type DocumentTypeCreate = z.input<typeof documentTypeCreateSchema>;
export type ParsedDocumentTypeCreate = z.output<typeof documentTypeCreateSchema>;

/**
 * Body of PUT api/documenttypes/{id}: the dialog in edit mode. The ID is read-only there: it may be
 * sent, but then it must be the one of the URL.
 */
export const documentTypeUpdateSchema = z
  .object(
    {
      id: text({ name: 'id', max: DOCUMENT_TYPE_ID_MAX_LENGTH }).optional(),
      ...documentTypeFields,
    },
    { error: 'Expected a document type object' },
  )
  .superRefine(checkValidityDates);
export type DocumentTypeUpdate = z.input<typeof documentTypeUpdateSchema>;
export type ParsedDocumentTypeUpdate = z.output<typeof documentTypeUpdateSchema>;

/**
 * One record of a document types import file (spec 5): id, displayName, a tags array and an
 * apiReferences object are required; the other fields are as in the dialog.
 */
export const documentTypeImportRecordSchema = z
  .object(
    {
      id: newDocumentTypeIdSchema,
      ...documentTypeFields,
      tags: documentTypeTagsSchema,
      apiReferences: apiReferencesSchema,
    },
    { error: 'Each record must be an object with id, displayName, tags and apiReferences' },
  )
  .superRefine(checkValidityDates);
export type DocumentTypeImportRecord = z.input<typeof documentTypeImportRecordSchema>;
export type ParsedDocumentTypeImportRecord = z.output<typeof documentTypeImportRecordSchema>;

/** Body of POST api/documenttypes/import: records in which no ID appears twice. */
export const documentTypeImportSchema = z
  .array(documentTypeImportRecordSchema, { error: 'Expected an array of document types' })
  .max(DOCUMENT_TYPE_IMPORT_MAX_COUNT, {
    error: `At most ${DOCUMENT_TYPE_IMPORT_MAX_COUNT} document types can be imported at once`,
  })
  .superRefine((records, ctx) => {
    const firstIndexOf = new Map<string, number>();
    records.forEach((record, index) => {
      const firstIndex = firstIndexOf.get(record.id);
      if (firstIndex === undefined) firstIndexOf.set(record.id, index);
      else {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: `Duplicate id ${record.id} (already at index ${firstIndex})`,
        });
      }
    });
  });

/** One row of GET api/documenttypes (and the answer of POST and PUT). */
export const documentTypeSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  tags: z.array(z.string()),
  apiReferences: z.record(z.string(), z.string()),
  sequence: z.number().int().nullable(),
  validFrom: timestampOrNull,
  validTo: timestampOrNull,
  validityPeriod: z
    .object({
      years: z.number().int().optional(),
      months: z.number().int().optional(),
      days: z.number().int().optional(),
    })
    .nullable(),
});
export type DocumentType = z.infer<typeof documentTypeSchema>;

export const documentTypeListSchema = z.array(documentTypeSchema).meta({
  description: 'Staff and admins: every document type with its tags, API references and validity',
});

/**
 * A document type as a choice of the forms' DocumentType fields (spec part 2, section 3:
 * "Country and document type choices: id, displayName; used for form setup"): what GET
 * api/documenttypes answers a tenant user, without the tags and the vendors' API references.
 */
export const documentTypeChoiceSchema = documentTypeSchema.pick({ id: true, displayName: true });
export type DocumentTypeChoice = z.infer<typeof documentTypeChoiceSchema>;

export const documentTypeChoiceListSchema = z
  .array(documentTypeChoiceSchema)
  .meta({ description: 'Tenant users: the choices of the profile forms (id, displayName)' });

/**
 * The `{id}` of PUT and DELETE api/documenttypes/{id}: an ID by the spec's rule (so NUL and any
 * other character outside a-z, 0-9 and '_' is refused before the database sees it).
 */
export const documentTypeIdParamsSchema = z.object({ id: documentTypeIdSchema });

/** GET /api/documenttypes/used-tags and used-api-service-names: distinct strings, sorted. */
export const usedNamesSchema = z.array(z.string());

/** The document types calls (method and path; see api.ts). */
export const documentTypesApi = {
  list: apiRoute('GET', '/api/documenttypes'),
  usedTags: apiRoute('GET', '/api/documenttypes/used-tags'),
  usedApiServiceNames: apiRoute('GET', '/api/documenttypes/used-api-service-names'),
  create: apiRoute('POST', '/api/documenttypes'),
  update: apiRoute('PUT', '/api/documenttypes/:id'),
  delete: apiRoute('DELETE', '/api/documenttypes/:id'),
  import: apiRoute('POST', '/api/documenttypes/import'),
  export: apiRoute('GET', '/api/documenttypes/export'),
} as const;
