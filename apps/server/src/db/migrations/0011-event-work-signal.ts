import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * The "work for worker W" notification (outbox/outbox.ts, EVENTS_CHANNEL, payload W) is sent by
 * the database itself, from a statement-level trigger on the processing records, instead of by a
 * `select pg_notify(...)` after each insert of events: every write that records an event saves a
 * round trip, no insert can forget to wake the workers, and only the workers an event concerns
 * wake up. PostgreSQL delivers the notifications at commit, once per worker and transaction.
 */
export const EventWorkSignal: Migration = {
  version: 11,
  description: 'Notify the event workers from a trigger on their processing records',
  className: 'EventWorkSignal',
  async up(db) {
    await sql`
      create function signal_event_work() returns trigger language plpgsql as $$
      begin
        perform pg_notify('console_events', worker_name)
        from (select distinct worker_name from added) as workers;
        return null;
      end $$;

      create trigger processed_events_signal_work after insert on processed_events
      referencing new table as added
      for each statement execute function signal_event_work();
    `.execute(db);
  },
};
