import {
  entityDisplayName,
  type EntityUser,
  type EntityUserListQuery,
  type EntityUserMetadata,
  type EntityUserPage,
} from '@console/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import {
  namesOf,
  portalPageStatements,
  readPortalPage,
  stringEntries,
} from '../entities/queries.ts';

const METADATA_FIELDS = ['preferredName', 'givenName', 'familyName'] as const;

/** The spec's three names (spec 3), when they are text. */
function metadataOf(stored: unknown): EntityUserMetadata {
  const entries = new Map(stringEntries(stored));
  const metadata: EntityUserMetadata = {};
  for (const field of METADATA_FIELDS) {
    const value = entries.get(field);
    if (value !== undefined) metadata[field] = value;
  }
  return metadata;
}

/** Key name to value; a value the platform stored as something else than text is shown as JSON. */
function keysOf(stored: unknown): Record<string, string> {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
  return Object.fromEntries(
    Object.entries(stored).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

interface EntityUserRow {
  party_entity_id: string;
  tenant_id: number;
  type: number;
  state: string;
  email: string | null;
  metadata: unknown;
  keys: unknown;
  names: unknown;
}

const ENTITY_USER_PAGE = portalPageStatements('entity_users', {
  columns: 'u.party_entity_id, u.tenant_id, u.type, u.state, u.email, u.metadata, u.keys, e.names',
  joins:
    'join entity_users u on u.party_user_id = keys.key join entities e on e.party_entity_id = u.party_entity_id',
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
): Promise<EntityUserPage> {
  const { offset, limit } = query;
  const descending = query.sort === '-partyUserId';
  const page = await readPortalPage<EntityUserRow>(db, ENTITY_USER_PAGE, tenantId, {
    offset,
    limit,
    descending,
  });
  return {
    data: page.rows.map((row): EntityUser => ({
      partyUserId: row.key,
      partyEntityId: row.party_entity_id,
      entityName: entityDisplayName({
        partyEntityId: row.party_entity_id,
        names: namesOf(row.names),
      }),
      tenantId: row.tenant_id,
      type: row.type,
      state: row.state,
      email: row.email,
      metadata: metadataOf(row.metadata),
      keys: keysOf(row.keys),
    })),
    totalCount: page.totalCount,
    offset,
    limit,
  };
}
