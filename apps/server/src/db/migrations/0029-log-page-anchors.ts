import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * Page anchors of the event log and the audit log (db/log-anchors.ts, docs/architecture.md
 * "Speed"): a page asked by its number alone at 10^7 rows walked millions of index entries.
 *
 * The entity lists' anchors hold while their generation does, which every change of a list's keys
 * raises on one row (migration 10). The logs cannot do that: every write of the console records an
 * event, and one row raised by each would queue every write behind the one before. But the logs
 * grow at their newest end, so `log_anchor_states` holds a `boundary` per log (raised by each
 * anchor build, never lowered) and a `generation` that only what changes the rows older than the
 * boundary raises: an insert of a row older than it (an event written with a time of its own, the
 * audit row of an event recorded late), a delete (retention), a truncate, an update of an event's
 * time or id. An ordinary write adds rows newer than the boundary, tests one row and locks nothing.
 */
export const LogPageAnchors: Migration = {
  version: 29,
  description: 'Boundaries and generations of the event and audit logs, for their page anchors',
  className: 'LogPageAnchors',
  async up(db) {
    await sql`
      create table log_anchor_states (
        list text primary key check (list in ('events', 'audit_log')),
        boundary timestamptz,
        generation bigint not null default 0
      );
      insert into log_anchor_states (list) values ('events'), ('audit_log');

      -- Static statements per table: PL/pgSQL plans each once per session, on first use.
      create function log_anchors_rows_added() returns trigger language plpgsql as $$
      begin
        if tg_table_name = 'events' then
          update log_anchor_states as state set generation = state.generation + 1
          where state.list = 'events' and state.boundary is not null
            and exists (select from added where added.created_at < state.boundary);
        else
          update log_anchor_states as state set generation = state.generation + 1
          where state.list = 'audit_log' and state.boundary is not null
            and exists (select from added where added.occurred_at < state.boundary);
        end if;
        return null;
      end
      $$;
      create function log_anchors_rows_removed() returns trigger language plpgsql as $$
      begin
        if exists (select from removed) then
          update log_anchor_states set generation = generation + 1 where list = tg_table_name;
        end if;
        return null;
      end
      $$;
      -- A truncate, or an update of an event's time or id (whose trigger can have no transition
      -- table: it names columns).
      create function log_anchors_changed() returns trigger language plpgsql as $$
      begin
        update log_anchor_states set generation = generation + 1 where list = tg_table_name;
        return null;
      end
      $$;

      create trigger events_log_anchors_insert after insert on events
        referencing new table as added
        for each statement execute function log_anchors_rows_added();
      create trigger events_log_anchors_delete after delete on events
        referencing old table as removed
        for each statement execute function log_anchors_rows_removed();
      create trigger events_log_anchors_update after update of created_at, id on events
        for each statement execute function log_anchors_changed();
      create trigger events_log_anchors_truncate after truncate on events
        for each statement execute function log_anchors_changed();

      -- The audit log refuses updates (migration 7); retention deletes through prune_audit_log.
      create trigger audit_log_log_anchors_insert after insert on audit_log
        referencing new table as added
        for each statement execute function log_anchors_rows_added();
      create trigger audit_log_log_anchors_delete after delete on audit_log
        referencing old table as removed
        for each statement execute function log_anchors_rows_removed();
      create trigger audit_log_log_anchors_truncate after truncate on audit_log
        for each statement execute function log_anchors_changed();
    `.execute(db);
  },
};
