import {
  PRODUCT_SCOPES,
  PRODUCT_TYPES,
  type EmailTemplate,
  type EmailTemplateListItem,
  type EmailTemplateVersion,
  type ExportFormat,
} from '@console/contracts';
import type { Kysely, Selectable } from 'kysely';
import { preparedStatement } from '../../db/prepared-statements.ts';
import type { Database, EmailTemplatesTable, EmailTemplateVersionsTable } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';

type TemplateRow = Selectable<EmailTemplatesTable>;
type VersionRow = Selectable<EmailTemplateVersionsTable>;

function templateFields(row: TemplateRow) {
  return {
    id: row.id,
    templateKey: row.template_key,
    tenantId: row.tenant_id,
    partyEntityId: row.party_entity_id,
    productType: row.product_type,
    productScope: row.product_scope,
    activeVersionId: row.active_version_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toVersion(row: VersionRow): EmailTemplateVersion {
  return {
    id: row.id,
    emailTemplateId: row.email_template_id,
    versionNumber: row.version_number,
    fromAddress: row.from_address,
    subject: row.subject,
    body: row.body,
    textContent: row.text_content,
    jsonSchema: row.json_schema,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The templates with their active version's number, in the list's order: by key. */
function orderedTemplates(db: Kysely<Database>) {
  return db
    .selectFrom('email_templates as t')
    .leftJoin('email_template_versions as v', 'v.id', 't.active_version_id')
    .selectAll('t')
    .select('v.version_number as active_version_number')
    .orderBy('t.template_key')
    .orderBy('t.id');
}

/** GET api/emailtemplates: every template with its active version's number, by key. */
export async function listEmailTemplates(db: Kysely<Database>): Promise<EmailTemplateListItem[]> {
  const rows = await orderedTemplates(db).execute();
  return rows.map((row) => ({
    ...templateFields(row),
    activeVersionNumber: row.active_version_number,
  }));
}

type ListRow = TemplateRow & { active_version_number: number | null };

/** GET api/emailtemplates/export: every template, in the list's order, with the list's fields. */
export function emailTemplatesExport(
  db: Kysely<Database>,
  format: ExportFormat,
): ListExport<ListRow> {
  // The screen's words for the numbers; a number it does not know stays a number.
  const label = (labels: Record<number, string>, value: number) => labels[value] ?? value;
  return {
    name: 'email-templates',
    format,
    db,
    query: orderedTemplates(db),
    columns: [
      { header: 'ID', value: (row) => row.id },
      { header: 'Template Key', value: (row) => row.template_key },
      { header: 'Tenant ID', value: (row) => row.tenant_id },
      { header: 'Party Entity ID', value: (row) => row.party_entity_id },
      { header: 'Product Type', value: (row) => label(PRODUCT_TYPES, row.product_type) },
      { header: 'Product Scope', value: (row) => label(PRODUCT_SCOPES, row.product_scope) },
      { header: 'Active Version', value: (row) => row.active_version_number },
      { header: 'Created At', value: (row) => row.created_at.toISOString() },
      { header: 'Updated At', value: (row) => row.updated_at.toISOString() },
    ],
  };
}

/** GET api/emailtemplates/{id}: the template and its versions by number, or undefined. */
export async function findEmailTemplate(
  db: Kysely<Database>,
  id: number,
): Promise<EmailTemplate | undefined> {
  const row = await db
    .selectFrom('email_templates')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const versions = await db
    .selectFrom('email_template_versions')
    .selectAll()
    .where('email_template_id', '=', id)
    .orderBy('version_number')
    .execute();
  return { ...templateFields(row), versions: versions.map(toVersion) };
}

/*
 * The lookups of the version to send run once per mail sent (an invitation, a test send), so
 * they are named prepared statements (db/prepared-statements.ts) rather than planned on every
 * send: in the bench, a test send ran at 0.68-0.72 of a bare send's speed planned each time, and
 * at 0.79-0.91 prepared (target 0.8).
 */

/** What a send reads of an active version (named columns: a prepared statement keeps its shape). */
export type ActiveVersion = Pick<
  VersionRow,
  | 'id'
  | 'email_template_id'
  | 'version_number'
  | 'from_address'
  | 'subject'
  | 'body'
  | 'text_content'
  | 'json_schema'
>;

const ACTIVE_VERSION_COLUMNS =
  'v.id, v.email_template_id, v.version_number, v.from_address, v.subject, v.body, v.text_content, v.json_schema';

const ACTIVE_VERSION = preparedStatement(
  'email_template_active_version',
  `select ${ACTIVE_VERSION_COLUMNS}
   from email_templates t
   join email_template_versions v on v.id = t.active_version_id
   where t.template_key = $1
     and t.party_entity_id is null
     and (t.tenant_id is null or t.tenant_id = $2)
   order by t.tenant_id nulls last
   limit 1`,
);

/**
 * The active version of the template with this key that fits the scope best: the tenant's own
 * (when a tenant is given), else the instance-level one. Undefined when there is no such template
 * or it has no active version.
 */
export async function findActiveVersion(
  db: Kysely<Database>,
  templateKey: string,
  tenantId: number | null = null,
): Promise<ActiveVersion | undefined> {
  const { rows } = await db.executeQuery<ActiveVersion>(ACTIVE_VERSION([templateKey, tenantId]));
  return rows[0];
}

/** A test send's template row: its active version's columns, all null without one. */
type TestSendRow = { [Column in keyof ActiveVersion]: ActiveVersion[Column] | null };

const TEST_SEND_TEMPLATE = preparedStatement(
  'email_template_test_send',
  `select ${ACTIVE_VERSION_COLUMNS}
   from email_templates t
   left join email_template_versions v on v.id = t.active_version_id
   where t.template_key = $1
   order by t.tenant_id nulls first, t.party_entity_id nulls first, t.id
   limit 1`,
);

/**
 * The template with this key that a test send uses without a version: the most general scope
 * first (instance level, then by tenant and entity), with its active version (null without one).
 * Undefined when there is no such template.
 */
export async function findTestSendTemplate(
  db: Kysely<Database>,
  templateKey: string,
): Promise<{ activeVersion: ActiveVersion | null } | undefined> {
  const { rows } = await db.executeQuery<TestSendRow>(TEST_SEND_TEMPLATE([templateKey]));
  const row = rows[0];
  if (!row) return undefined;
  const {
    id,
    email_template_id,
    version_number,
    from_address,
    subject,
    body,
    text_content,
    json_schema,
  } = row;
  // The version's columns are not null (schema.ts): all of them are, or none.
  if (
    id === null ||
    email_template_id === null ||
    version_number === null ||
    from_address === null ||
    subject === null ||
    body === null ||
    text_content === null
  ) {
    return { activeVersion: null };
  }
  return {
    activeVersion: {
      id,
      email_template_id,
      version_number,
      from_address,
      subject,
      body,
      text_content,
      json_schema,
    },
  };
}

const TEST_SEND_VERSION = preparedStatement(
  'email_template_test_send_version',
  `select ${ACTIVE_VERSION_COLUMNS}
   from email_template_versions v
   join email_templates t on t.id = v.email_template_id
   where v.id = $1 and t.template_key = $2`,
);

/**
 * Version `versionId` for a test send, when it belongs to a template with this key (the editor
 * sends the version it shows); undefined otherwise.
 */
export async function findTestSendVersion(
  db: Kysely<Database>,
  templateKey: string,
  versionId: number,
): Promise<ActiveVersion | undefined> {
  const { rows } = await db.executeQuery<ActiveVersion>(
    TEST_SEND_VERSION([versionId, templateKey]),
  );
  return rows[0];
}
