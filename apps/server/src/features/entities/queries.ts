import {
  entityDisplayName,
  type Entity,
  type EntityListQuery,
  type EntityNames,
  type EntityPage,
} from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import { fromOperator, readPage, walkDirection } from '../../db/paging.ts';
import type { Database, ListCountsTable } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';

/** Only the string values of a JSON object (rows written by the platform may hold anything). */
export function stringEntries(value: unknown): [string, string][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).filter((entry): entry is [string, string] => {
    return typeof entry[1] === 'string';
  });
}

/**
 * Rows of an entity list, of one tenant or of all: exact, read from list_counts, which triggers
 * keep in every writing transaction (migration 8), so no list is counted row by row. The only
 * filter these lists offer is the tenant. 404 when the tenant does not exist.
 */
export async function countListRows(
  trx: Kysely<Database>,
  list: ListCountsTable['list'],
  tenantId: number | undefined,
): Promise<number> {
  if (tenantId === undefined) {
    const { total } = await trx
      .selectFrom('list_counts')
      .select(sql<number>`coalesce(sum(row_count), 0)::bigint`.as('total'))
      .where('list', '=', list)
      .executeTakeFirstOrThrow();
    return total;
  }
  const tenant = await trx
    .selectFrom('tenants')
    .leftJoin('list_counts', (join) =>
      join.onRef('list_counts.tenant_id', '=', 'tenants.id').on('list_counts.list', '=', list),
    )
    .select('list_counts.row_count')
    .where('tenants.id', '=', tenantId)
    .executeTakeFirst();
  if (!tenant) throw notFound(`Tenant ${tenantId} not found.`);
  return tenant.row_count ?? 0;
}

/** `names` as the API shows it: `{names: {...}}` with only string values. */
export function namesOf(stored: unknown): EntityNames {
  const names = (stored as { names?: unknown } | null)?.names;
  return { names: Object.fromEntries(stringEntries(names)) };
}

/**
 * GET api/Entity: one page of entities by partyEntityId, of `tenantId` (already checked against
 * the caller, see http/tenant-scope.ts) or of every tenant.
 */
export async function listEntities(
  db: Kysely<Database>,
  tenantId: number | undefined,
  query: EntityListQuery,
): Promise<EntityPage> {
  const descending = query.sort === '-partyEntityId';
  return readPage(db, {
    offset: query.offset,
    limit: query.limit,
    count: (trx) => countListRows(trx, 'entities', tenantId),
    anchors: { list: 'entities', tenantId, descending },
    async read(trx, plan) {
      const direction = walkDirection(descending, plan);
      let ids = trx.selectFrom('entities').select('party_entity_id');
      if (tenantId !== undefined) ids = ids.where('tenant_id', '=', tenantId);
      if (plan.from !== undefined)
        ids = ids.where('party_entity_id', fromOperator(direction), plan.from);
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
