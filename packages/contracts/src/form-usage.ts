import { z } from 'zod';
import { apiRoute } from './api.ts';
import { PARTY_ENTITY_ID_MAX_LENGTH } from './email-templates.ts';
import {
  FIELD_VALUE_MAX_LENGTH,
  STORAGE_NAME_MAX_LENGTH,
  UI_GROUP_MAX_LENGTH,
  storageNameSchema,
} from './form-fields.ts';
import {
  dataObjectKey,
  formNameSchema,
  reservedInputNameMessage,
  SUBMISSION_VALUES_MAX_COUNT,
} from './forms.ts';
import { INT4_ID_MAX, isCanonicalId, pathIdSchema } from './ids.ts';
import { findJsonProblem, recordError, text } from './text.ts';

/**
 * Form usage: the tenant and entity profiles edited through the dynamic forms EditTenantProfile
 * and EditEntityProfile (spec part 1, sections 2, 3, 7 and 8: "profile dialog", "Dynamic profile
 * forms", "Form submission (profile forms)").
 */

/** What a profile submission targets (the multipart part Target). */
export const PROFILE_TARGETS = ['Tenant', 'Entity'] as const;
export type ProfileTarget = (typeof PROFILE_TARGETS)[number];

/** The form each profile is edited with (spec part 1, section 9). */
export const PROFILE_FORM_NAMES: Record<ProfileTarget, string> = {
  Tenant: 'EditTenantProfile',
  Entity: 'EditEntityProfile',
};

/** Largest file a FileUpload field of a profile takes. */
export const PROFILE_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** Most files one profile submission carries. */
export const PROFILE_FILES_MAX_COUNT = 20;
/** Longest FormData part (JSON of every value; values are at most 10,000 characters each). */
export const PROFILE_FORM_DATA_MAX_BYTES = 2 * 1024 * 1024;

/** The parts of POST svc/formusage/submit (spec part 1, section 7), multipart form data. */
export const PROFILE_SUBMIT_PARTS = {
  target: 'Target',
  tenantId: 'TenantId',
  entityId: 'EntityId',
  /** JSON: input name (`DataObject.<storage name>`) to value. Files travel as parts of their own, named by their input. */
  formData: 'FormData',
} as const;

/**
 * The FormData part, parsed: an object of input name to text value, every name with the
 * DataObject prefix and a storage name no prototype key. Returns the values by storage name, or
 * the message of the first problem.
 */
export const profileFormDataSchema = z
  .record(
    text({ name: 'A FormData input name', max: STORAGE_NAME_MAX_LENGTH + 20 }),
    text({
      name: 'A FormData value',
      max: FIELD_VALUE_MAX_LENGTH,
      typeError: 'Each FormData value must be a string',
    }),
    { error: recordError('FormData must be a JSON object of input name to value') },
  )
  .refine((inputs) => Object.keys(inputs).length <= SUBMISSION_VALUES_MAX_COUNT, {
    error: `FormData can carry at most ${SUBMISSION_VALUES_MAX_COUNT} values`,
  })
  .transform((inputs, ctx) => {
    const refuse = (input: string, message: string) => {
      ctx.issues.push({ code: 'custom', input, path: [input], message });
      return z.NEVER;
    };
    const values: [string, string][] = [];
    for (const [input, value] of Object.entries(inputs)) {
      const key = dataObjectKey(input);
      if (key === null)
        return refuse(input, `FormData input ${input} does not start with DataObject.`);
      const reserved = reservedInputNameMessage(input);
      if (reserved !== null) return refuse(input, reserved);
      values.push([key, value]);
    }
    return Object.fromEntries(values);
  });

const TENANT_ID_PART_MAX_LENGTH = 20;

/**
 * The text parts of POST svc/formusage/submit (the files are parts of their own, named
 * `DataObject.<storage name>`): Target, the id its target needs (TenantId for a Tenant, EntityId
 * for an Entity; the other one, if sent, is not used), and FormData, parsed from JSON into the
 * values by storage name (`profileFormDataSchema`, with the limits of a DataObject). Each
 * problem names its part.
 */
