import {
  entityUserTypeLabel,
  type EntityUser,
  type EntityUserListQuery,
  type EntityUserPage,
  type ExportFormat,
} from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';
import type { JsonText } from '../../http/json-text.ts';
import { portalPageStatements, readPortalPage, requireTenant } from '../entities/queries.ts';

/** An entity user's list row (migration 16), after the name of its entity, which may change. */
const ENTITY_USER_PAGE = portalPageStatements('entity_users', {
  alias: 'u',
  row: 'e.user_row_head || u.list_row_rest',
  joins: 'join entities e on e.party_entity_id = u.party_entity_id',
});

/**
 * GET api/EntityUser: one page of entity users by partyUserId, with their keys and their entity's
 * name, of `tenantId` (already checked against the caller, see http/tenant-scope.ts) or of every
 * tenant. Entity users carry their tenant (denormalised), so a tenant's page needs no join.
 */
export async function listEntityUsers(
  db: Kysely<Database>,
  tenantId: number | undefined,
  query: EntityUserListQuery,
): Promise<JsonText<EntityUserPage>> {
  const { offset, limit } = query;
  const descending = query.sort === '-partyUserId';
  return readPortalPage<EntityUser>(db, ENTITY_USER_PAGE, tenantId, { offset, limit, descending });
}

/** An entity user's row as the export reads it: the list's values (migration 16's rules). */
function entityUserExportRows(
  db: Kysely<Database>,
  tenantId: number | undefined,
  descending: boolean,
) {
  const metadata = (name: string) =>
    sql<string | null>`console_entity_user_metadata(u.metadata) ->> ${name}`;
  return db
    .selectFrom('entity_users as u')
    .innerJoin('entities as e', 'e.party_entity_id', 'u.party_entity_id')
    .select([
      'u.party_user_id',
      'u.party_entity_id',
      sql<string>`console_entity_display_name(e.names, e.party_entity_id)`.as('entity_name'),
      'u.tenant_id',
      'u.type',
      'u.state',
      'u.email',
      metadata('preferredName').as('preferred_name'),
      metadata('givenName').as('given_name'),
      metadata('familyName').as('family_name'),
      sql<string>`console_entity_user_keys(u.keys)::text`.as('keys'),
    ])
    .$if(tenantId !== undefined, (query) => query.where('u.tenant_id', '=', tenantId ?? 0))
    .orderBy('u.party_user_id', descending ? 'desc' : 'asc');
}

type EntityUserExportRow = Awaited<
  ReturnType<ReturnType<typeof entityUserExportRows>['executeTakeFirstOrThrow']>
>;

/**
 * GET api/EntityUser/export: the entity users of `tenantId` (already checked against the
 * caller) or of every tenant, in the list's order, keys as JSON text. 404 for an unknown tenant.
 */
export async function entityUsersExport(
  db: Kysely<Database>,
  tenantId: number | undefined,
  query: { sort: EntityUserListQuery['sort']; format: ExportFormat },
): Promise<ListExport<EntityUserExportRow>> {
  await requireTenant(db, tenantId);
  return {
    name: 'entity-users',
    format: query.format,
    db,
    query: entityUserExportRows(db, tenantId, query.sort === '-partyUserId'),
    columns: [
      { header: 'Party User ID', value: (row) => row.party_user_id },
      { header: 'Party Entity ID', value: (row) => row.party_entity_id },
      { header: 'Entity Name', value: (row) => row.entity_name },
      { header: 'Tenant ID', value: (row) => row.tenant_id },
      { header: 'Type', value: (row) => entityUserTypeLabel(row.type) },
      { header: 'State', value: (row) => row.state },
      { header: 'Email', value: (row) => row.email },
      { header: 'Preferred Name', value: (row) => row.preferred_name },
      { header: 'Given Name', value: (row) => row.given_name },
      { header: 'Family Name', value: (row) => row.family_name },
      { header: 'Keys', value: (row) => row.keys },
    ],
  };
}
