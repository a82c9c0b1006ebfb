import {
  entityDisplayName,
  type EntityUser,
  type EntityUserListQuery,
  type EntityUserMetadata,
  type EntityUserPage,
} from '@console/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { namesOf, readPortalPage, stringEntries } from '../entities/queries.ts';

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
  return readPortalPage(db, 'entity_users', tenantId, query, async (trx, page, direction) => {
    const rows = await trx
      .selectFrom(page)
      .innerJoin('entity_users as u', 'u.party_user_id', 'page.key')
      .innerJoin('entities as e', 'e.party_entity_id', 'u.party_entity_id')
      .select([
        'u.party_user_id',
        'u.party_entity_id',
        'u.tenant_id',
        'u.type',
        'u.state',
        'u.email',
        'u.metadata',
        'u.keys',
        'e.names',
      ])
      .orderBy('u.party_user_id', direction)
      .execute();
    return rows.map((row): EntityUser => ({
      partyUserId: row.party_user_id,
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
    }));
  });
}
