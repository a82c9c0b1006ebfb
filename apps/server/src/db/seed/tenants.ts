import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { insertMissing, seedStamps } from './common.ts';
import { DEMO_TENANTS, type DemoTenantKey } from './demo-data.ts';

export interface SeedTenant {
  companyName: string;
  domicileCountryId: number;
  namespaces: readonly string[];
  /** Tenant-user e-mails; stored lower-cased. */
  users: readonly string[];
}

export interface EnsuredTenant {
  id: number;
  created: boolean;
  insertedNamespaces: number;
  insertedUsers: number;
}

/**
 * Finds or creates a tenant with its namespaces and users. tenants.id is generated, so a seeded
 * tenant is recognised by one of its namespaces (each belongs to one tenant), else by its company
 * name; only when neither exists is it created. The domicile country must exist.
 */
export async function ensureTenant(
  db: Kysely<Database>,
  tenant: SeedTenant,
  now = new Date(),
): Promise<EnsuredTenant> {
  const existing =
    (
      await db
        .selectFrom('tenant_namespaces')
        .select('tenant_id as id')
        .where('namespace', 'in', [...tenant.namespaces])
        .orderBy('tenant_id')
        .executeTakeFirst()
    )?.id ??
    (
      await db
        .selectFrom('tenants')
        .select('id')
        .where('company_name', '=', tenant.companyName)
        .orderBy('id')
        .executeTakeFirst()
    )?.id;
  const id =
    existing ??
    (
      await db
        .insertInto('tenants')
        .values({
          company_name: tenant.companyName,
          domicile_country_id: tenant.domicileCountryId,
          ...seedStamps(now),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const insertedNamespaces = await insertMissing(
    db,
    'tenant_namespaces',
    tenant.namespaces.map((namespace) => ({ namespace, tenant_id: id })),
  );
  const insertedUsers = await insertMissing(
    db,
    'tenant_users',
    tenant.users.map((email) => ({
      email: email.toLowerCase(),
      tenant_id: id,
      ...seedStamps(now),
    })),
  );
  return { id, created: existing === undefined, insertedNamespaces, insertedUsers };
}

export interface DemoTenantIds {
  ids: Record<DemoTenantKey, number>;
  inserted: number;
  insertedNamespaces: number;
  insertedUsers: number;
}

/** Acme Corporation and Globex Limited with their namespaces and portal users. */
export async function ensureDemoTenants(
  db: Kysely<Database>,
  now = new Date(),
): Promise<DemoTenantIds> {
  const result: DemoTenantIds = {
    ids: { acme: 0, globex: 0 },
    inserted: 0,
    insertedNamespaces: 0,
    insertedUsers: 0,
  };
  for (const tenant of DEMO_TENANTS) {
    const ensured = await ensureTenant(db, tenant, now);
    result.ids[tenant.key] = ensured.id;
    if (ensured.created) result.inserted++;
    result.insertedNamespaces += ensured.insertedNamespaces;
    result.insertedUsers += ensured.insertedUsers;
  }
  return result;
}
