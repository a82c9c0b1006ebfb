import type {
  EmailTemplate,
  EmailTemplateListItem,
  EmailTemplateVersion,
} from '@console/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database, EmailTemplatesTable, EmailTemplateVersionsTable } from '../../db/schema.ts';

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

/** GET api/emailtemplates: every template with its active version's number, by key. */
export async function listEmailTemplates(db: Kysely<Database>): Promise<EmailTemplateListItem[]> {
  const rows = await db
    .selectFrom('email_templates as t')
    .leftJoin('email_template_versions as v', 'v.id', 't.active_version_id')
    .selectAll('t')
    .select('v.version_number as active_version_number')
    .orderBy('t.template_key')
    .orderBy('t.id')
    .execute();
  return rows.map((row) => ({
    ...templateFields(row),
    activeVersionNumber: row.active_version_number,
  }));
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

/**
 * The active version of the template with this key that fits the scope best: the tenant's own
 * (when a tenant is given), else the instance-level one. Undefined when there is no such template
 * or it has no active version.
 */
export async function findActiveVersion(
  db: Kysely<Database>,
  templateKey: string,
  tenantId: number | null = null,
): Promise<(VersionRow & { template_key: string }) | undefined> {
  return (
    db
      .selectFrom('email_templates as t')
      .innerJoin('email_template_versions as v', 'v.id', 't.active_version_id')
      .selectAll('v')
      .select('t.template_key')
      .where('t.template_key', '=', templateKey)
      .where('t.party_entity_id', 'is', null)
      .where((eb) =>
        tenantId === null
          ? eb('t.tenant_id', 'is', null)
          : eb.or([eb('t.tenant_id', 'is', null), eb('t.tenant_id', '=', tenantId)]),
      )
      // The tenant's own first (nulls last), then the instance-level one.
      .orderBy('t.tenant_id', (order) => order.asc().nullsLast())
      .limit(1)
      .executeTakeFirst()
  );
}
