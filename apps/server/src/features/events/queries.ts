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
import { sql, type Kysely, type Selectable } from 'kysely';
import { countUpToExactMax, pageNumberTotal, type PageNumberTotal } from '../../db/paging.ts';
import { prepared } from '../../db/prepared-statements.ts';
import type { Database, EventsTable, ProcessedEventsTable } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';
import { jsonText, type JsonText } from '../../http/json-text.ts';
import { toRecordedEvent } from '../../outbox/index.ts';

/** Whose events a caller may list: every tenant's (staff), or one tenant's. */
export type EventScope = { kind: 'all' } | { kind: 'tenant'; tenantId: number };

/** The tenant of a tenant scope; only asked of one (Kysely's `$if` does not narrow `scope`). */
function tenantOf(scope: EventScope): number {
  return scope.kind === 'tenant' ? scope.tenantId : -1;
}

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
  const matching = () => matchingEvents(db, query, scope, names).select(sql`1`.as('one'));
  const statement = eventPageStatement(db, query, scope, names).compile(db);
  // The shapes without names have one text each, sent as named statements (planned once per
  // connection). With names the text varies with their number, and the best plan with the
  // names: a rare one is read by the name index, a common one along creation order.
  const { rows } = await db.executeQuery<{ counted: number; data: string }>(
    names === undefined ? prepared(`events_page_${shapeOf(query, scope)}`, statement) : statement,
  );
  const { counted, data } = rows[0] ?? { counted: 0, data: '[]' };
  return eventListText(data, await pageNumberTotal(db, counted, matching()), query);
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

/** The query parts that decide a page statement's text, apart from event names. */
function shapeOf(filters: EventListQuery, scope: EventScope): string {
  const only = [filters.unprocessedOnly && '_unprocessed', filters.erroredOnly && '_errored'];
  const step = filters.after !== undefined || filters.before !== undefined ? '_stepped' : '';
  return `${scope.kind}${only.filter(Boolean).join('')}${step}`;
}

/** A time as the text toISOString gives, made by PostgreSQL: no Date per row. */
function isoText(column: string) {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The page statement: the matching events counted up to one past EXACT_TOTAL_MAX, and the page's
 * ids walked on the index alone, then only those rows read and written as the API's JSON, with
 * their workers' records. The walk starts after (or before) the row of `after` (`before`) when it
 * exists, a keyset page; else, by the page's number, from the nearer end of an exact total
 * (db/paging.ts, `planPage`'s rule), or from the start. Every walk is in the text, each behind a
 * condition on the plan that PostgreSQL checks once, so only one runs.
 */
export function eventPageStatement(
  db: Kysely<Database>,
  query: EventListQuery,
  scope: EventScope,
  names: readonly string[] | undefined,
) {
  const offset = sql`${(query.page - 1) * query.pageSize}::bigint`;
  const size = sql`${query.pageSize}::bigint`;
  const descending = sql`${query.sortOrder === 'desc'}::boolean`;
  const cursor = query.after ?? query.before;
  const walk = (direction: 'asc' | 'desc', fromCursor: boolean) =>
    matchingEvents(db, query, scope, names)
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
  if (cursor !== undefined) walks.push(walk('desc', true), walk('asc', true));
  const counted = countUpToExactMax(db, matchingEvents(db, query, scope, names).select('id'));
  // A tenant user steps only from its own tenant's events.
  const cursorRow = db
    .selectFrom('events')
    .select(['created_at', 'id'])
    .where('id', '=', cursor ?? 0)
    .$if(scope.kind === 'tenant', (qb) => qb.where('tenant_id', '=', tenantOf(scope)));
  return sql<{ counted: number; data: string }>`
    with ${cursor === undefined ? sql`` : sql`cursor as (${cursorRow}),`}
    counted as (${counted}),
    plan as (
      select counted, rows, from_cursor, reversed <> ${descending} as walk_descending,
        case when from_cursor then 0
          when reversed then greatest(counted - ${offset} - rows, 0)
          else ${offset} end as skip
      from counted,
        lateral (select ${cursor === undefined ? sql`false` : sql`exists (select from cursor)`}
          as from_cursor) as step,
        lateral (select counted <= ${sql.lit(EXACT_TOTAL_MAX)} as exact) as total,
        lateral (select case when exact and not from_cursor
          then greatest(least(${size}, counted - ${offset}), 0) else ${size} end as rows) as size,
        lateral (select case when from_cursor then ${query.before !== undefined}::boolean
          else exact and counted - ${offset} - rows < ${offset} end as reversed) as ends
    ),
    -- The limit takes nothing away (a page holds at most that many rows): the planner cannot
    -- know the statement's own limit and would otherwise expect a tenth of the table.
    keys as (${sql.join(
      walks.map((one) => sql`(${one})`),
      sql` union all `,
    )} limit ${sql.lit(EVENT_PAGE_SIZE_MAX)})
    select (select counted from plan) as counted,
      '[' || coalesce(string_agg(${eventJson()}::text, ',' order by
        case when ${descending} then e.created_at end desc,
        case when ${descending} then e.id end desc,
        e.created_at, e.id), '') || ']' as data
    from keys join events as e on e.id = keys.id
  `;
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
 * The events `scope` may read that match `filters`, the list's and the export's one rule;
 * `names` are the event names that contain the name filter (eventNamesContaining), when given.
 */
function matchingEvents(
  db: Kysely<Database>,
  filters: EventFilters,
  scope: EventScope,
  names: readonly string[] | undefined,
) {
  return (
    db
      .selectFrom('events')
      .$if(scope.kind === 'tenant', (qb) => qb.where('tenant_id', '=', tenantOf(scope)))
      .$if(names !== undefined, (qb) =>
        names?.length ? qb.where('event_name', 'in', names) : qb.where(sql<boolean>`false`),
      )
      // Written as the partial indexes' own predicates, so that the planner uses them.
      .$if(filters.unprocessedOnly, (qb) => qb.where(sql<boolean>`not is_processed`))
      .$if(filters.erroredOnly, (qb) => qb.where(sql<boolean>`has_error`))
  );
}

/** An event as the export reads it: its time as ISO text and its metadata as JSON text. */
function eventExportRows(
  db: Kysely<Database>,
  filters: EventFilters,
  scope: EventScope,
  names: readonly string[] | undefined,
) {
  const direction = filters.sortOrder;
  return matchingEvents(db, filters, scope, names)
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
 * then use `event_name in (...)` on indexes instead of testing every row.
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
