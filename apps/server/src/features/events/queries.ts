import type { EventItem, EventList, EventListQuery, ProcessedEvent } from '@console/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import { readPage, walkDirection } from '../../db/paging.ts';
import type { Database, EventsTable, ProcessedEventsTable } from '../../db/schema.ts';
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

  const filtered = (trx: Kysely<Database>) =>
    trx
      .selectFrom('events')
      .$if(scope.kind === 'tenant', (qb) =>
        qb.where('tenant_id', '=', scope.kind === 'tenant' ? scope.tenantId : -1),
      )
      .$if(names !== undefined, (qb) => qb.where('event_name', 'in', names ?? []))
      // Written as the partial indexes' own predicates, so that the planner uses them.
      .$if(query.unprocessedOnly, (qb) => qb.where(sql<boolean>`not is_processed`))
      .$if(query.erroredOnly, (qb) => qb.where(sql<boolean>`has_error`));

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
