import { generateNamespace, type Tenant, type TenantWrite } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { changedFields, recordEvent } from '../../outbox/index.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { FOREIGN_KEY_VIOLATION, translateViolations, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { findTenant } from './queries.ts';

/**
 * Every write of tenants. Each runs in one transaction and knows its actor, and records its
 * domain event in that transaction (outbox/outbox.ts): the event exists exactly when the write
 * does. Each event belongs to its tenant (tenantId), so the tenant's portal users see it. Inputs come parsed by tenantWriteSchema:
 * company name trimmed and present, namespaces trimmed and each given once.
 */

const NAMESPACE_RACE_MESSAGE =
  'A namespace of this tenant was just taken by another tenant. Please try again.';

/**
 * POST api/tenants: 400 when the country does not exist, 409 when a namespace belongs to another
 * tenant. Without namespaces, one is generated from the company name (spec 5).
 */
export async function createTenant(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  input: TenantWrite,
): Promise<Tenant> {
  return translateRaces(() =>
    db.transaction().execute(async (trx) => {
      await assertCountryExists(trx, input.domicileCountryId);
      const generated = input.namespaces.length === 0;
      const namespaces = generated
        ? [generateNamespace(input.companyName, new Date())]
        : input.namespaces;
      await assertNamespacesFree(trx, namespaces, { generated });
      const { id } = await trx
        .insertInto('tenants')
        .values({
          company_name: input.companyName,
          domicile_country_id: input.domicileCountryId,
          created_by: actor.email,
          updated_by: actor.email,
          updated_at: sql<Date>`now()`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('tenant_namespaces')
        .values(namespaces.map((namespace) => ({ namespace, tenant_id: id })))
        .execute();
      const created = await tenantOrThrow(trx, id);
      await recordEvent(trx, {
        eventName: 'TenantCreated',
        tenantId: id,
        metadata: {
          actor: actor.email,
          action: 'create',
          tenantId: id,
          target: { type: 'Tenant', id, name: created.companyName },
          after: created,
        },
      });
      return created;
    }),
  );
}

/**
 * PUT api/tenants/{id}: replaces the company name, the country and the namespaces; 404 when
 * unknown. Without namespaces the tenant keeps its own (a namespace may be in use by other
 * systems, so it is never replaced by a generated one behind the caller's back); a tenant that has
 * none gets one generated, as at creation.
 */
export async function updateTenant(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: number,
  input: TenantWrite,
): Promise<Tenant> {
  return translateRaces(() =>
    db.transaction().execute(async (trx) => {
      // Locked: concurrent writes of one tenant queue here, so its namespaces read below stay its own.
      await lockTenant(trx, id);
      const before = await tenantOrThrow(trx, id);
      await assertCountryExists(trx, input.domicileCountryId);
      const current = (
        await trx
          .selectFrom('tenant_namespaces')
          .select('namespace')
          .where('tenant_id', '=', id)
          .execute()
      ).map((row) => row.namespace);
      const generated = input.namespaces.length === 0 && current.length === 0;
      const namespaces =
        input.namespaces.length > 0
          ? input.namespaces
          : generated
            ? [generateNamespace(input.companyName, new Date())]
            : current;
      await assertNamespacesFree(trx, namespaces, { generated, exceptTenantId: id });

      const removed = current.filter((namespace) => !namespaces.includes(namespace));
      const added = namespaces.filter((namespace) => !current.includes(namespace));
      if (removed.length > 0) {
        await trx
          .deleteFrom('tenant_namespaces')
          .where('tenant_id', '=', id)
          .where('namespace', 'in', removed)
          .execute();
      }
      if (added.length > 0) {
        await trx
          .insertInto('tenant_namespaces')
          .values(added.map((namespace) => ({ namespace, tenant_id: id })))
          .execute();
      }
      await trx
        .updateTable('tenants')
        .set({
          company_name: input.companyName,
          domicile_country_id: input.domicileCountryId,
          updated_by: actor.email,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .execute();
      const after = await tenantOrThrow(trx, id);
      await recordEvent(trx, {
        eventName: 'TenantUpdated',
        tenantId: id,
        metadata: {
          actor: actor.email,
          action: 'update',
          tenantId: id,
          target: { type: 'Tenant', id, name: after.companyName },
          changes: changedFields(before, after),
          before,
          after,
        },
      });
      return after;
    }),
  );
}

/**
 * DELETE api/tenants/{id}: 404 when unknown; 409 while tenant users, entities or entity users
 * belong to it (they would lose their tenant). Its namespaces go with it. Its events stay: they
 * are history.
 */
export async function deleteTenant(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: number,
): Promise<void> {
  const stillReferred = () =>
    conflict(`Cannot delete tenant ${id} because rows of other tables still refer to it.`);
  await translateViolations({ [FOREIGN_KEY_VIOLATION]: stillReferred }, () =>
    db.transaction().execute(async (trx) => {
      // FOR UPDATE conflicts with the key-share lock an insert of a tenant user, entity or entity
      // user takes on its tenant: none can arrive between the counts and the delete.
      const tenant = await lockTenant(trx, id);
      const counts = await dependentCounts(trx, id);
      const parts = [
        counted(counts.tenantUsers, 'tenant user'),
        counted(counts.entities, 'entity', 'entities'),
        counted(counts.entityUsers, 'entity user'),
      ].filter((part): part is string => part !== null);
      if (parts.length > 0) {
        throw conflict(
          `Cannot delete tenant ${tenant.company_name} because it still has ${joinWords(parts)}. Remove them first.`,
          counts,
        );
      }
      const before = await tenantOrThrow(trx, id);
      await trx.deleteFrom('tenants').where('id', '=', id).execute();
      await recordEvent(trx, {
        eventName: 'TenantDeleted',
        tenantId: id,
        metadata: {
          actor: actor.email,
          action: 'delete',
          tenantId: id,
          target: { type: 'Tenant', id, name: before.companyName },
          before,
        },
      });
    }),
  );
}

async function lockTenant(trx: Kysely<Database>, id: number) {
  const tenant = await trx
    .selectFrom('tenants')
    .select(['id', 'company_name'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!tenant) throw notFound(`Tenant ${id} not found.`);
  return tenant;
}

async function tenantOrThrow(trx: Kysely<Database>, id: number): Promise<Tenant> {
  const tenant = await findTenant(trx, id);
  if (!tenant) throw new Error(`Tenant ${id} vanished inside its own transaction`);
  return tenant;
}

/** 400 for an unknown domicile country: the body names it, the URL does not. */
async function assertCountryExists(trx: Kysely<Database>, countryId: number): Promise<void> {
  const country = await trx
    .selectFrom('countries')
    .select('id')
    .where('id', '=', countryId)
    .executeTakeFirst();
  if (!country) throw unknownCountry(countryId);
}

const unknownCountry = (countryId: number) =>
  badRequest(`Country ${countryId} does not exist.`, {
    errors: [{ path: 'domicileCountryId', message: `Country ${countryId} does not exist.` }],
  });

/** 409 naming every namespace of the list that another tenant has (namespaces are global). */
async function assertNamespacesFree(
  trx: Kysely<Database>,
  namespaces: readonly string[],
  { generated, exceptTenantId }: { generated: boolean; exceptTenantId?: number },
): Promise<void> {
  if (namespaces.length === 0) return;
  let query = trx
    .selectFrom('tenant_namespaces as n')
    .innerJoin('tenants as t', 't.id', 'n.tenant_id')
    .select(['n.namespace', 't.id as tenantId', 't.company_name as companyName'])
    .where('n.namespace', 'in', [...namespaces]);
  if (exceptTenantId !== undefined) query = query.where('n.tenant_id', '<>', exceptTenantId);
  const taken = await query.orderBy('n.namespace').execute();
  const [first] = taken;
  if (!first) return;
  const message = generated
    ? `The namespace ${first.namespace}, generated from the company name, is already used by tenant ${first.companyName}. Please enter a namespace.`
    : taken.length === 1
      ? `The namespace ${first.namespace} is already used by tenant ${first.companyName}.`
      : `The namespaces ${taken.map((row) => row.namespace).join(', ')} are already used by other tenants.`;
  throw conflict(message, { namespaces: taken });
}

async function dependentCounts(trx: Kysely<Database>, tenantId: number) {
  const count = (table: 'tenant_users' | 'entities' | 'entity_users') =>
    trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  return {
    tenantUsers: await count('tenant_users'),
    entities: await count('entities'),
    entityUsers: await count('entity_users'),
  };
}

function counted(count: number, singular: string, plural = `${singular}s`): string | null {
  if (count === 0) return null;
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}

function joinWords(parts: readonly string[]): string {
  return parts.length <= 1
    ? (parts[0] ?? '')
    : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** A race lost to a concurrent write between our checks and our write, in the caller's words. */
function translateRaces<T>(write: () => Promise<T>): Promise<T> {
  return translateViolations(
    {
      [UNIQUE_VIOLATION]: () => conflict(NAMESPACE_RACE_MESSAGE),
      [FOREIGN_KEY_VIOLATION]: () =>
        badRequest('The domicile country was just deleted. Please choose another country.'),
    },
    write,
  );
}
