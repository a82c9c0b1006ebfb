import { z } from 'zod';
import { apiRoute } from './api.ts';
import { idParamsSchema, INT4_ID_MAX } from './ids.ts';
import { text } from './text.ts';
import { EMAIL_MAX_LENGTH } from './tenant-users.ts';

/** Rules and API shapes of email templates (spec part 2, sections 3, 4, 5, 7 and 9). */

/** Product types (spec 9): 0 All, 1 None, 2 AML, 3 Pay; any other value shows as unknown. */
export const PRODUCT_TYPES: Record<number, string> = { 0: 'All', 1: 'None', 2: 'AML', 3: 'Pay' };
/** Product scopes (spec 9): 0 Default, 1 Tenant, 2 Entity. */
export const PRODUCT_SCOPES: Record<number, string> = { 0: 'Default', 1: 'Tenant', 2: 'Entity' };

/** The template the notifications worker mails a new tenant user (seeded by migration 13). */
export const TENANT_USER_INVITATION_TEMPLATE_KEY = 'tenant-user-invitation';

export const TEMPLATE_KEY_MAX_LENGTH = 100;
/** `Name <address>`: a display name and the longest address SMTP allows. */
export const FROM_ADDRESS_MAX_LENGTH = 320;
/** RFC 5322 recommends header lines under 998 characters. */
export const SUBJECT_MAX_LENGTH = 998;
/** Far above any real transactional mail (they stay under 100 kB to avoid clipping). */
export const BODY_MAX_LENGTH = 1_000_000;
export const JSON_SCHEMA_MAX_LENGTH = 100_000;
export const PARTY_ENTITY_ID_MAX_LENGTH = 100;

/** Letters, digits, dot, dash and underscore: a key is used in code and URLs. */
const TEMPLATE_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const TEMPLATE_KEY_PATTERN_MESSAGE =
  'templateKey may contain only letters, digits, dots, dashes and underscores, starting with a letter or digit';

/** The basic {email} pattern of the test-send recipient (spec 5). */
export const RECIPIENT_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isValidRecipient(address: string): boolean {
  return address.length <= EMAIL_MAX_LENGTH && RECIPIENT_PATTERN.test(address);
}

const requiredText = (name: string, max: number) =>
  z
    .preprocess(
      (value) => value ?? '',
      text({ name, max, trim: true }).refine((value) => value.length > 0, {
        error: `${name} is required`,
      }),
    )
    .describe(`Required, at most ${max} characters`);

const choice = (name: string, values: Record<number, string>) =>
  z
    .number({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? `${name} is required`
          : `${name} must be a number`,
    })
    .int({ error: `${name} must be a whole number` })
    .refine((value) => value in values, {
      error: `${name} must be one of ${Object.entries(values)
        .map(([value, label]) => `${value} (${label})`)
        .join(', ')}`,
    });

const templateKeySchema = requiredText('templateKey', TEMPLATE_KEY_MAX_LENGTH).pipe(
  z.string().regex(TEMPLATE_KEY_PATTERN, { error: TEMPLATE_KEY_PATTERN_MESSAGE }),
);

const scopeFields = {
  templateKey: templateKeySchema,
  tenantId: z
    .number({ error: 'tenantId must be a number or null' })
    .int({ error: 'tenantId must be a whole number' })
    .min(1, { error: 'tenantId must be a tenant id' })
    .max(INT4_ID_MAX, { error: 'tenantId must be a tenant id' })
    .nullish()
    .transform((value) => value ?? null)
    .describe('null: instance level'),
  partyEntityId: text({ name: 'partyEntityId', max: PARTY_ENTITY_ID_MAX_LENGTH, trim: true })
    .nullish()
    .transform((value) => (value ? value : null))
    .describe('null or empty: no entity'),
  productType: choice('productType', PRODUCT_TYPES),
  productScope: choice('productScope', PRODUCT_SCOPES),
};

/** Body of POST api/emailtemplates (spec 7). */
export const emailTemplateCreateSchema = z.object(scopeFields, {
  error: 'Expected an email template object',
});
export type EmailTemplateCreate = z.output<typeof emailTemplateCreateSchema>;
export type EmailTemplateCreateInput = z.input<typeof emailTemplateCreateSchema>;

/** Body of PUT api/emailtemplates/{id}: the template with the version to make active (spec 4). */
export const emailTemplateUpdateSchema = z.object(
  {
    id: z.number({ error: 'id must be a number' }).int().optional(),
    ...scopeFields,
    activeVersionId: z
      .number({ error: 'activeVersionId must be a number or null' })
      .int({ error: 'activeVersionId must be a whole number' })
      .min(1, { error: 'activeVersionId must be a version id' })
      .max(INT4_ID_MAX, { error: 'activeVersionId must be a version id' })
      .nullish()
      .transform((value) => value ?? null),
  },
  { error: 'Expected an email template object' },
);
export type EmailTemplateUpdate = z.output<typeof emailTemplateUpdateSchema>;
export type EmailTemplateUpdateInput = z.input<typeof emailTemplateUpdateSchema>;

