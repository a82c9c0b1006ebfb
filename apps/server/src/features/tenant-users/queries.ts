import type { ExportFormat, TenantUser } from '@console/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';

function selectTenantUsers(db: Kysely<Database>) {
  return db
    .selectFrom('tenant_users as u')
    .innerJoin('tenants as t', 't.id', 'u.tenant_id')
    .select(['u.id', 'u.email', 'u.tenant_id', 't.company_name']);
}

type TenantUserRow = Awaited<
  ReturnType<ReturnType<typeof selectTenantUsers>['executeTakeFirstOrThrow']>
>;

function toTenantUser(row: TenantUserRow): TenantUser {
  return {
    id: row.id,
    email: row.email,
    tenantId: row.tenant_id,
    tenantCompanyName: row.company_name,
  };
}

/** GET api/tenantusers: every tenant user with its tenant's company name, by id. */
export async function listTenantUsers(db: Kysely<Database>): Promise<TenantUser[]> {
  const rows = await selectTenantUsers(db).orderBy('u.id').execute();
  return rows.map(toTenantUser);
}

/** GET api/tenantusers/export: every tenant user, in the list's order, with the list's fields. */
export function tenantUsersExport(
  db: Kysely<Database>,
  format: ExportFormat,
): ListExport<TenantUserRow> {
  return {
    name: 'tenant-users',
    format,
    db,
    query: selectTenantUsers(db).orderBy('u.id'),
    columns: [
      { header: 'ID', value: (row) => row.id },
      { header: 'Email', value: (row) => row.email },
      { header: 'Tenant ID', value: (row) => row.tenant_id },
      { header: 'Tenant', value: (row) => row.company_name },
    ],
  };
}

/** One tenant user as the API shows it, or undefined. */
export async function findTenantUser(
  db: Kysely<Database>,
  id: number,
): Promise<TenantUser | undefined> {
  const row = await selectTenantUsers(db).where('u.id', '=', id).executeTakeFirst();
  return row && toTenantUser(row);
}
