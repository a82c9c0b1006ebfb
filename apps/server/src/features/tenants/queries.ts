import type { ExportFormat, Tenant } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';

/**
 * Tenants as the API shows them: the domicile country's name and the namespaces (sorted by code
 * point, the same on every PostgreSQL whatever its collation) come along.
 */
function selectTenants(db: Kysely<Database>) {
  return db
    .selectFrom('tenants as t')
    .innerJoin('countries as c', 'c.id', 't.domicile_country_id')
    .select((eb) => [
      't.id',
      't.company_name',
      't.domicile_country_id',
      'c.name as country_name',
      eb
        .selectFrom('tenant_namespaces as n')
        .select(sql<string[]>`array_agg(n.namespace order by n.namespace collate "C")`.as('list'))
        .whereRef('n.tenant_id', '=', 't.id')
        .as('namespaces'),
    ]);
}

type TenantRow = Awaited<ReturnType<ReturnType<typeof selectTenants>['executeTakeFirstOrThrow']>>;

function toTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    companyName: row.company_name,
    domicileCountryId: row.domicile_country_id,
    domicileCountryName: row.country_name,
    namespaces: row.namespaces ?? [],
  };
}

/** GET api/tenants: every tenant, by id. */
export async function listTenants(db: Kysely<Database>): Promise<Tenant[]> {
  const rows = await selectTenants(db).orderBy('t.id').execute();
  return rows.map(toTenant);
}

/** GET api/tenants/export: every tenant, in the list's order, with the list's fields. */
export function tenantsExport(db: Kysely<Database>, format: ExportFormat): ListExport<TenantRow> {
  return {
    name: 'tenants',
    format,
    db,
    query: selectTenants(db).orderBy('t.id'),
    columns: [
      { header: 'ID', value: (row) => row.id },
      { header: 'Company Name', value: (row) => row.company_name },
      { header: 'Domicile Country ID', value: (row) => row.domicile_country_id },
      { header: 'Domicile Country', value: (row) => row.country_name },
      { header: 'Namespaces', value: (row) => (row.namespaces ?? []).join(', ') },
    ],
  };
}

/** One tenant as the API shows it, or undefined. */
export async function findTenant(db: Kysely<Database>, id: number): Promise<Tenant | undefined> {
  const row = await selectTenants(db).where('t.id', '=', id).executeTakeFirst();
  return row && toTenant(row);
}