/** Body of POST api/emailtemplates/{id}/versions (spec 7); from address and subject required (spec 5). */
export const emailTemplateVersionCreateSchema = z.object(
  {
    fromAddress: requiredText('fromAddress', FROM_ADDRESS_MAX_LENGTH),
    subject: requiredText('subject', SUBJECT_MAX_LENGTH),
    body: z
      .preprocess((value) => value ?? '', text({ name: 'body', max: BODY_MAX_LENGTH }))
      .describe('HTML with {{placeholders}}'),
    textContent: text({ name: 'textContent', max: BODY_MAX_LENGTH })
      .nullish()
      .transform((value) => (value && value.trim() ? value : null))
      .describe('Plain text; derived from the HTML body when absent or blank'),
    jsonSchema: text({ name: 'jsonSchema', max: JSON_SCHEMA_MAX_LENGTH })
      .nullish()
      .transform((value) => (value && value.trim() ? value : null))
      .describe('A JSON Schema (as text) of the data the placeholders expect'),
  },
  { error: 'Expected a version object' },
);
export type EmailTemplateVersionCreate = z.output<typeof emailTemplateVersionCreateSchema>;
export type EmailTemplateVersionCreateInput = z.input<typeof emailTemplateVersionCreateSchema>;

/** Body of POST api/emailtemplates/preview: a version's content, saved or not. */
export const emailTemplatePreviewRequestSchema = emailTemplateVersionCreateSchema
  .pick({ body: true, textContent: true, jsonSchema: true })
  .extend({
    subject: text({ name: 'subject', max: SUBJECT_MAX_LENGTH }).nullish(),
  });
export type EmailTemplatePreviewRequest = z.input<typeof emailTemplatePreviewRequestSchema>;
export type ParsedEmailTemplatePreviewRequest = z.output<typeof emailTemplatePreviewRequestSchema>;

export const emailTemplatePreviewSchema = z.object({
  subject: z.string(),
  html: z.string().describe('Rendered and sanitised: no script, no event handler, no remote load'),
  text: z.string(),
  sampleData: z.unknown().describe('Generated from the jsonSchema'),
});
export type EmailTemplatePreview = z.infer<typeof emailTemplatePreviewSchema>;

/**
 * Body of POST api/emailtemplates/testsend (spec 7: the server's own capitalised names). Spec 5
 * asks for "a template key and a selected version": `VersionId` names the saved version the
 * editor shows; without it (the spec's two-field call) the active version is sent.
 */
export const emailTemplateTestSendSchema = z.object(
  {
    ToAddress: requiredText('ToAddress', EMAIL_MAX_LENGTH).refine(isValidRecipient, {
      error: 'ToAddress must be an email address',
    }),
    TemplateKey: requiredText('TemplateKey', TEMPLATE_KEY_MAX_LENGTH),
    VersionId: z
      .number({ error: 'VersionId must be a number' })
      .int({ error: 'VersionId must be a whole number' })
      .min(1, { error: 'VersionId must be a version id' })
      .max(INT4_ID_MAX, { error: 'VersionId must be a version id' })
      .nullish()
      .transform((value) => value ?? null)
      .describe('A saved version of the template with this key; absent or null: the active one'),
  },
  { error: 'Expected {ToAddress, TemplateKey, VersionId?}' },
);
export type EmailTemplateTestSend = z.input<typeof emailTemplateTestSendSchema>;

export const emailTemplateTestSendResultSchema = z.object({
  message: z.string(),
  versionNumber: z.number().int(),
});

export const emailTemplateVersionSchema = z.object({
  id: z.number().int(),
  emailTemplateId: z.number().int(),
  versionNumber: z.number().int(),
  fromAddress: z.string(),
  subject: z.string(),
  body: z.string(),
  textContent: z.string(),
  jsonSchema: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EmailTemplateVersion = z.infer<typeof emailTemplateVersionSchema>;

/** The answer of POST api/emailtemplates/{id}/versions (spec 7). */
export const emailTemplateVersionCreatedSchema = emailTemplateVersionSchema.pick({
  id: true,
  emailTemplateId: true,
  versionNumber: true,
  createdAt: true,
  updatedAt: true,
});
export type EmailTemplateVersionCreated = z.infer<typeof emailTemplateVersionCreatedSchema>;

const templateFields = {
  id: z.number().int(),
  templateKey: z.string(),
  tenantId: z.number().int().nullable(),
  partyEntityId: z.string().nullable(),
  productType: z.number().int(),
  productScope: z.number().int(),
  activeVersionId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

/** One row of GET api/emailtemplates: the active version's number, for the list's column. */
export const emailTemplateListItemSchema = z.object({
  ...templateFields,
  activeVersionNumber: z.number().int().nullable(),
});
export type EmailTemplateListItem = z.infer<typeof emailTemplateListItemSchema>;
export const emailTemplateListSchema = z.array(emailTemplateListItemSchema);

/** GET api/emailtemplates/{id}: the template with its versions, by version number. */
export const emailTemplateSchema = z.object({
  ...templateFields,
  versions: z.array(emailTemplateVersionSchema),
});
export type EmailTemplate = z.infer<typeof emailTemplateSchema>;

export const emailTemplateCreatedSchema = z.object({ id: z.number().int() });

export const emailTemplateIdParamsSchema = idParamsSchema;

/** The email template calls (method and path; see api.ts). */
export const emailTemplatesApi = {
  list: apiRoute('GET', '/api/emailtemplates'),
  export: apiRoute('GET', '/api/emailtemplates/export'),
  get: apiRoute('GET', '/api/emailtemplates/:id'),
  create: apiRoute('POST', '/api/emailtemplates'),
  update: apiRoute('PUT', '/api/emailtemplates/:id'),
  delete: apiRoute('DELETE', '/api/emailtemplates/:id'),
  createVersion: apiRoute('POST', '/api/emailtemplates/:id/versions'),
  preview: apiRoute('POST', '/api/emailtemplates/preview'),
  testSend: apiRoute('POST', '/api/emailtemplates/testsend'),
} as const;
