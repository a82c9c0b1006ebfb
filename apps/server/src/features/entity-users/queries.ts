import type { EntityUser, EntityUserListQuery, EntityUserPage } from '@console/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { JsonText } from '../../http/json-text.ts';
import { portalPageStatements, readPortalPage } from '../entities/queries.ts';

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
