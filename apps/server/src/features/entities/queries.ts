import {
  entityDisplayName,
  type Entity,
  type EntityListQuery,
  type EntityNames,
  type EntityPage,
} from '@console/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { readPage, stringEntries, walkDirection } from './paging.ts';

/** `names` as the API shows it: `{names: {...}}` with only string values. */
export function namesOf(stored: unknown): EntityNames {
  const names = (stored as { names?: unknown } | null)?.names;
  return { names: Object.fromEntries(stringEntries(names)) };
}

/**
 * GET api/Entity: one page of entities by partyEntityId, of `tenantId` (already checked against
 * the caller, see scope.ts) or of every tenant.
 */
export async function listEntities(
  db: Kysely<Database>,
  tenantId: number | undefined,
  query: EntityListQuery,
): Promise<EntityPage> {
  const descending = query.sort === '-partyEntityId';
  return readPage(db, {
    tenantId,
    offset: query.offset,
    limit: query.limit,
    async count(trx) {
      let count = trx.selectFrom('entities').select((eb) => eb.fn.countAll<number>().as('count'));
      if (tenantId !== undefined) count = count.where('tenant_id', '=', tenantId);
      return Number((await count.executeTakeFirstOrThrow()).count);
    },
    async read(trx, plan) {
      const direction = walkDirection(descending, plan);
      let ids = trx.selectFrom('entities').select('party_entity_id');
      if (tenantId !== undefined) ids = ids.where('tenant_id', '=', tenantId);
      const page = ids
        .orderBy('party_entity_id', direction)
        .offset(plan.offset)
        .limit(plan.limit)
        .as('page');
      const rows = await trx
        .selectFrom(page)
        .innerJoin('entities as e', 'e.party_entity_id', 'page.party_entity_id')
        .innerJoin('tenants as t', 't.id', 'e.tenant_id')
        .select(['e.party_entity_id', 'e.tenant_id', 'e.names', 'e.country', 't.company_name'])
        .orderBy('e.party_entity_id', direction)
        .execute();
      return rows.map((row): Entity => {
        const names = namesOf(row.names);
        return {
          partyEntityId: row.party_entity_id,
          tenantId: row.tenant_id,
          tenantName: row.company_name,
          names,
          country: row.country,
          displayName: entityDisplayName({ partyEntityId: row.party_entity_id, names }),
        };
      });
    },
  });
}
