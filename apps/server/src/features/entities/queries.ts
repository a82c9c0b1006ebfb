import {
  entityDisplayName,
  type Entity,
  type EntityListQuery,
  type EntityNames,
  type EntityPage,
  type Page,
} from '@console/contracts';
import { sql, type Kysely, type OrderByDirection } from 'kysely';
import { readListState, type ListState } from '../../db/page-anchors.ts';
import { fromOperator, readPage, walkDirection, type PagePlan } from '../../db/paging.ts';
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
 * Rows and generation of an entity list, of one tenant or of all: exact, read from list_counts,
 * which triggers keep in every writing transaction (migrations 8 and 10), so no list is counted
 * row by row. The only filter these lists offer is the tenant. 404 when the tenant does not exist.
 */
export async function countListRows(
  trx: Kysely<Database>,
  list: ListCountsTable['list'],
  tenantId: number | undefined,
): Promise<ListState> {
  if (tenantId === undefined) return readListState(trx, { list, tenantId });
  const tenant = await trx
    .selectFrom('tenants')
    .leftJoin('list_counts', (join) =>
      join.onRef('list_counts.tenant_id', '=', 'tenants.id').on('list_counts.list', '=', list),
    )
    .select(['list_counts.row_count', 'list_counts.generation'])
    .where('tenants.id', '=', tenantId)
    .executeTakeFirst();
  if (!tenant) throw notFound(`Tenant ${tenantId} not found.`);
  return { total: tenant.row_count ?? 0, generation: tenant.generation ?? 0 };
}

/** `names` as the API shows it: `{names: {...}}` with only string values. */
export function namesOf(stored: unknown): EntityNames {
  const names = (stored as { names?: unknown } | null)?.names;
  return { names: Object.fromEntries(stringEntries(names)) };
}

/** The lists of the tenant portal: the key each is paged by, and the sort that reverses it. */
const PORTAL_LISTS = {
  entities: { key: 'party_entity_id', descending: '-partyEntityId' },
  entity_users: { key: 'party_user_id', descending: '-partyUserId' },
} as const;
type PortalList = keyof typeof PORTAL_LISTS;

/** The keys of one page (of `tenantId`, or of every tenant): `page.key`, read from the index. */
function pageKeys(
  trx: Kysely<Database>,
  list: PortalList,
  tenantId: number | undefined,
  plan: PagePlan,
  direction: OrderByDirection,
) {
  const { key } = PORTAL_LISTS[list];
  let keys = trx.selectFrom(list).select(sql.ref<string>(key).as('key'));
  if (tenantId !== undefined) keys = keys.where('tenant_id', '=', tenantId);
  // A walk started at a page anchor (db/page-anchors.ts).
  if (plan.from !== undefined) keys = keys.where(sql.ref(key), fromOperator(direction), plan.from);
  return keys.orderBy(sql.ref(key), direction).offset(plan.offset).limit(plan.limit).as('page');
}

/**
 * One page of a portal list in key order, of `tenantId` (already checked against the caller, see
 * http/tenant-scope.ts) or of every tenant: counted from list_counts, the page's keys walked on
 * the key's index alone, then `readRows` joins the rows of those keys only (`page.key`).
 */
export function readPortalPage<Row>(
  db: Kysely<Database>,
  list: PortalList,
  tenantId: number | undefined,
  query: { offset: number; limit: number; sort?: string },
  readRows: (
    trx: Kysely<Database>,
    page: ReturnType<typeof pageKeys>,
    direction: OrderByDirection,
  ) => Promise<Row[]>,
): Promise<Page<Row>> {
  const descending = query.sort === PORTAL_LISTS[list].descending;
  return readPage(db, {
    offset: query.offset,
    limit: query.limit,
    count: (trx) => countListRows(trx, list, tenantId),
    anchors: { list, tenantId, descending },
    read(trx, plan) {
      const direction = walkDirection(descending, plan);
      return readRows(trx, pageKeys(trx, list, tenantId, plan, direction), direction);
    },
  });
}

/** GET api/Entity: one page of entities by partyEntityId. */
export async function listEntities(
  db: Kysely<Database>,
  tenantId: number | undefined,
  query: EntityListQuery,
): Promise<EntityPage> {
  return readPortalPage(db, 'entities', tenantId, query, async (trx, page, direction) => {
    const rows = await trx
      .selectFrom(page)
      .innerJoin('entities as e', 'e.party_entity_id', 'page.key')
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
  });
}
