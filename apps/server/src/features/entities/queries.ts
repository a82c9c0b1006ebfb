import {
  LIST_LIMIT_MAX,
  type Entity,
  type ExportFormat,
  type EntityListQuery,
  type EntityPage,
  type Page,
} from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import { LIST_KEYS, pageAnchorsOf, type ListState } from '../../db/page-anchors.ts';
import { preparedStatement } from '../../db/prepared-statements.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { ListExport } from '../../http/export.ts';
import { jsonText, type JsonText } from '../../http/json-text.ts';

type PortalList = keyof typeof LIST_KEYS;

/**
 * How a portal list writes one row of its page: `row`, a SQL expression over the list's table
 * (named `alias`) and the tables `joins` brings, is the JSON text of the row as the API answers it.
 */
interface PageRows {
  alias: string;
  row: string;
  joins: string;
}

/** What a page statement answers: the list's state and the page as the API's JSON text. */
interface PageStatementRow extends ListState {
  anchored: boolean;
  body: string;
}

/**
 * One page of a portal list as one statement, in one snapshot without a transaction: the list's
 * state, the plan of the walk (planPage's rule: from the nearer end), the walk of the page's keys
 * along the key's index alone, and the rows of those keys only: the JSON text each row keeps
 * (migration 16), put together by PostgreSQL into the API's answer `{data, totalCount, offset,
 * limit}`, which the server sends as it is.
 * The walked keys are consecutive entries of the key's index, so the page's rows are exactly the
 * list's rows from the first to the last of them, in the same snapshot: they are read by one
 * range scan of that index rather than by looking each key up (one descent of the index instead
 * of a hundred: about a third of the statement's time).
 * A deep walk starts at the page anchor the caller found ($4-$7), but only in a snapshot that
 * shows the anchor's generation and total (db/page-anchors.ts); otherwise it skips from the
 * list's end, still exact. Of one tenant ($8), the statement answers no row at all when the
 * tenant does not exist.
 *
 * The walk's direction and start are known only once the state is read, so the walk is written
 * four times (ascending or not, from an anchor or not), each taken only when the plan says so:
 * PostgreSQL runs exactly one and skips the others unopened. Sent as a named prepared statement
 * (db/prepared-statements.ts): planning it took about as long as running it.
 */
function portalPageStatement(list: PortalList, rows: PageRows, ofTenant: boolean): string {
  const key = LIST_KEYS[list];
  const state = ofTenant
    ? `select coalesce(c.row_count, 0) as total, coalesce(c.generation, 0) as generation
       from tenants t left join list_counts c on c.list = '${list}' and c.tenant_id = t.id
       where t.id = $8`
    : `select coalesce(sum(row_count), 0)::bigint as total,
         coalesce(sum(generation), 0)::bigint as generation
       from list_counts where list = '${list}'`;
  // A tenant's page rows are a range of the tenant's index (tenant_id, key), which only a row
  // comparison names: with the key alone, PostgreSQL may take the range from the key's index,
  // which holds every tenant's keys between the page's first and last.
  const rangeColumns = ofTenant ? `tenant_id, ${key}` : key;
  const bound = (end: 'min' | 'max') => `(${ofTenant ? '$8, ' : ''}(select ${end}(key) from keys))`;
  const walk = (direction: 'asc' | 'desc', fromAnchor: boolean) => {
    const taken = `${direction === 'asc' ? 'not ' : ''}walk_descending and from_key is ${fromAnchor ? 'not ' : ''}null`;
    const conditions = [
      `(select ${taken} from plan)`,
      ...(ofTenant ? ['tenant_id = $8'] : []),
      ...(fromAnchor
        ? [`${key} ${direction === 'asc' ? '>=' : '<='} (select from_key from plan)`]
        : []),
    ];
    return `(select ${key} as key from ${list} where ${conditions.join(' and ')}
      order by ${key} ${direction} offset (select skip from plan) limit (select rows from plan))`;
  };
  return `with request as (
  select $1::bigint as page_offset, $2::bigint as page_limit, $3::boolean as descending,
    $4::bigint as anchor_generation, $5::bigint as anchor_total, $6::text as anchor_key,
    $7::bigint as anchor_skip
),
state as (${state}),
plan as (
  select total, generation, rows, anchored, descending <> reversed as walk_descending,
    case when anchored then anchor_key end as from_key,
    -- A page past the end takes no row; its offset must still not be negative.
    case when anchored then anchor_skip
      when reversed then greatest(total - page_offset - rows, 0)
      else page_offset end as skip
  from request, state,
    lateral (select greatest(least(page_limit, total - page_offset), 0) as rows) as size,
    lateral (select total - page_offset - rows < page_offset as reversed) as ends,
    lateral (select coalesce(generation = anchor_generation and total = anchor_total, false)
      as anchored) as anchor
),
keys as (
  ${walk('asc', false)}
  union all
  ${walk('asc', true)}
  union all
  ${walk('desc', false)}
  union all
  ${walk('desc', true)}
  -- The planner cannot know a limit computed by the statement and would expect a tenth of the
  -- list, and join it by scanning the whole table: this tells it how few keys come at most.
  limit ${LIST_LIMIT_MAX}
),
-- The page's rows, in the same snapshot exactly the rows from its first key to its last. The limit
-- takes nothing away (a page has at most as many rows): it tells the planner how few come, as above.
page_rows as (
  select * from ${list}
  where (${rangeColumns}) >= ${bound('min')} and (${rangeColumns}) <= ${bound('max')}
  order by ${rangeColumns}
  limit ${LIST_LIMIT_MAX}
)
select plan.total, plan.generation, plan.anchored,
  '{"data":[' || coalesce((
    select string_agg(page.row, ',' order by case when descending then page.key end desc, page.key)
    from (
      select ${rows.alias}.${key} as key, ${rows.row} as row
      from page_rows as ${rows.alias} ${rows.joins}
    ) as page
  ), '') || '],"totalCount":' || plan.total || ',"offset":' || page_offset
  || ',"limit":' || page_limit || '}' as body
from plan, request`;
}

