import {
  EVENT_PAGE_SIZE_MAX,
  EXACT_TOTAL_MAX,
  eventStatus,
  type EventFilters,
  type EventItem,
  type EventList,
  type EventListQuery,
  type ExportFormat,
  type ProcessedEvent,
} from '@console/contracts';
import { CompiledQuery, sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { countUpToExactMax, pageNumberTotal, type PageNumberTotal } from '../../db/paging.ts';
import { preparedStatement } from '../../db/prepared-statements.ts';
import type { Database, EventsTable, ProcessedEventsTable } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';
import { jsonText, type JsonText } from '../../http/json-text.ts';
import { toRecordedEvent } from '../../outbox/index.ts';

/** Whose events a caller may list: every tenant's (staff), or one tenant's. */
export type EventScope = { kind: 'all' } | { kind: 'tenant'; tenantId: number };

export function toProcessedEvent(row: Selectable<ProcessedEventsTable>): ProcessedEvent {
  return {
    eventId: row.event_id,
    workerName: row.worker_name,
    hasError: row.has_error,
    errorMessage: row.error_message,
    processedAt: row.processed_at?.toISOString() ?? null,
    attempts: row.attempts,
  };
}

export function toEventItem(
  row: Selectable<EventsTable>,
  processed: readonly Selectable<ProcessedEventsTable>[],
): EventItem {
  return {
    ...toRecordedEvent(row),
    createdAt: row.created_at.toISOString(),
    isProcessed: row.is_processed,
    hasError: row.has_error,
    processedEvents: processed.map(toProcessedEvent),
  };
}

/**
 * GET api/events: one page, counted and read by one statement (one snapshot, one round trip), the
 * page's JSON put together by PostgreSQL and sent as it is (docs/events.md, "How it stays fast").
 * The total is exact up to EXACT_TOTAL_MAX matching events, beyond it the planner's estimate (a
 * second round trip), as the audit log's. Every filter has an index (migrations 4, 7 and 23):
 * creation order overall and per tenant, the unprocessed and errored events overall and per tenant
 * (partial indexes), and event names (below).
 */
export async function listEvents(
  db: Kysely<Database>,
  query: EventListQuery,
  scope: EventScope,
): Promise<JsonText<EventList>> {
  let names: string[] | undefined;
  if (query.eventName !== undefined) {
    names = await eventNamesContaining(db, query.eventName);
    if (names.length === 0)
      return eventListText('[]', { totalCount: 0, totalIsEstimate: false }, query);
  }
  const { rows } = await db.executeQuery<{ counted: number; data: string }>(
    eventPageStatement(db, query, scope, names),
  );
  const { counted, data } = rows[0] ?? { counted: 0, data: '[]' };
  const matching = () =>
    matchingEvents(db, query, operandsOf(scope, names)).select(sql`1`.as('one'));
  return eventListText(data, await pageNumberTotal(db, counted, matching), query);
}

/** The answer of GET api/events around the page's rows (JSON text). */
function eventListText(
  data: string,
  total: PageNumberTotal,
  { page, pageSize }: EventListQuery,
): JsonText<EventList> {
  return jsonText(
    `{"data":${data},"totalCount":${total.totalCount},"totalIsEstimate":${total.totalIsEstimate},"page":${page},"pageSize":${pageSize}}`,
  );
}

/** What decides a page statement's text: which filters apply, and whether it steps from a row. */
interface PageShape {
  tenant: boolean;
  names: boolean;
  stepped: boolean;
  unprocessedOnly: boolean;
  erroredOnly: boolean;
}

/**
 * The parameters of every page statement, always all of them, in this order (unused ones null),
 * so that one text per shape serves every request: building and compiling the statement with
 * Kysely took more CPU than the rest of the request. `param` names them in the text.
 */
const PAGE_PARAMETERS = sql`select $1::bigint as page_offset, $2::bigint as page_size,
  $3::boolean as descending, $4::boolean as towards_start, $5::integer as tenant_id,
  $6::text[] as names, $7::bigint as cursor_id`;
const param = {
  offset: sql<number>`$1`,
  size: sql<number>`$2`,
  descending: sql<boolean>`$3`,
  before: sql<boolean>`$4`,
  tenant: sql<number>`$5`,
  names: sql<string[]>`$6`,
  cursor: sql<number>`$7`,
};

/** Page statement texts by shape, each written once. */
const pageTexts = new Map<string, string>();

/**
 * The page statement of `query` for `scope` (`names`: eventNamesContaining's), with its text and
 * parameters. The shapes without names go as named statements, each planned once per connection;
 * with names the best plan depends on them (a rare one is read by the name index, a common one
 * along creation order), so those are planned at each call.
 */
export function eventPageStatement(
  db: Kysely<Database>,
  query: EventListQuery,
  scope: EventScope,
  names: readonly string[] | undefined,
): CompiledQuery {
  const cursor = query.after ?? query.before;
  const shape: PageShape = {
    tenant: scope.kind === 'tenant',
    names: names !== undefined,
    stepped: cursor !== undefined,
    unprocessedOnly: query.unprocessedOnly,
    erroredOnly: query.erroredOnly,
  };
  const name = `events_page_${Object.entries(shape)
    .flatMap(([part, on]) => (on ? [part] : []))
    .join('_')}`;
  let text = pageTexts.get(name);
  if (text === undefined) {
    text = pageStatementText(db, shape);
    if (!shape.names) preparedStatement(name, text);
    pageTexts.set(name, text);
  }
  return CompiledQuery.raw(text, [
    (query.page - 1) * query.pageSize,
    query.pageSize,
    query.sortOrder === 'desc',
    query.before !== undefined,
    scope.kind === 'tenant' ? scope.tenantId : null,
    names ?? null,
    cursor ?? null,
  ]);
}

/**
 * The page statement of `shape`: the matching events counted up to one past EXACT_TOTAL_MAX, the
 * walk planned (pageWalks), the page's ids walked on the index alone, then only those rows read
 * and written as the API's JSON, with their workers' records.
 */
function pageStatementText(db: Kysely<Database>, shape: PageShape): string {
  const operands: EventOperands = {
    tenant: shape.tenant ? param.tenant : undefined,
    names: shape.names ? param.names : undefined,
  };
  const counted = countUpToExactMax(db, matchingEvents(db, shape, operands).select('id'));
  // A tenant user steps only from its own tenant's events.
  const cursorRow = db
    .selectFrom('events')
    .select(['created_at', 'id'])
    .where('id', '=', param.cursor)
    .$if(shape.tenant, (qb) => qb.where('tenant_id', '=', param.tenant));
  const { offset, size, descending, before } = param;
  const compiled = sql`
    with parameters as (${PAGE_PARAMETERS}),
    ${shape.stepped ? sql`cursor as (${cursorRow}),` : sql``}
    counted as (${counted}),
    plan as (
      select counted, rows, from_cursor, reversed <> ${descending} as walk_descending,
        case when from_cursor then 0
          when reversed then greatest(counted - ${offset} - rows, 0)
          else ${offset} end as skip
      from counted,
        lateral (select ${shape.stepped ? sql`exists (select from cursor)` : sql`false`}
          as from_cursor) as step,
        lateral (select counted <= ${sql.lit(EXACT_TOTAL_MAX)} as exact) as total,
        lateral (select case when exact and not from_cursor
          then greatest(least(${size}, counted - ${offset}), 0) else ${size} end as rows) as size,
        lateral (select case when from_cursor then ${before}
          else exact and counted - ${offset} - rows < ${offset} end as reversed) as ends
    ),
    keys as (${pageWalks(db, shape, operands)})
    select (select counted from plan) as counted,
      '[' || coalesce(string_agg(${eventJson()}::text, ',' order by
        case when ${descending} then e.created_at end desc,
        case when ${descending} then e.id end desc,
        e.created_at, e.id), '') || ']' as data
    from keys join events as e on e.id = keys.id
  `.compile(db);
  // Every value is one of PAGE_PARAMETERS: a value of its own would be fixed in the text.
  if (compiled.parameters.length > 0) throw new Error('A page statement has a value of its own');
  return compiled.sql;
}

/**
 * The ids of the page, by the walk `plan` chose: after (or before) the `cursor` row when it
 * exists, a keyset step; else by the page's number, from the nearer end of an exact total
 * (db/paging.ts, `planPage`'s rule), or from the start. Every walk is in the text, each behind a
 * condition on the plan that PostgreSQL checks once, so only one runs.
 */
function pageWalks(db: Kysely<Database>, shape: PageShape, operands: EventOperands) {
  const walk = (direction: 'asc' | 'desc', fromCursor: boolean) =>
    matchingEvents(db, shape, operands)
      .select('id')
      .where(
        sql<boolean>`(select walk_descending = ${sql.lit(direction === 'desc')}
          and from_cursor = ${sql.lit(fromCursor)} from plan)`,
      )
      .$if(fromCursor, (qb) =>
        qb.where(
          sql<boolean>`(created_at, id) ${sql.raw(direction === 'desc' ? '<' : '>')}
            (select created_at, id from cursor)`,
        ),
      )
      .orderBy('created_at', direction)
      .orderBy('id', direction)
      .offset(sql<number>`(select skip from plan)`)
      .limit(sql<number>`(select rows from plan)`);
  const walks = [walk('desc', false), walk('asc', false)];
  if (shape.stepped) walks.push(walk('desc', true), walk('asc', true));
  // The limit takes nothing away (a page holds at most that many rows): the planner cannot know
  // the statement's own limit and would otherwise expect a tenth of the table.
  return sql`${sql.join(
    walks.map((one) => sql`(${one})`),
    sql` union all `,
  )} limit ${sql.lit(EVENT_PAGE_SIZE_MAX)}`;
}

/** A time as the text toISOString gives, made by PostgreSQL: no Date per row. */
function isoText(column: string) {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** An event of the page (alias `e`) as the API's JSON, its workers' records by worker name. */
function eventJson() {
  return sql`json_build_object(
    'id', e.id, 'eventName', e.event_name, 'tenantId', e.tenant_id, 'entityId', e.entity_id,
    'uniqueId', e.unique_id, 'createdAt', ${isoText('e.created_at')}, 'metadata', e.metadata,
    'isProcessed', e.is_processed, 'hasError', e.has_error,
    'processedEvents', coalesce((
      select json_agg(json_build_object(
        'eventId', p.event_id, 'workerName', p.worker_name, 'hasError', p.has_error,
        'errorMessage', p.error_message, 'processedAt', ${isoText('p.processed_at')},
        'attempts', p.attempts) order by p.worker_name)
      from processed_events as p where p.event_id = e.id), '[]'))`;
}

/**
 * What the filters compare with: a tenant (undefined: every tenant) and event names (undefined:
 * every name), as the request's values or as a page statement's parameters.
 */
interface EventOperands {
  tenant: number | RawBuilder<number> | undefined;
  names: readonly string[] | RawBuilder<string[]> | undefined;
}

/** The operands of `scope` and `names` (eventNamesContaining's), as values. */
function operandsOf(scope: EventScope, names: readonly string[] | undefined): EventOperands {
  return { tenant: scope.kind === 'tenant' ? scope.tenantId : undefined, names };
}

/** The events matching `filters` and `operands`: the list's and the export's one rule. */
function matchingEvents(
  db: Kysely<Database>,
  filters: Pick<EventFilters, 'unprocessedOnly' | 'erroredOnly'>,
  { tenant, names }: EventOperands,
) {
  let query = db.selectFrom('events');
  if (tenant !== undefined) query = query.where('tenant_id', '=', tenant);
  if (names !== undefined) query = query.where('event_name', '=', sql<string>`any(${names})`);
  // Written as the partial indexes' own predicates, so that the planner uses them.
  if (filters.unprocessedOnly) query = query.where(sql<boolean>`not is_processed`);
  if (filters.erroredOnly) query = query.where(sql<boolean>`has_error`);
  return query;
}

/** An event as the export reads it: its time as ISO text and its metadata as JSON text. */
function eventExportRows(
  db: Kysely<Database>,
  filters: EventFilters,
  scope: EventScope,
  names: readonly string[] | undefined,
) {
  const direction = filters.sortOrder;
  return matchingEvents(db, filters, operandsOf(scope, names))
    .select([
      'id',
      isoText('created_at').as('created_at'),
      'event_name',
      'tenant_id',
      'entity_id',
      'unique_id',
      'is_processed',
      'has_error',
      // Each worker's record as the screen's detail says it, by worker name.
      sql<string | null>`(
        select string_agg(p.worker_name || ': ' || case
            when p.has_error then 'error' || coalesce(': ' || p.error_message, '')
            when p.processed_at is not null then 'processed'
            else 'waiting' end, '; ' order by p.worker_name)
        from processed_events p where p.event_id = events.id)`.as('workers'),
      sql<string>`metadata::text`.as('metadata'),
    ])
    .orderBy('created_at', direction)
    .orderBy('id', direction);
}

type EventExportRow = Awaited<
  ReturnType<ReturnType<typeof eventExportRows>['executeTakeFirstOrThrow']>
>;

/** GET api/events/export: the events the list shows under `filters`, in its order, every page. */
export async function eventsExport(
  db: Kysely<Database>,
  filters: EventFilters & { format: ExportFormat },
  scope: EventScope,
): Promise<ListExport<EventExportRow>> {
  const names =
    filters.eventName === undefined ? undefined : await eventNamesContaining(db, filters.eventName);
  return {
    name: 'events',
    format: filters.format,
    db,
    query: eventExportRows(db, filters, scope, names),
    columns: [
      { header: 'ID', value: (row) => row.id },
      { header: 'Created At', value: (row) => row.created_at },
      { header: 'Event Name', value: (row) => row.event_name },
      { header: 'Tenant ID', value: (row) => row.tenant_id },
      { header: 'Entity ID', value: (row) => row.entity_id },
      { header: 'Unique ID', value: (row) => row.unique_id },
      {
        header: 'Status',
        value: (row) => eventStatus({ hasError: row.has_error, isProcessed: row.is_processed }),
      },
      { header: 'Workers', value: (row) => row.workers },
      { header: 'Metadata', value: (row) => row.metadata },
    ],
  };
}

/**
 * The event names that contain `text`, ignoring letter case (LIKE wildcards in `text` match
 * themselves). Event names are few (they are code), so the distinct names are read by skipping
 * through the event_name index, one probe per name, and matched here; the page and the count
 * then use `event_name = any(...)` on indexes instead of testing every row.
 */
export async function eventNamesContaining(db: Kysely<Database>, text: string): Promise<string[]> {
  const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const result = await sql<{ event_name: string }>`
    with recursive names (event_name) as (
      (select event_name from events order by event_name limit 1)
      union all
      select (
        select next.event_name from events as next
        where next.event_name > names.event_name
        order by next.event_name
        limit 1
      )
      from names
      where names.event_name is not null
    )
    select event_name from names
    where event_name is not null and event_name ilike ${pattern} escape '\\'
    order by event_name
  `.execute(db);
  return result.rows.map((row) => row.event_name);
}
