import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * What the event workers need (docs/events.md): a lease on each worker's record, so that several
 * instances share the work and a stopped one's claims expire; indexes for claiming and for the
 * events screen's name filter; and the append-only audit log the audit-trail worker writes.
 */
export const EventProcessing: Migration = {
  version: 7,
  description: 'Event worker leases, event name indexes and the append-only audit log',
  className: 'EventProcessing',
  async up(db) {
    await sql`
      alter table processed_events
        add column locked_by text,
        add column locked_until timestamptz;
      -- The work still to do, per worker: what a claim scans.
      create index processed_events_pending on processed_events (worker_name, event_id)
        where processed_at is null and not has_error;

      -- The events screen's name filter: the distinct names are read from this index, then the
      -- events of the matching names in creation order (for staff, and per tenant).
      create index events_name_created_at on events (event_name, created_at, id);
      create index events_tenant_name_created_at on events (tenant_id, event_name, created_at, id);
      -- The unprocessed and errored filters count on their partial indexes alone (index-only
      -- scans), also together with a tenant or a name: the index carries both.
      drop index events_unprocessed;
      create index events_unprocessed on events (created_at, id) include (tenant_id, event_name)
        where not is_processed;
      drop index events_errored;
      create index events_errored on events (created_at, id) include (tenant_id, event_name)
        where has_error;

      -- Who did what, when: one row per event the audit-trail worker processed. No foreign key
      -- to events, so that pruning the event log never touches the audit trail.
      create table audit_log (
        id bigserial primary key,
        event_id bigint not null,
        event_name text not null,
        tenant_id integer,
        entity_id text,
        actor text,
        action text,
        before jsonb,
        after jsonb,
        metadata jsonb not null,
        occurred_at timestamptz not null,
        recorded_at timestamptz not null default now()
      );
      create index audit_log_event_id on audit_log (event_id);
      create index audit_log_tenant_occurred_at on audit_log (tenant_id, occurred_at, id);

      create function audit_log_reject_change() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log is append-only: % is not allowed', tg_op
          using errcode = 'insufficient_privilege';
      end
      $$;
      create trigger audit_log_append_only before update or delete on audit_log
        for each row execute function audit_log_reject_change();
      create trigger audit_log_no_truncate before truncate on audit_log
        for each statement execute function audit_log_reject_change();
    `.execute(db);
  },
};
