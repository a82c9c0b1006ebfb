import {
  eventStatus,
  type EventFilters,
  type EventItem,
  type EventList,
  type EventListQuery,
  type ExportFormat,
  type ProcessedEvent,
} from '@console/contracts';
import { type CompiledQuery, sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import {
  pageNumberedText,
  pageParam,
  pageParameterValues,
  pageStatement,
  pageStatementText,
} from '../../db/paging.ts';
import { readLogPage } from '../../db/log-anchors.ts';
import type { Database, EventsTable, ProcessedEventsTable } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';
import { isoText, type JsonText } from '../../http/json-text.ts';
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
 * (partial indexes), and event names (below). A deep page of every tenant's events asked by its
 * number alone starts from the log's page anchors (db/log-anchors.ts).
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
      return pageNumberedText('[]', { totalCount: 0, totalIsEstimate: false }, query);
  }
  return readLogPage<EventList>(db, {
    log: 'events',
    query,
    whole:
      scope.kind === 'all' && names === undefined && !query.unprocessedOnly && !query.erroredOnly,
    descending: query.sortOrder === 'desc',
    statement: () => eventPageStatement(db, query, scope, names),
    stepAfter: (after) => eventPageStatement(db, { ...query, after }, scope, names),
    matching: () => matchingEvents(db, query, operandsOf(scope, names)).select(sql`1`.as('one')),
  });
}

/** What decides a page statement's text: which filters apply, and whether it steps from a row. */
interface PageShape {
  tenant: boolean;
  names: boolean;
  stepped: boolean;
  unprocessedOnly: boolean;
  erroredOnly: boolean;
}

/** The events list's own parameters, after the four of every page statement (db/paging.ts). */
const EVENT_PARAMETERS = sql`$5::boolean as descending, $6::integer as tenant_id,
  $7::text[] as names`;
const param = {
  descending: sql<boolean>`$5`,
  tenant: sql<number>`$6`,
  names: sql<string[]>`$7`,
};

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
  const shape: PageShape = {
    tenant: scope.kind === 'tenant',
    names: names !== undefined,
    stepped: (query.after ?? query.before) !== undefined,
    unprocessedOnly: query.unprocessedOnly,
    erroredOnly: query.erroredOnly,
  };
  const name = `events_page_${Object.entries(shape)
    .flatMap(([part, on]) => (on ? [part] : []))
    .join('_')}`;
  return pageStatement(name, !shape.names, () => eventPageText(db, shape), [
    ...pageParameterValues(query),
    query.sortOrder === 'desc',
    scope.kind === 'tenant' ? scope.tenantId : null,
    names ?? null,
  ]);
}

/**
 * The page statement of `shape` (db/paging.ts, `pageStatementText`): the page's events written
 * as the API's JSON, with their workers' records.
 */
function eventPageText(db: Kysely<Database>, shape: PageShape): string {
  const operands: EventOperands = {
    tenant: shape.tenant ? param.tenant : undefined,
    names: shape.names ? param.names : undefined,
  };
  return pageStatementText(db, {
    table: 'events',
    parameters: EVENT_PARAMETERS,
    descending: param.descending,
    matching: () => matchingEvents(db, shape, operands).select('id'),
    filtered: shape.tenant || shape.names || shape.unprocessedOnly || shape.erroredOnly,
    // A tenant user steps only from its own tenant's events.
    cursor: shape.stepped
      ? db
          .selectFrom('events')
          .select(['created_at', 'id'])
          .where('id', '=', pageParam.cursor)
          .$if(shape.tenant, (qb) => qb.where('tenant_id', '=', param.tenant))
      : undefined,
    rowJson: eventJson(),
  });
}

/** An event of the page (alias `r`) as the API's JSON, its workers' records by worker name. */
function eventJson() {
  return sql`json_build_object(
    'id', r.id, 'eventName', r.event_name, 'tenantId', r.tenant_id, 'entityId', r.entity_id,
    'uniqueId', r.unique_id, 'createdAt', ${isoText('r.created_at')}, 'metadata', r.metadata,
    'isProcessed', r.is_processed, 'hasError', r.has_error,
    'processedEvents', coalesce((
      select json_agg(json_build_object(
        'eventId', p.event_id, 'workerName', p.worker_name, 'hasError', p.has_error,
        'errorMessage', p.error_message, 'processedAt', ${isoText('p.processed_at')},
        'attempts', p.attempts) order by p.worker_name)
      from processed_events as p where p.event_id = r.id), '[]'))`;
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
