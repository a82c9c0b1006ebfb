import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * Retention (issue 31, part 7; docs/operations.md "Retention"):
 *
 * - Processed events older than EVENT_RETENTION_DAYS are deleted in batches; `events_processed`
 *   finds the oldest processed ones without reading the waiting and failed ones it keeps.
 * - The audit log stays append-only (migration 7's trigger) except through
 *   `prune_audit_log(cutoff, batch)`, the one way rows leave it (AUDIT_RETENTION_DAYS): the
 *   function sets a transaction-local flag the trigger honours, deletes one batch of rows older
 *   than the cutoff, and answers how many it deleted. Updates and truncation stay refused.
 */
export const Retention: Migration = {
  version: 23,
  description: 'Processed events by age, and the audit log pruned only by prune_audit_log',
  className: 'Retention',
  async up(db) {
    await sql`
      create index events_processed on events (created_at, id) where is_processed;

      create or replace function audit_log_reject_change() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' and current_setting('console.audit_prune', true) = 'on' then
          return old;
        end if;
        raise exception 'audit_log is append-only: % is not allowed', tg_op
          using errcode = 'insufficient_privilege';
      end
      $$;

      create function prune_audit_log(cutoff timestamptz, batch integer) returns integer
      language plpgsql security definer set search_path = pg_catalog, public as $$
      declare
        deleted integer;
      begin
        perform set_config('console.audit_prune', 'on', true);
        delete from audit_log where id in (
          select id from audit_log where occurred_at < cutoff order by occurred_at, id limit batch
        );
        get diagnostics deleted = row_count;
        perform set_config('console.audit_prune', 'off', true);
        return deleted;
      end
      $$;
    `.execute(db);
  },
};
