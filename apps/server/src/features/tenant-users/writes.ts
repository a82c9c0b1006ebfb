import type { TenantUser, TenantUserCreate } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { recordEvent } from '../../outbox/index.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { FOREIGN_KEY_VIOLATION, translateViolations, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { findTenantUser } from './queries.ts';

/**
 * Every write of tenant users. Each runs in one transaction and knows its actor, and records its
 * domain event in that transaction (outbox/outbox.ts), as an event of the user's tenant:
 * 'TenantUserCreated' is what mails the new user an invitation (outbox/notifications.ts). A tenant user signs in with the
 * `tenant` role of its tenant (auth/roles.ts); deleting it ends that at the next token.
 */

const alreadyRegistered = (email: string) =>
  conflict(`The email ${email} is already registered as a tenant user.`);

/**
 * POST api/tenantusers: the email comes trimmed and lower-cased. 400 when the tenant does not
 * exist (the body names it, not the URL), 409 when the email is already registered.
 */
export async function createTenantUser(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  input: TenantUserCreate,
): Promise<TenantUser> {
  const answers = {
    [UNIQUE_VIOLATION]: () => alreadyRegistered(input.email),
    [FOREIGN_KEY_VIOLATION]: () => badRequest(`Tenant ${input.tenantId} does not exist.`),
  };
  return translateViolations(answers, () =>
    db.transaction().execute(async (trx) => {
      const tenant = await trx
        .selectFrom('tenants')
        .select('id')
        .where('id', '=', input.tenantId)
        .executeTakeFirst();
      if (!tenant) {
        throw badRequest(`Tenant ${input.tenantId} does not exist.`, {
          errors: [{ path: 'tenantId', message: `Tenant ${input.tenantId} does not exist.` }],
        });
      }
      // Rows written by hand may hold capitals: sign-in matches lower(email), so must this.
      const registered = await trx
        .selectFrom('tenant_users')
        .select('id')
        .where(sql<string>`lower(email)`, '=', input.email)
        .executeTakeFirst();
      if (registered) throw alreadyRegistered(input.email);
      const { id } = await trx
        .insertInto('tenant_users')
        .values({
          email: input.email,
          tenant_id: input.tenantId,
          created_by: actor.email,
          updated_by: actor.email,
          updated_at: sql<Date>`now()`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const created = await findTenantUser(trx, id);
      if (!created) throw new Error(`Tenant user ${id} vanished inside its own transaction`);
      await recordEvent(trx, {
        eventName: 'TenantUserCreated',
        tenantId: created.tenantId,
        metadata: {
          actor: actor.email,
          action: 'create',
          tenantUserId: created.id,
          email: created.email,
          target: { type: 'TenantUser', id: created.id, name: created.email },
          tenantId: created.tenantId,
          companyName: created.tenantCompanyName,
          after: created,
        },
      });
      return created;
    }),
  );
}

/** DELETE api/tenantusers/{id}: 404 when unknown. */
export async function deleteTenantUser(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Read as the API shows it (with the company name) before it goes; locked meanwhile.
    const locked = await trx
      .selectFrom('tenant_users')
      .select('id')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    const before = locked && (await findTenantUser(trx, id));
    if (!before) throw notFound(`Tenant user ${id} not found.`);
    await trx.deleteFrom('tenant_users').where('id', '=', id).execute();
    await recordEvent(trx, {
      eventName: 'TenantUserDeleted',
      tenantId: before.tenantId,
      metadata: {
        actor: actor.email,
        action: 'delete',
        tenantUserId: id,
        email: before.email,
        target: { type: 'TenantUser', id, name: before.email },
        tenantId: before.tenantId,
        before,
      },
    });
  });
}
