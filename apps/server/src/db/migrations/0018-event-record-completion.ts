import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * Completing a worker's records (outbox/dispatcher.ts) as one statement instead of a transaction
 * of six: lock the events rows, mark the records this instance still holds done or failed,
 * recompute the events' flags. The mail worker completes one event at a time, so each round trip
 * saved is saved per mail.
 *
 * The rules stay those of docs/events.md. The events rows are locked first, in id order, and the
 * flags are recomputed by a later statement of the function: a PL/pgSQL function that is
 * VOLATILE takes a fresh snapshot for each statement, so the recount sees every record committed
 * by whoever held those locks before (two workers finishing one event on two instances cannot
 * both miss the other's success). `refresh_event_flags` is the one definition of the flags rule,
 * also used by a reset (outbox/processing.ts).
 */
export const EventRecordCompletion: Migration = {
  version: 18,
  description: "Complete event workers' records and refresh the events' flags in one statement",
  className: 'EventRecordCompletion',
  async up(db) {
    await sql`
      -- An event is processed when every record succeeded, errored when any failed (an event
      -- without records is left as it is). Callers hold the lock of these events rows. Driven by
      -- the ids (an index lookup of each event and of its records), so that the plan does not
      -- depend on the tables' statistics: a join planned on a table not analyzed yet (a new
      -- installation, a burst of events) scanned every event.
      create function refresh_event_flags(ids bigint[]) returns void
        -- PL/pgSQL keeps the statement's plan for the connection's next calls.
        language plpgsql volatile
        as $$
        begin
          update events set is_processed = state.all_done, has_error = state.any_error
          from unnest(ids) as target (id)
          cross join lateral (
            select
              bool_and(processed_at is not null and not has_error) as all_done,
              bool_or(has_error) as any_error
            from processed_events
            where event_id = target.id
          ) as state
          where events.id = target.id
            and state.all_done is not null
            and (events.is_processed, events.has_error)
              is distinct from (state.all_done, state.any_error);
        end
        $$;

      -- Records the outcomes of worker's records for event_ids (errors[i] null: done;
      -- otherwise failed with that message), for those records instance still holds the claim
      -- of; answers their event ids (a claim lost to an expired lease or a reset is left alone).
      -- The records of started_ids are then marked started (the next work of this instance).
      create function complete_event_records(
        worker text,
        instance text,
        event_ids bigint[],
        errors text[],
        started_ids bigint[]
      ) returns setof bigint
        language plpgsql volatile
        as $$
        declare
          recorded bigint[];
        begin
          perform 1 from events where id = any (event_ids) order by id for update;
          with completed as (
            update processed_events as pending
            set processed_at = case when outcome.error is null then now() end,
              has_error = outcome.error is not null,
              error_message = outcome.error,
              locked_until = null
            from unnest(event_ids, errors) as outcome (event_id, error)
            -- Looked up by id (the primary key), whatever the statistics say.
            where pending.event_id = any (event_ids)
              and pending.worker_name = worker
              and pending.event_id = outcome.event_id
              and pending.locked_by = instance
              and pending.processed_at is null
              and not pending.has_error
            returning pending.event_id
          )
          select coalesce(array_agg(event_id order by event_id), '{}') into recorded
          from completed;
          perform refresh_event_flags(recorded);
          if cardinality(started_ids) > 0 then
            update processed_events set unstarted = false
            where worker_name = worker and event_id = any (started_ids) and locked_by = instance;
          end if;
          return query select unnest(recorded);
        end
        $$;
    `.execute(db);
  },
};
