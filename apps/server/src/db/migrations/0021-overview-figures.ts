import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * What the dashboard overview reads (features/overview) without counting a large table:
 *
 * - `processed_events_failed`: the records each worker failed, a partial index (failures are few)
 *   beside `processed_events_pending` (the waiting ones).
 * - `mail_counts`: mails sent and failed per hour, kind and outcome, one upsert per mail (mail is
 *   rare), so that "the last 24 hours" holds across restarts and instances. A year is at most
 *   35,040 rows; nothing needs pruning.
 */
export const OverviewFigures: Migration = {
  version: 21,
  description: 'Failed event records per worker, and mails counted per hour, for the overview',
  className: 'OverviewFigures',
  async up(db) {
    await sql`
      create index processed_events_failed on processed_events (worker_name) where has_error;
      create table mail_counts (
        hour timestamptz not null,
        kind text not null,
        outcome text not null check (outcome in ('sent', 'failed')),
        mails integer not null,
        primary key (hour, kind, outcome)
      );
    `.execute(db);
  },
};