export const profileSubmitPartsSchema = z
  .object({
    Target: z.enum(PROFILE_TARGETS, {
      error: (issue) =>
        issue.input === undefined
          ? 'Target is required (Tenant or Entity).'
          : 'Target must be Tenant or Entity.',
    }),
    TenantId: text({ name: 'TenantId', max: TENANT_ID_PART_MAX_LENGTH })
      .meta({ examples: ['1'] })
      .optional(),
    EntityId: text({ name: 'EntityId', max: PARTY_ENTITY_ID_MAX_LENGTH }).optional(),
    FormData: text({ name: 'FormData', max: PROFILE_FORM_DATA_MAX_BYTES })
      .meta({
        description: 'JSON: input name (DataObject.<storage name>) to value',
        examples: ['{"DataObject.LegalName":"Acme Corporation"}'],
      })
      .transform((raw, ctx) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          ctx.issues.push({ code: 'custom', input: raw, message: 'FormData must be JSON.' });
          return z.NEVER;
        }
        // As any JSON body (http/input.ts): the record below would drop a `__proto__` key unsaid.
        const problem = findJsonProblem(parsed, 'FormData');
        if (problem) {
          ctx.issues.push({ code: 'custom', input: raw, ...problem });
          return z.NEVER;
        }
        return parsed;
      })
      .pipe(profileFormDataSchema)
      .optional(),
  })
  .transform((parts, ctx) => {
    if (parts.FormData === undefined) {
      ctx.issues.push({
        code: 'custom',
        input: undefined,
        path: ['FormData'],
        message: 'FormData is required.',
      });
    }
    const idPart = parts.Target === 'Tenant' ? 'TenantId' : 'EntityId';
    const id = parts[idPart];
    if (id === undefined || id === '') {
      ctx.issues.push({
        code: 'custom',
        input: id,
        path: [idPart],
        message: `${idPart} is required for ${parts.Target === 'Tenant' ? 'a Tenant' : 'an Entity'} profile.`,
      });
      return z.NEVER;
    }
    if (parts.Target === 'Tenant' && !isCanonicalId(id, INT4_ID_MAX)) {
      ctx.issues.push({
        code: 'custom',
        input: id,
        path: [idPart],
        message: `TenantId must be a whole number from 1 to ${INT4_ID_MAX}, in plain digits.`,
      });
      return z.NEVER;
    }
    if (parts.FormData === undefined) return z.NEVER;
    return parts.Target === 'Tenant'
      ? { target: parts.Target, tenantId: Number(id), values: parts.FormData }
      : { target: parts.Target, entityId: id, values: parts.FormData };
  });
export type ProfileSubmitParts = z.output<typeof profileSubmitPartsSchema>;

/**
 * GET svc/formusage/tenant/{id} and GET svc/formusage/entity/{id}: the profile's stored values
 * (`metadata`, storage name to value; a FileUpload field holds its file's name) and what the
 * dialog renders: the profile form, whether it exists, and its groups in order.
 */
export const profileSchema = z.object({
  target: z.enum(PROFILE_TARGETS),
  tenantId: z.number().int(),
  partyEntityId: z.string().nullable(),
  formName: z.string(),
  formExists: z.boolean(),
  groups: z.array(z.string()),
  metadata: z.record(z.string(), z.string()),
  updatedAt: z.iso.datetime().nullable(),
  updatedBy: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

/** The answer of a profile submission the server stored. */
export const PROFILE_SAVED_MESSAGE = 'Profile saved successfully.';
export const profileSubmitResultSchema = z.object({
  message: z.string(),
  submittedData: z.record(z.string(), z.string()),
});

/** `{id}` of the tenant profile calls. */
export const tenantProfileParamsSchema = z.object({ id: pathIdSchema('id') });

/** `{id}` of the entity profile calls: a party entity id. */
export const entityProfileParamsSchema = z.object({
  id: text({ name: 'id', max: PARTY_ENTITY_ID_MAX_LENGTH }).min(1, { error: 'id is required' }),
});

/** `{field}` of a profile file download: the FileUpload field's storage name. */
export const profileFileParamsSchema = z.object({ field: storageNameSchema });

/** A query flag: 'true' or 'false' (absent: `fallback`). */
const flag = (name: string, fallback: boolean) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .optional()
    .transform((value) => (value === undefined ? fallback : value === 'true'));

/**
 * GET /svc/formusage/{fieldgroup}/fieldgroup: the HTML of one group. `form` limits it to the
 * fields of that form (the profile dialogs send it; a tenant user must); without it the group has
 * every field of the catalogue in it. hasEditPermission=false renders the inputs read-only;
 * showValidationSummary=true adds the block where a failed submission's messages are listed.
 */
export const fieldGroupParamsSchema = z.object({
  group: text({ name: 'fieldgroup', max: UI_GROUP_MAX_LENGTH }),
});
export const fieldGroupQuerySchema = z.object({
  form: formNameSchema.optional(),
  hasEditPermission: flag('hasEditPermission', true),
  showValidationSummary: flag('showValidationSummary', false),
});

/** The form usage calls (method and path; see api.ts). */
export const formUsageApi = {
  fieldGroup: apiRoute('GET', '/svc/formusage/:group/fieldgroup'),
  tenantProfile: apiRoute('GET', '/svc/formusage/tenant/:id'),
  entityProfile: apiRoute('GET', '/svc/formusage/entity/:id'),
  tenantFile: apiRoute('GET', '/svc/formusage/tenant/:id/files/:field'),
  entityFile: apiRoute('GET', '/svc/formusage/entity/:id/files/:field'),
  submit: apiRoute('POST', '/svc/formusage/submit'),
} as const;
