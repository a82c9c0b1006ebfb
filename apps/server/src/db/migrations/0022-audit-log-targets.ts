import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * The audit log as a list (issue 31): what each row is about (target type, id and name, from the
 * event's `metadata.target`) and an index for every filter of GET api/audit, each ending in the
 * list's order (occurred_at, id) so that a filtered first page is a short index walk:
 *
 * - newest first overall, per actor (ignoring letter case), per action, per target (type and id),
 *   per tenant (0007's audit_log_tenant_occurred_at);
 * - the free text over target names, a trigram index (pg_trgm, a trusted extension: the database
 *   owner may create it).
 *
 * Rows written before this migration keep null targets: their events' metadata has no target.
 */
export const AuditLogTargets: Migration = {
  version: 22,
  description: 'Audit log targets, and an index for every filter of the audit log',
  className: 'AuditLogTargets',
  async up(db) {
    await sql`
      create extension if not exists pg_trgm;
      alter table audit_log
        add column target_type text,
        add column target_id text,
        add column target_name text;
      create index audit_log_occurred_at on audit_log (occurred_at, id);
      create index audit_log_actor on audit_log (lower(actor), occurred_at, id);
      create index audit_log_action on audit_log (action, occurred_at, id);
      create index audit_log_target on audit_log (target_type, target_id, occurred_at, id);
      create index audit_log_target_name on audit_log using gin (target_name gin_trgm_ops);
    `.execute(db);
  },
};
