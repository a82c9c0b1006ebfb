import type {
  EmailTemplateCreate,
  EmailTemplateUpdate,
  EmailTemplateVersionCreate,
  EmailTemplateVersionCreated,
} from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { translateViolations, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { recordEvent } from '../../outbox/index.ts';
import { findEmailTemplate, toVersion } from './queries.ts';
import { compileJsonSchema, compileVersion, textFromHtml } from './rendering.ts';

/**
 * Every write of email templates. Each runs in one transaction with its domain event (the event
 * exists exactly when the write does). Rules (spec part 2, sections 3 and 4): the key is unique in
 * its scope and never changes; a version is numbered one above the template's highest; the
 * active version changes only through the template update; a delete takes the versions along.
 */

const keyTaken = (key: string) =>
  conflict(`An email template with key ${key} already exists for this tenant and entity.`, {
    errors: [{ path: 'templateKey', message: 'Already used in this scope' }],
  });

/** POST api/emailtemplates: answers the new id. */
export async function createEmailTemplate(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  input: EmailTemplateCreate,
): Promise<{ id: number }> {
  return translateViolations({ [UNIQUE_VIOLATION]: () => keyTaken(input.templateKey) }, () =>
    db.transaction().execute(async (trx) => {
      await assertScope(trx, input);
      const { id } = await trx
        .insertInto('email_templates')
        .values({
          template_key: input.templateKey,
          tenant_id: input.tenantId,
          party_entity_id: input.partyEntityId,
          product_type: input.productType,
          product_scope: input.productScope,
          created_by: actor.email,
          updated_by: actor.email,
          updated_at: sql<Date>`now()`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordEvent(trx, {
        eventName: 'EmailTemplateCreated',
        tenantId: input.tenantId,
        entityId: input.partyEntityId,
        metadata: {
          actor: actor.email,
          action: 'create',
          emailTemplateId: id,
          target: { type: 'EmailTemplate', id, name: input.templateKey },
          after: input,
        },
      });
      return { id };
    }),
  );
}

/**
 * PUT api/emailtemplates/{id}: scope, product fields and the active version. The key cannot
 * change (400); the body's id, when given, must be the path's; the active version must be one of
 * this template's (400).
 */
export async function updateEmailTemplate(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: number,
  input: EmailTemplateUpdate,
): Promise<void> {
  if (input.id !== undefined && input.id !== id) {
    throw badRequest(`id ${input.id} of the body is not the template ${id} of the path`, {
      errors: [{ path: 'id', message: 'Must be the id of the path' }],
    });
  }
  await translateViolations({ [UNIQUE_VIOLATION]: () => keyTaken(input.templateKey) }, () =>
    db.transaction().execute(async (trx) => {
      const before = await lockTemplate(trx, id);
      if (before.template_key !== input.templateKey) {
        throw badRequest('templateKey cannot be changed once the template exists', {
          errors: [{ path: 'templateKey', message: 'Cannot be changed' }],
        });
      }
      await assertScope(trx, input);
      if (input.activeVersionId !== null) await assertOwnVersion(trx, id, input.activeVersionId);
      await trx
        .updateTable('email_templates')
        .set({
          tenant_id: input.tenantId,
          party_entity_id: input.partyEntityId,
          product_type: input.productType,
          product_scope: input.productScope,
          active_version_id: input.activeVersionId,
          updated_by: actor.email,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .execute();
      const { id: _id, ...after } = input;
      await recordEvent(trx, {
        eventName:
          before.active_version_id !== input.activeVersionId
            ? 'EmailTemplateVersionActivated'
            : 'EmailTemplateUpdated',
        tenantId: input.tenantId,
        entityId: input.partyEntityId,
        metadata: {
          actor: actor.email,
          action: 'update',
          emailTemplateId: id,
          target: { type: 'EmailTemplate', id, name: before.template_key },
          before: {
            tenantId: before.tenant_id,
            partyEntityId: before.party_entity_id,
            productType: before.product_type,
            productScope: before.product_scope,
            activeVersionId: before.active_version_id,
          },
          after,
        },
      });
    }),
  );
}

/** DELETE api/emailtemplates/{id}: the template and its versions (cascade). */
export async function deleteEmailTemplate(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await findEmailTemplate(trx, id);
    if (!before) throw notFound(`Email template ${id} not found.`);
    await trx.deleteFrom('email_templates').where('id', '=', id).execute();
    await recordEvent(trx, {
      eventName: 'EmailTemplateDeleted',
      tenantId: before.tenantId,
      entityId: before.partyEntityId,
      metadata: {
        actor: actor.email,
        action: 'delete',
        emailTemplateId: id,
        templateKey: before.templateKey,
        versions: before.versions.length,
        target: { type: 'EmailTemplate', id, name: before.templateKey },
        before,
      },
    });
  });
}

/**
 * POST api/emailtemplates/{id}/versions: a new version numbered one above the template's highest
 * (the template row is locked, so concurrent creations queue). Its subject, body and text must
 * compile, its jsonSchema must be a JSON Schema; without text the text is derived from the body.
 */
export async function createEmailTemplateVersion(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  templateId: number,
  input: EmailTemplateVersionCreate,
): Promise<EmailTemplateVersionCreated> {
  const textContent = input.textContent ?? textFromHtml(input.body);
  compileJsonSchema(input.jsonSchema);
  compileVersion({ subject: input.subject, body: input.body, textContent });
  return db.transaction().execute(async (trx) => {
    const template = await lockTemplate(trx, templateId);
    const { highest } = await trx
      .selectFrom('email_template_versions')
      .select((eb) => eb.fn.max('version_number').as('highest'))
      .where('email_template_id', '=', templateId)
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto('email_template_versions')
      .values({
        email_template_id: templateId,
        version_number: (highest ?? 0) + 1,
        from_address: input.fromAddress,
        subject: input.subject,
        body: input.body,
        text_content: textContent,
        json_schema: input.jsonSchema,
        created_by: actor.email,
        updated_by: actor.email,
        updated_at: sql<Date>`now()`,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const version = toVersion(row);
    await recordEvent(trx, {
      eventName: 'EmailTemplateVersionCreated',
      tenantId: template.tenant_id,
      entityId: template.party_entity_id,
      metadata: {
        actor: actor.email,
        action: 'create',
        emailTemplateId: templateId,
        versionId: version.id,
        versionNumber: version.versionNumber,
        target: { type: 'EmailTemplate', id: templateId, name: template.template_key },
        after: version,
      },
    });
    const { id, emailTemplateId, versionNumber, createdAt, updatedAt } = version;
    return { id, emailTemplateId, versionNumber, createdAt, updatedAt };
  });
}

async function lockTemplate(trx: Kysely<Database>, id: number) {
  const row = await trx
    .selectFrom('email_templates')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound(`Email template ${id} not found.`);
  return row;
}

/**
 * The tenant and entity exist (400 naming the field otherwise), and an entity given with a tenant
 * belongs to it. Key-share locks keep them until commit (a concurrent delete waits or fails).
 */
async function assertScope(
  trx: Kysely<Database>,
  { tenantId, partyEntityId }: { tenantId: number | null; partyEntityId: string | null },
): Promise<void> {
  const missing = (path: string, message: string) =>
    badRequest(message, { errors: [{ path, message }] });
  if (tenantId !== null) {
    const tenant = await trx
      .selectFrom('tenants')
      .select('id')
      .where('id', '=', tenantId)
      .forKeyShare()
      .executeTakeFirst();
    if (!tenant) throw missing('tenantId', `Tenant ${tenantId} does not exist`);
  }
  if (partyEntityId !== null) {
    const entity = await trx
      .selectFrom('entities')
      .select('tenant_id')
      .where('party_entity_id', '=', partyEntityId)
      .forKeyShare()
      .executeTakeFirst();
    if (!entity) throw missing('partyEntityId', `Entity ${partyEntityId} does not exist`);
    if (tenantId !== null && entity.tenant_id !== tenantId) {
      throw missing(
        'partyEntityId',
        `Entity ${partyEntityId} does not belong to tenant ${tenantId}`,
      );
    }
  }
}

async function assertOwnVersion(trx: Kysely<Database>, templateId: number, versionId: number) {
  const version = await trx
    .selectFrom('email_template_versions')
    .select('id')
    .where('id', '=', versionId)
    .where('email_template_id', '=', templateId)
    .executeTakeFirst();
  if (!version) {
    const message = `Version ${versionId} is not a version of email template ${templateId}`;
    throw badRequest(message, { errors: [{ path: 'activeVersionId', message }] });
  }
}