/** The statements reading a page of `list`: of every tenant, and of one tenant ($8). */
export function portalPageStatements(list: PortalList, rows: PageRows) {
  return {
    list,
    all: preparedStatement(`${list}_page`, portalPageStatement(list, rows, false)),
    ofTenant: preparedStatement(`${list}_tenant_page`, portalPageStatement(list, rows, true)),
  };
}

/**
 * One page of a portal list in key order (or `descending`), of `tenantId` (already checked
 * against the caller, see http/tenant-scope.ts) or of every tenant, by its statement: one round
 * trip. 404 when the tenant does not exist.
 */
export async function readPortalPage<Row>(
  db: Kysely<Database>,
  statements: ReturnType<typeof portalPageStatements>,
  tenantId: number | undefined,
  query: { offset: number; limit: number; descending: boolean },
): Promise<JsonText<Page<Row>>> {
  const { offset, limit, descending } = query;
  const { list } = statements;
  const anchors = pageAnchorsOf(db);
  const start = anchors.start({ list, tenantId }, offset, limit, descending);
  const parameters = [
    offset,
    limit,
    descending,
    start?.generation ?? null,
    start?.total ?? null,
    start?.key ?? null,
    start?.skip ?? null,
  ];
  const statement =
    tenantId === undefined
      ? statements.all(parameters)
      : statements.ofTenant([...parameters, tenantId]);
  const { rows } = await db.executeQuery<PageStatementRow>(statement);
  const first = rows[0];
  if (!first) throw notFound(`Tenant ${tenantId} not found.`);
  const { total, generation, anchored } = first;
  anchors.pageRead({ list, tenantId }, { total, generation }, offset, limit, anchored);
  return jsonText(first.body);
}

/** An entity's list row (migration 16), after its tenant's name, which a renamed tenant changes. */
const ENTITY_PAGE = portalPageStatements('entities', {
  alias: 'e',
  row: 't.entity_row_head || e.list_row_rest',
  joins: 'join tenants t on t.id = e.tenant_id',
});

/** GET api/Entity: one page of entities by partyEntityId. */
export async function listEntities(
  db: Kysely<Database>,
  tenantId: number | undefined,
  query: EntityListQuery,
): Promise<JsonText<EntityPage>> {
  const { offset, limit } = query;
  const descending = query.sort === '-partyEntityId';
  return readPortalPage<Entity>(db, ENTITY_PAGE, tenantId, { offset, limit, descending });
}

/** 404 for a tenant that does not exist, as the lists answer (their statement finds no row). */
export async function requireTenant(db: Kysely<Database>, tenantId: number | undefined) {
  if (tenantId === undefined) return;
  const tenant = await db
    .selectFrom('tenants')
    .select('id')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  if (!tenant) throw notFound(`Tenant ${tenantId} not found.`);
}

/** An entity's row as the export reads it: the list's values, names kept as JSON text. */
function entityExportRows(db: Kysely<Database>, tenantId: number | undefined, descending: boolean) {
  return db
    .selectFrom('entities as e')
    .innerJoin('tenants as t', 't.id', 'e.tenant_id')
    .select([
      'e.party_entity_id',
      'e.tenant_id',
      't.company_name',
      // The list's own rules (migration 16): display name, and only the names that are text.
      sql<string>`console_entity_display_name(e.names, e.party_entity_id)`.as('display_name'),
      'e.country',
      sql<string>`console_text_values(e.names -> 'names')::text`.as('names'),
    ])
    .$if(tenantId !== undefined, (query) => query.where('e.tenant_id', '=', tenantId ?? 0))
    .orderBy('e.party_entity_id', descending ? 'desc' : 'asc');
}

/**
 * GET api/Entity/export: the entities of `tenantId` (already checked against the caller, see
 * http/tenant-scope.ts) or of every tenant, in the list's order. 404 when the tenant does not
 * exist.
 */
export async function entitiesExport(
  db: Kysely<Database>,
  tenantId: number | undefined,
  query: { sort: EntityListQuery['sort']; format: ExportFormat },
): Promise<ListExport<EntityExportRow>> {
  await requireTenant(db, tenantId);
  return {
    name: 'entities',
    format: query.format,
    db,
    query: entityExportRows(db, tenantId, query.sort === '-partyEntityId'),
    columns: [
      { header: 'Party Entity ID', value: (row) => row.party_entity_id },
      { header: 'Entity Name', value: (row) => row.display_name },
      { header: 'Tenant ID', value: (row) => row.tenant_id },
      { header: 'Tenant', value: (row) => row.company_name },
      { header: 'Country', value: (row) => row.country },
      { header: 'Names', value: (row) => row.names },
    ],
  };
}

type EntityExportRow = Awaited<
  ReturnType<ReturnType<typeof entityExportRows>['executeTakeFirstOrThrow']>
>;
