import type { StaffOverview, TenantOverview } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Migration } from '../../db/migrations/migration.ts';
import { migrationStatus } from '../../db/migrator.ts';
import { readWorkerBacklog } from '../../outbox/backlog.ts';
import { readMailCounts } from '../../outbox/mail-counts.ts';
import { EVENT_SUBSCRIPTIONS } from '../../outbox/subscriptions.ts';

/**
 * The figures of the dashboard overview (docs/operations.md, "The dashboard overview"), each read
 * without counting a large table: the entity lists' kept totals (`list_counts`), the event
 * backlog's partial indexes, the last import job by its key, the mail counts per hour. Side by
 * side on the pool, so an answer takes about as long as its slowest read.
 */
export async function readStaffOverview(
  db: Kysely<Database>,
  migrations: readonly Migration[],
): Promise<StaffOverview> {
  const workers = EVENT_SUBSCRIPTIONS.map((subscription) => subscription.name);
  const [tenants, lists, backlog, lastImport, mails, migration] = await Promise.all([
    db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow(),
    readListCounts(db),
    readWorkerBacklog(db, workers),
    readLastRatingsImport(db),
    readMailCounts(db),
    migrationStatus(db, migrations),
  ]);
  return {
    audience: 'staff',
    tenants: tenants.count,
    entities: lists.entities,
    entityUsers: lists.entityUsers,
    eventWorkers: backlog.map((row) => ({
      worker: row.worker,
      waiting: row.waiting,
      failed: row.failed,
      oldestWaitingSeconds: Math.round(row.oldestAgeSeconds),
    })),
    lastRatingsImport: lastImport,
    mails,
    pendingMigrations: migration.pending.length,
    asOf: new Date().toISOString(),
  };
}

/** A tenant user's overview: its own tenant's lists and events only. */
export async function readTenantOverview(
  db: Kysely<Database>,
  tenantId: number,
): Promise<TenantOverview> {
  const [lists, events] = await Promise.all([
    readListCounts(db, tenantId),
    // Both counts walk the partial indexes of unprocessed and errored events, which carry the
    // tenant: the events still to do are few, whatever the size of the log.
    db
      .selectFrom('events')
      .select([
        sql<number>`count(*) filter (where not is_processed and not has_error)`.as('waiting'),
        sql<number>`count(*) filter (where has_error)`.as('failed'),
      ])
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb.or([eb('is_processed', '=', false), eb('has_error', '=', true)]))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    audience: 'tenant',
    entities: lists.entities,
    entityUsers: lists.entityUsers,
    events: { waiting: events.waiting, failed: events.failed },
    asOf: new Date().toISOString(),
  };
}

/** Rows of the entity lists, from the totals the triggers keep (migration 8), of one tenant or all. */
async function readListCounts(db: Kysely<Database>, tenantId?: number) {
  let query = db
    .selectFrom('list_counts')
    .select(['list', (eb) => eb.fn.sum<number>('row_count').as('rows')])
    .groupBy('list');
  if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
  const rows = await query.execute();
  const count = (list: string) => Number(rows.find((row) => row.list === list)?.rows ?? 0);
  return { entities: count('entities'), entityUsers: count('entity_users') };
}

async function readLastRatingsImport(
  db: Kysely<Database>,
): Promise<StaffOverview['lastRatingsImport']> {
  const job = await db
    .selectFrom('fatf_imports')
    .select(['id', 'status', 'created_at', 'record_count', 'records_imported'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!job) return null;
  return {
    id: job.id,
    status: job.status,
    startedAt: job.created_at.toISOString(),
    records: job.record_count,
    imported: job.records_imported,
  };
}
