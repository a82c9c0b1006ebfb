import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * The audit log's filters together, and its free text, at 10^7 rows (issue 31, part 6;
 * docs/audit.md "How it stays fast"):
 *
 * - An actor with an action, the screen's commonest pair: migration 22 has no index that leads
 *   with both, and the count ANDed the bitmaps of the actor's and the action's rows (1.7 million):
 *   0.6 s alone, seconds under load. `audit_log_actor_action` leads with both.
 * - The actor indexes include `actor` itself: PostgreSQL reads an index alone (index-only) only
 *   when it holds every column a condition names, and `lower(actor)` names `actor`, so an
 *   actor's count read its rows from the table (or read the table). They also include the tenant
 *   and the target type, and the tenant's index the action and the target type, so that a second
 *   filter is tested on the index's entries (an actor with a tenant ANDed 1.9 million rows'
 *   bitmaps, 0.35 s; a tenant with an action walked 210,000 entries of another index, 20 ms).
 * - The free text: every target name the log holds, once, in `audit_target_names` (kept by a
 *   trigger on insert), with the trigram index; the page then asks for `target_name = any(names)`
 *   on `audit_log_target_name`. The trigram index of the log itself (migration 22, dropped here)
 *   read the whole list of each common trigram ('rec', 'cor', ...: 10^7 rows each) to find a
 *   name 1,100 rows share: 170 ms per statement; names are few (a record's name repeats in each
 *   of its changes), and their trigram lists as short.
 *
 * Names stay in audit_target_names when retention prunes their rows: a name without rows finds
 * none. Target names are the records' names and emails (200 and 254 characters at most, by the
 * contracts), well within a btree entry.
 */
export const AuditLogFilterIndexes: Migration = {
  version: 28,
  description: 'Audit log indexes: actor with action, filters on index entries, target names',
  className: 'AuditLogFilterIndexes',
  async up(db) {
    await sql`
      create index audit_log_actor_action on audit_log (lower(actor), action, occurred_at, id)
        include (actor, tenant_id, target_type);
      drop index audit_log_actor;
      create index audit_log_actor on audit_log (lower(actor), occurred_at, id)
        include (actor, tenant_id, target_type);
      drop index audit_log_tenant_occurred_at;
      create index audit_log_tenant_occurred_at on audit_log (tenant_id, occurred_at, id)
        include (action, target_type);

      create table audit_target_names (name text primary key);
      -- In name order, so that two transactions adding the same new names wait for each other
      -- instead of deadlocking.
      create function audit_log_add_target_names() returns trigger language plpgsql as $$
      begin
        insert into audit_target_names (name)
          select distinct target_name from added where target_name is not null
          order by target_name
          on conflict do nothing;
        return null;
      end
      $$;
      create trigger audit_log_target_names after insert on audit_log
        referencing new table as added
        for each statement execute function audit_log_add_target_names();
      insert into audit_target_names (name)
        select distinct target_name from audit_log where target_name is not null
        on conflict do nothing;
      create index audit_target_names_trigram on audit_target_names
        using gin (name gin_trgm_ops);
      drop index audit_log_target_name;
      create index audit_log_target_name on audit_log (target_name, occurred_at, id);
    `.execute(db);
  },
};
