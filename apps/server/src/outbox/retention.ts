import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/schema.ts';
import type { BackgroundWork } from '../http/lifecycle.ts';

/**
 * Retention (docs/operations.md, "Retention"): processed events older than EVENT_RETENTION_DAYS
 * and, when AUDIT_RETENTION_DAYS is set, audit rows older than that leave the database.
 *
 * - Events waiting for a worker or failed are kept whatever their age: only `is_processed` ones go
 *   (their processing records with them, on delete cascade).
 * - In batches, each its own short transaction, so that no lock is held for long and the lists
 *   and the workers carry on meanwhile.
 * - One instance at a time: each batch takes a transaction-level advisory lock without waiting;
 *   an instance that finds it taken leaves the pruning to the one that holds it.
 * - The audit log is append-only (migration 7): its rows leave only through prune_audit_log
 *   (migration 23), which the trigger lets delete.
 */

/** Namespace of the advisory lock of pruning ('RETN'). */
const RETENTION_LOCK = 0x52_45_54_4e;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per batch: a batch takes some milliseconds, and the lists never wait long behind it. */
export const RETENTION_BATCH_SIZE = 1000;
/** How often an instance prunes. */
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface RetentionSettings {
  eventRetentionDays: number;
  /** Undefined: the audit log is kept forever. */
  auditRetentionDays: number | undefined;
  batchSize?: number;
}

export interface PruneResult {
  events: number;
  auditRows: number;
  /** False when another instance held the lock: this one pruned nothing. */
  ran: boolean;
}

/** One batch under the lock: answers the rows deleted, or null when another instance prunes. */
async function batch(
  db: Kysely<Database>,
  remove: (trx: Kysely<Database>) => Promise<number>,
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${RETENTION_LOCK}) as locked`.execute(trx);
    if (!rows[0]?.locked) return null;
    return remove(trx);
  });
}

/** Prunes until nothing is older than the retention periods (or another instance prunes). */
export async function pruneOnce(
  db: Kysely<Database>,
  settings: RetentionSettings,
  now: Date = new Date(),
): Promise<PruneResult> {
  const size = settings.batchSize ?? RETENTION_BATCH_SIZE;
  const result: PruneResult = { events: 0, auditRows: 0, ran: true };
  const eventCutoff = new Date(now.getTime() - settings.eventRetentionDays * DAY_MS);
  for (;;) {
    const deleted = await batch(db, async (trx) => {
      // Along the partial index of processed events (migration 23), oldest first; rows a worker
      // holds are skipped rather than waited for.
      const removed = await sql`
        delete from events where id in (
          select id from events
          where is_processed and created_at < ${eventCutoff}
          order by created_at, id
          limit ${size}
          for update skip locked
        )
      `.execute(trx);
      return Number(removed.numAffectedRows ?? 0n);
    });
    if (deleted === null) return { ...result, ran: false };
    result.events += deleted;
    if (deleted < size) break;
  }
  if (settings.auditRetentionDays === undefined) return result;
  const auditCutoff = new Date(now.getTime() - settings.auditRetentionDays * DAY_MS);
  for (;;) {
    const deleted = await batch(db, async (trx) => {
      const { rows } = await sql<{
        deleted: number;
      }>`select prune_audit_log(${auditCutoff}, ${size}) as deleted`.execute(trx);
      return rows[0]?.deleted ?? 0;
    });
    if (deleted === null) return { ...result, ran: false };
    result.auditRows += deleted;
    if (deleted < size) break;
  }
  return result;
}

/** Pruning every hour (and soon after start) on this instance, as background work. */
export function createRetentionJob(
  db: Kysely<Database>,
  settings: RetentionSettings,
  logger: FastifyBaseLogger,
): BackgroundWork {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped: Promise<void> | undefined;
  const run = () => {
    running = running.then(async () => {
      try {
        const pruned = await pruneOnce(db, settings);
        if (pruned.events > 0 || pruned.auditRows > 0) {
          logger.info({ events: pruned.events, auditRows: pruned.auditRows }, 'Retention pruned');
        }
      } catch (error) {
        logger.warn({ err: error }, 'Retention pruning failed; it runs again within the hour');
      }
    });
  };
  return {
    start() {
      // Not at the very start: the instance has its own work to begin first.
      timer = setTimeout(function tick() {
        run();
        timer = setTimeout(tick, RETENTION_INTERVAL_MS);
        timer.unref();
      }, 60_000);
      timer.unref();
    },
    stop() {
      stopped ??= (async () => {
        clearTimeout(timer);
        await running;
      })();
      return stopped;
    },
  };
}
