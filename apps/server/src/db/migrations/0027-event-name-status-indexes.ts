import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * The events list's name filter together with "unprocessed only" or "errored only", overall and
 * for one tenant (issue 31, part 6; docs/events.md "How it stays fast"). The status indexes
 * (migrations 7 and 23) walk every waiting or failed event and test its name: at 10^7 events a
 * name that few of them carry took a second to count, as the count reads until 10,001 match.
 * Led by the name, the walk and the count read the matching events only. Partial, so they hold
 * only the waiting and failed events, as the status indexes do.
 */
export const EventNameStatusIndexes: Migration = {
  version: 27,
  description: 'Indexes for the event name filter with unprocessed only or errored only',
  className: 'EventNameStatusIndexes',
  async up(db) {
    await sql`
      create index events_name_unprocessed on events (event_name, created_at, id)
        where not is_processed;
      create index events_tenant_name_unprocessed on events (tenant_id, event_name, created_at, id)
        where not is_processed;
      create index events_name_errored on events (event_name, created_at, id) where has_error;
      create index events_tenant_name_errored on events (tenant_id, event_name, created_at, id)
        where has_error;
    `.execute(db);
  },
};
