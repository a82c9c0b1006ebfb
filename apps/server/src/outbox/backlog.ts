import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** One event worker's waiting records (docs/operations.md, "Metrics"). */
export interface WorkerBacklog {
  worker: string;
  /** Records neither done nor failed (claimed ones included), across every instance. */
  waiting: number;
  /** Age of the event of the oldest waiting record; 0 when none waits. */
  oldestAgeSeconds: number;
  /** Records the worker failed (until an event is reset). */
  failed: number;
}

/**
 * The waiting records of each of `workers`, in one statement. Both reads walk the partial index
 * of waiting records (`processed_events_pending`, worker then event id): the count reads that
 * worker's entries only (its backlog, not the event log), the oldest is the first entry, whose
 * event is then looked up by id. At a million events with none waiting it costs two index probes
 * per worker. The failed records are counted on their own partial index (migration 21).
 */
export async function readWorkerBacklog(
  db: Kysely<Database>,
  workers: readonly string[],
): Promise<WorkerBacklog[]> {
  const result = await sql<WorkerBacklog>`
    select workers.name as worker,
      (select count(*) from processed_events
        where worker_name = workers.name and processed_at is null and not has_error) as waiting,
      coalesce((
        select greatest(0, extract(epoch from now() - events.created_at))::float8
        from processed_events
        join events on events.id = processed_events.event_id
        where processed_events.worker_name = workers.name
          and processed_events.processed_at is null
          and not processed_events.has_error
        order by processed_events.event_id
        limit 1
      ), 0) as "oldestAgeSeconds",
      (select count(*) from processed_events
        where worker_name = workers.name and has_error) as failed
    from unnest(${[...workers]}::text[]) as workers(name)
  `.execute(db);
  return result.rows;
}
