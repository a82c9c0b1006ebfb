import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * `prune_audit_log` (migration 23) runs with its owner's rights (security definer), and
 * PostgreSQL lets PUBLIC execute a new function: any role that could connect could delete the
 * whole audit log through it. Now only its owner (the role that ran the migrations, which
 * AUDIT_RETENTION_DAYS uses) and the roles an operator grants it to may call it
 * (docs/audit.md, "How it is protected"), and it refuses what retention never asks: a cutoff
 * within the last day (AUDIT_RETENTION_DAYS is 1 or more; an hour of slack for the clocks of
 * the server and the database) and a batch outside 1 to 10,000.
 */
export const AuditPrunePrivileges: Migration = {
  version: 25,
  description: 'prune_audit_log: no longer executable by PUBLIC, and only for rows a day old',
  className: 'AuditPrunePrivileges',
  async up(db) {
    await sql`
      create or replace function prune_audit_log(cutoff timestamptz, batch integer) returns integer
      language plpgsql security definer set search_path = pg_catalog, public as $$
      declare
        deleted integer;
      begin
        if cutoff is null or cutoff > now() - interval '23 hours' then
          raise exception 'prune_audit_log keeps the last day: cutoff % is too recent', cutoff
            using errcode = 'invalid_parameter_value';
        end if;
        if batch is null or batch < 1 or batch > 10000 then
          raise exception 'prune_audit_log deletes 1 to 10000 rows a call, not %', batch
            using errcode = 'invalid_parameter_value';
        end if;
        perform set_config('console.audit_prune', 'on', true);
        delete from audit_log where id in (
          select id from audit_log where occurred_at < cutoff order by occurred_at, id limit batch
        );
        get diagnostics deleted = row_count;
        perform set_config('console.audit_prune', 'off', true);
        return deleted;
      end
      $$;
      revoke execute on function prune_audit_log(timestamptz, integer) from public;
    `.execute(db);
  },
};
