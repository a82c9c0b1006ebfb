import {
  eventStatus,
  type EventFilters,
  type EventItem,
  type EventList,
  type EventListQuery,
  type ExportFormat,
  type ProcessedEvent,
} from '@console/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import { readPage, walkDirection } from '../../db/paging.ts';
import type { Database, EventsTable, ProcessedEventsTable } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';
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
 * GET api/events: one page, filtered and counted in the database. Every filter has an index
 * (migrations 0004 and 0007): creation order overall and per tenant, the unprocessed and errored
 * events (partial indexes), and event names (below).
 */
export async function listEvents(
  db: Kysely<Database>,
  query: EventListQuery,
  scope: EventScope,
): Promise<EventList> {
  const page = { page: query.page, pageSize: query.pageSize };
  let names: string[] | undefined;
  if (query.eventName !== undefined) {
    names = await eventNamesContaining(db, query.eventName);
    if (names.length === 0) return { data: [], totalCount: 0, ...page };
  }

  const filtered = (trx: Kysely<Database>) => matchingEvents(trx, query, scope, names);

  const { data: rows, totalCount } = await readPage(db, {
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
    async count(trx) {
      const counted = await filtered(trx)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return counted.count;
    },
    async read(trx, plan) {
      const direction = walkDirection(query.sortOrder === 'desc', plan);
      return filtered(trx)
        .selectAll()
        .orderBy('created_at', direction)
        .orderBy('id', direction)
        .limit(plan.limit)
        .offset(plan.offset)
        .execute();
    },
  });

  const processed =
    rows.length === 0
      ? []
      : await db
          .selectFrom('processed_events')
          .selectAll()
          .where(
            'event_id',
            'in',
            rows.map((row) => row.id),
          )
          .orderBy('event_id')
          .orderBy('worker_name')
          .execute();
  const byEvent = new Map<number, Selectable<ProcessedEventsTable>[]>();
  for (const row of processed)
    byEvent.set(row.event_id, [...(byEvent.get(row.event_id) ?? []), row]);
  return {
    data: rows.map((row) => toEventItem(row, byEvent.get(row.id) ?? [])),
    totalCount,
    ...page,
  };
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
      .$if(scope.kind === 'tenant', (qb) =>
        qb.where('tenant_id', '=', scope.kind === 'tenant' ? scope.tenantId : -1),
      )
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
      // The text toISOString gives, made by PostgreSQL: no Date per row.
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
        'created_at',
      ),
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
