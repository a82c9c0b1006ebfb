import {
  parseRatingsRecord,
  type RatingsImportOptions,
  type RatingsRecord,
} from '@console/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database, FatfImportsTable } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { BackgroundWork } from '../../http/lifecycle.ts';
import { recordEvent } from '../../outbox/index.ts';
import { alpha2OfJurisdiction } from './jurisdictions.ts';

/**
 * FATF ratings import jobs (docs/fatf-import.md). POST api/fatf/import stores the job with its
 * records and answers at once; a runner in each instance that runs background work processes
 * waiting jobs one at a time:
 *
 * - Batch by batch, the records are validated and kept in `fatf_import_rows`, each batch in one
 *   transaction with the job's checkpoint (records processed, skips, errors, progress). Once every
 *   batch is kept, one transaction publishes the kept rows into `fatf_ratings` and completes the
 *   job: until then none of its ratings are visible. Cancelling marks the job; the job sees it at
 *   its next checkpoint or at its publication (under a lock of its row), and its kept rows go:
 *   nothing of a cancelled import remains. A cancel after the publication finds it completed.
 * - A run holds an advisory lock on the job (its connection's, for the whole run): two instances
 *   never run the same job. A job whose run ended without finishing (status still 'processing',
 *   lock free) resumes at its checkpoint, on any instance: a server that stops hands its job over
 *   at the next batch boundary (`signal`); one that died is charged an attempt, and after
 *   MAX_ATTEMPTS interrupted runs the job fails with a message.
 * - A completed import records FatfRatingsImported; the country-risk worker then recomputes the
 *   risk of the countries it rated (risk.ts). A failed one records FatfImportFailed, with its
 *   counts so far and why.
 */

const BATCH_SIZE = 1000;
const MAX_ATTEMPTS = 3;
/** Namespace of the jobs' advisory locks (the job id is the second key). */
const JOB_LOCK = 0x46_41_54_46; // 'FATF'
const POLL_MS = 2000;

/**
 * POST api/fatf/import: stores the job and records who started it; the runner takes it from
 * there (FatfRatingsImported then says what it imported).
 */
export async function startImport(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  request: { records: Record<string, unknown>[]; options: RatingsImportOptions },
): Promise<{ importId: number }> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('fatf_imports')
      .values({
        options: JSON.stringify(request.options),
        records: JSON.stringify(request.records),
        record_count: request.records.length,
        message: 'Waiting to start',
        created_by: actor.email,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordEvent(trx, {
      eventName: 'FatfImportStarted',
      metadata: {
        actor: actor.email,
        action: 'import',
        importId: id,
        target: { type: 'FatfImport', id, name: `FATF import ${id}` },
        after: { status: 'pending', recordCount: request.records.length, options: request.options },
      },
    });
    return { importId: id };
  });
}

/** What a batch's validation skipped, with the reasons. */
interface BatchSkips {
  skipped: number;
  errors: { message: string }[];
}

/** Thrown inside a job's transaction to roll it back and end the job. */
class JobStop extends Error {
  constructor(
    readonly status: 'failed' | 'cancelled',
    message: string,
  ) {
    super(message);
  }
}

/** Runs waiting jobs of this instance's database, one at a time, until stopped. */
export class ImportRunner implements BackgroundWork {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped: Promise<void> | undefined;
  /** Aborted by stop(): the job in hand pauses at its next batch boundary. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: FastifyBaseLogger,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  /** Looks for work now (a job was just stored). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runWaiting()
      .catch((error: unknown) => this.logger.error({ err: error }, 'FATF import runner failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Looks for no more jobs; the job in hand is handed over at its next batch boundary. */
  stop(): Promise<void> {
    this.stopped ??= this.stopRunning();
    return this.stopped;
  }

  private async stopRunning(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.timer);
    await this.running;
    this.logger.info('FATF import jobs stopped');
  }

  /** Settles when no job is running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async runWaiting(): Promise<void> {
    const waiting = await this.db
      .selectFrom('fatf_imports')
      .select('id')
      .where('status', 'in', ['pending', 'processing'])
      .orderBy('id')
      .execute();
    for (const { id } of waiting) {
      if (this.stopped) return;
      const { pausedAt } = await runJob(this.db, id, this.stopping.signal);
      if (pausedAt !== undefined) {
        this.logger.info(
          { importId: id, recordsProcessed: pausedAt },
          `FATF import ${id} paused after ${pausedAt} records: another instance resumes it`,
        );
      }
    }
  }
}

/** What a call of runJob did. */
export interface JobRun {
  /** False when another instance runs the job, or it had ended. */
  ran: boolean;
  /** Set when `signal` stopped the run: the records processed, where the next run resumes. */
  pausedAt?: number;
}

/**
 * Runs job `id` unless another instance is running it, until it ends or `signal` asks it to stop
 * (it then pauses at its next batch boundary). Exported for tests, which run jobs without a
 * runner.
 */
export async function runJob(
  db: Kysely<Database>,
  id: number,
  signal?: AbortSignal,
): Promise<JobRun> {
  return db.connection().execute(async (connection) => {
    const { locked } = (
      await sql<{
        locked: boolean;
      }>`select pg_try_advisory_lock(${JOB_LOCK}, ${id}) as locked`.execute(connection)
    ).rows[0] ?? { locked: false };
    if (!locked) return { ran: false };
    try {
      return await runLocked(connection, id, signal);
    } catch (error) {
      if (!(error instanceof JobStop)) throw error;
      await end(connection, id, error.status, error.message);
      return { ran: true };
    } finally {
      await sql`select pg_advisory_unlock(${JOB_LOCK}, ${id})`.execute(connection);
    }
  });
}

async function runLocked(
  db: Kysely<Database>,
  id: number,
  signal: AbortSignal | undefined,
): Promise<JobRun> {
  const job = await begin(db, id);
  if (!job) return { ran: false };
  const { records, options } = job;
  const latest = await latestKeptDates(db, id, options);
  for (let start = job.processed; start < records.length; start += BATCH_SIZE) {
    if (signal?.aborted) return pause(db, id, start, records.length);
    await db.transaction().execute(async (trx) => {
      const batch = records.slice(start, start + BATCH_SIZE);
      const skips: BatchSkips = { skipped: 0, errors: [] };
      const accepted = await acceptBatch(trx, batch, start, options, skips, latest);
      await keepBatch(trx, id, accepted);
      await checkpoint(trx, id, start + batch.length, records.length, skips);
    });
  }
  await db.transaction().execute((trx) => publish(trx, id, options, job.createdBy));
  return { ran: true };
}

/**
 * Marks the job as processing (visible at once) and answers its input and checkpoint; null when
 * it is over.
 */
async function begin(db: Kysely<Database>, id: number) {
  const job = await db
    .updateTable('fatf_imports')
    .set({
      status: 'processing',
      attempts: sql<number>`attempts + 1`,
      started_at: sql<Date>`coalesce(started_at, now())`,
      message: 'Validating and importing records',
    })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'processing'])
    .returning(['records', 'options', 'attempts', 'created_by', 'records_processed'])
    .executeTakeFirst();
  if (!job) return null;
  if (job.attempts > MAX_ATTEMPTS) {
    throw new JobStop(
      'failed',
      `Import interrupted ${MAX_ATTEMPTS} times (server restarts); nothing was imported. Start it again.`,
    );
  }
  return {
    records: job.records ?? [],
    options: job.options,
    createdBy: job.created_by,
    processed: job.records_processed,
  };
}

/**
 * A run that stops hands the job over: still processing, its lock released by the caller, and
 * the run not charged as an interrupted attempt.
 */
async function pause(
  db: Kysely<Database>,
  id: number,
  processed: number,
  total: number,
): Promise<JobRun> {
  await db
    .updateTable('fatf_imports')
    .set({
      attempts: sql<number>`attempts - 1`,
      message: `Paused after ${processed} of ${total} records while its server stopped; another server resumes it`,
    })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .execute();
  return { ran: true, pausedAt: processed };
}

/**
 * The chronology rule's latest report date per jurisdiction of the records this job kept before
 * it was resumed (empty on a first run, or without the rule).
 */
async function latestKeptDates(
  db: Kysely<Database>,
  id: number,
  options: RatingsImportOptions,
): Promise<Map<string, string>> {
  if (!options.validateChronology) return new Map();
  const { rows } = await sql<{ key: string; latest: string }>`
    select lower(jurisdiction) as key, max(report_date) as latest
    from fatf_import_rows
    where import_id = ${id}
    group by lower(jurisdiction)
  `.execute(db);
  return new Map(rows.map((row) => [row.key, row.latest]));
}

/** The records of a batch that pass the schema and the chronology rule, with their index. */
async function acceptBatch(
  trx: Kysely<Database>,
  batch: readonly Record<string, unknown>[],
  offset: number,
  options: RatingsImportOptions,
  skips: BatchSkips,
  latest: Map<string, string>,
): Promise<Accepted[]> {
  const valid: Accepted[] = [];
  batch.forEach((raw, at) => {
    const parsed = parseRatingsRecord(raw);
    if (parsed.success) {
      valid.push({ record: parsed.data, index: offset + at });
      return;
    }
    const issue = parsed.error.issues[0];
    const message = `Record ${offset + at + 1}: ${String(issue?.path[0] ?? 'record')}: ${issue?.message ?? 'invalid'}`;
    if (!options.skipInvalidRecords) throw new JobStop('failed', message);
    skips.skipped += 1;
    skips.errors.push({ message });
  });
  if (!options.validateChronology) return valid;
  await loadLatestDates(trx, valid, latest);
  return valid.filter(({ record, index }) => {
    const key = record.jurisdiction.toLowerCase();
    const before = latest.get(key);
    if (before && record.reportDate < before) {
      skips.skipped += 1;
      skips.errors.push({
        message: `Record ${index + 1}: report date ${record.reportDate} is before the latest report of ${record.jurisdiction} (${before})`,
      });
      return false;
    }
    latest.set(key, record.reportDate);
    return true;
  });
}

/** A record that passed the rules, with its index in the job's records. */
interface Accepted {
  record: RatingsRecord;
  index: number;
}

/** The latest stored report date of each jurisdiction of `valid` not yet known. */
async function loadLatestDates(
  trx: Kysely<Database>,
  valid: readonly Accepted[],
  latest: Map<string, string>,
): Promise<void> {
  const unknown = [...new Set(valid.map(({ record }) => record.jurisdiction.toLowerCase()))].filter(
    (key) => !latest.has(key),
  );
  if (unknown.length === 0) return;
  const { rows } = await sql<{ key: string; latest: string }>`
    select lower(jurisdiction) as key, max(report_date) as latest
    from fatf_ratings
    where lower(jurisdiction) = any(${unknown}::text[])
    group by lower(jurisdiction)
  `.execute(trx);
  for (const row of rows) latest.set(row.key, row.latest);
}

/** Keeps the accepted records of a batch in their stored form (one statement, as JSON). */
async function keepBatch(
  trx: Kysely<Database>,
  id: number,
  accepted: readonly Accepted[],
): Promise<void> {
  if (accepted.length === 0) return;
  const input = accepted.map(({ record, index }) => ({ position: index, ...toRow(record) }));
  await sql`
    insert into fatf_import_rows
    select ${id}, input.*
    from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as input(position integer,
      jurisdiction text, report_type text, report_date date, assessment_body text,
      effectiveness jsonb, compliance jsonb, upgrades integer, downgrades integer,
      valid_from date, valid_to date, country_code text, report_url text, alpha2 text)
  `.execute(trx);
}

/**
 * The job's checkpoint, committed with the batch it follows; a cancelled job rolls the batch
 * back instead.
 */
async function checkpoint(
  trx: Kysely<Database>,
  id: number,
  processed: number,
  total: number,
  skips: BatchSkips,
): Promise<void> {
  const job = await trx
    .updateTable('fatf_imports')
    .set({
      // 99 at most until the publication: 100 means done.
      progress: Math.min(99, Math.floor((processed / total) * 100)),
      records_processed: processed,
      records_skipped: sql<number>`records_skipped + ${skips.skipped}`,
      errors: sql<string>`errors || ${JSON.stringify(skips.errors)}::jsonb`,
      message: `Processed ${processed} of ${total} records`,
    })
    .where('id', '=', id)
    .returning('status')
    .executeTakeFirst();
  if (job?.status === 'cancelled') throw new JobStop('cancelled', 'Import cancelled by user');
}

/**
 * Publishes the kept rows into fatf_ratings, in the records' order and in batches as they were
 * kept (a report twice in one statement could not be overwritten twice), completes the job and
 * records its event: one transaction, under a lock of the job's row that a cancel waits for.
 */
async function publish(
  trx: Kysely<Database>,
  id: number,
  options: RatingsImportOptions,
  createdBy: string,
): Promise<void> {
  const job = await trx
    .selectFrom('fatf_imports')
    .select(['status', 'record_count'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (job.status === 'cancelled') throw new JobStop('cancelled', 'Import cancelled by user');
  const onConflict = options.overwriteExisting
    ? sql`do update set assessment_body = excluded.assessment_body,
        effectiveness = excluded.effectiveness, compliance = excluded.compliance,
        upgrades = excluded.upgrades, downgrades = excluded.downgrades,
        valid_from = excluded.valid_from, valid_to = excluded.valid_to,
        country_code = excluded.country_code, report_url = excluded.report_url,
        country_id = excluded.country_id, import_id = excluded.import_id, updated_at = now()`
    : sql`do nothing`;
  let kept = 0;
  let imported = 0;
  const countryIds = new Set<number>();
  for (let start = 0; start < job.record_count; start += BATCH_SIZE) {
    const { rows } = await sql<{ kept: number; imported: number; country_ids: number[] }>`
      with batch as (
        select * from fatf_import_rows
        where import_id = ${id} and position >= ${start} and position < ${start + BATCH_SIZE}
      ),
      written as (
        insert into fatf_ratings (jurisdiction, country_id, report_type, report_date,
          assessment_body, effectiveness, compliance, upgrades, downgrades, valid_from, valid_to,
          country_code, report_url, import_id)
        select batch.jurisdiction, coalesce(by_alpha2.id, by_alpha3.id, by_name.id),
          batch.report_type, batch.report_date, batch.assessment_body, batch.effectiveness,
          batch.compliance, batch.upgrades, batch.downgrades, batch.valid_from, batch.valid_to,
          batch.country_code, batch.report_url, ${id}
        from batch
        -- The country by its alpha-2 code, else its alpha-3 code, else its name: each a join of
        -- at most one row that PostgreSQL hashes once per batch. A lateral search per record
        -- (an OR of the three) read every country for every record of a file without codes.
        left join countries as by_alpha2 on by_alpha2.alpha2 = batch.alpha2
        left join countries as by_alpha3 on by_alpha3.alpha3 = batch.country_code
        left join (
          select distinct on (lower(name)) id, lower(name) as name
          from countries
          order by lower(name), id
        ) as by_name on by_name.name = lower(batch.jurisdiction)
        order by batch.position
        on conflict (lower(jurisdiction), report_type, report_date) ${onConflict}
        returning country_id
      )
      select (select count(*) from batch)::int as kept,
        (select count(*) from written)::int as imported,
        array(select distinct country_id from written where country_id is not null) as country_ids
    `.execute(trx);
    const row = rows[0];
    kept += row?.kept ?? 0;
    imported += row?.imported ?? 0;
    for (const countryId of row?.country_ids ?? []) countryIds.add(countryId);
  }
  await trx.deleteFrom('fatf_import_rows').where('import_id', '=', id).execute();
  const completed = await trx
    .updateTable('fatf_imports')
    .set({
      status: 'completed',
      progress: 100,
      message: `Imported ${imported} of ${job.record_count} records`,
      records: null,
      records_imported: imported,
      // Besides the records the rules refused: those already stored (without overwriting).
      records_skipped: sql<number>`records_skipped + ${kept - imported}`,
      finished_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .returning('records_skipped')
    .executeTakeFirstOrThrow();
  await recordEvent(trx, {
    eventName: 'FatfRatingsImported',
    metadata: {
      actor: createdBy,
      action: 'import',
      importId: id,
      recordsImported: imported,
      recordsSkipped: completed.records_skipped,
      countryIds: [...countryIds].sort((a, b) => a - b),
      target: { type: 'FatfImport', id, name: `FATF import ${id}` },
      after: {
        status: 'completed',
        recordCount: job.record_count,
        recordsImported: imported,
        recordsSkipped: completed.records_skipped,
      },
    },
  });
}

function toRow(record: RatingsRecord) {
  const effectiveness: Record<string, string> = {};
  const compliance: Record<string, string> = {};
  for (const [field, value] of Object.entries(record)) {
    if (typeof value !== 'string') continue;
    if (/^io\d+$/.test(field)) effectiveness[field] = value;
    else if (/^r\d+$/.test(field)) compliance[field] = value;
  }
  return {
    jurisdiction: record.jurisdiction,
    report_type: record.reportType,
    report_date: record.reportDate,
    assessment_body: record.assessmentBody,
    effectiveness,
    compliance,
    upgrades: record.upgrades ?? null,
    downgrades: record.downgrades ?? null,
    valid_from: record.validFrom ?? null,
    valid_to: record.validTo ?? null,
    country_code: record.countryCode ?? null,
    report_url: record.reportUrl ?? null,
    alpha2:
      record.countryCode?.length === 2
        ? record.countryCode
        : alpha2OfJurisdiction(record.jurisdiction),
  };
}

/**
 * A failed or cancelled job: its records and kept rows dropped, its message kept. A failure
 * records FatfImportFailed with it (a cancel has its event from the one who cancelled).
 */
async function end(
  db: Kysely<Database>,
  id: number,
  status: 'failed' | 'cancelled',
  message: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const job = await trx
      .updateTable('fatf_imports')
      .set({ status, message, records: null, finished_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'processing', status])
      .returning(['created_by', 'record_count', 'records_processed', 'records_skipped'])
      .executeTakeFirst();
    if (job && status === 'failed') await recordFailure(trx, id, job, message);
  });
  await dropKeptRows(db, id);
}

/**
 * A failed job in the audit log: its counts when it stopped (nothing of it was published) and
 * why. Keyed by the job, so a job ended twice is recorded once.
 */
async function recordFailure(
  trx: Kysely<Database>,
  id: number,
  job: Pick<
    Selectable<FatfImportsTable>,
    'created_by' | 'record_count' | 'records_processed' | 'records_skipped'
  >,
  message: string,
): Promise<void> {
  await recordEvent(trx, {
    eventName: 'FatfImportFailed',
    uniqueId: `fatf-import-${id}-failed`,
    metadata: {
      actor: job.created_by,
      action: 'import',
      importId: id,
      target: { type: 'FatfImport', id, name: `FATF import ${id}` },
      after: {
        status: 'failed',
        recordCount: job.record_count,
        recordsProcessed: job.records_processed,
        recordsSkipped: job.records_skipped,
        recordsImported: 0,
        message,
      },
    },
  });
}

/**
 * DELETE api/fatf/import/{id}: marks a pending or running job cancelled; its run rolls back at
 * its next checkpoint. 404 unknown; 409 once it has ended (a completed import stays).
 */
export async function cancelImport(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: number,
): Promise<void> {
  const cancelled = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('fatf_imports')
      .set({ status: 'cancelled', message: 'Import cancelled by user' })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'processing'])
      .returning(['id', 'record_count'])
      .executeTakeFirst();
    if (row) {
      await recordEvent(trx, {
        eventName: 'FatfImportCancelled',
        metadata: {
          actor: actor.email,
          action: 'cancel',
          importId: id,
          target: { type: 'FatfImport', id, name: `FATF import ${id}` },
          after: { status: 'cancelled', recordCount: row.record_count },
        },
      });
    }
    return row;
  });
  if (cancelled) {
    // A job paused by a stopping server has no run to drop its kept rows. A statement of its
    // own, after the cancel committed: it sees every batch kept before (a batch kept after it
    // sees the cancel at its checkpoint and rolls back).
    await dropKeptRows(db, id);
    return;
  }
  const job = await db
    .selectFrom('fatf_imports')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!job) throw notFound(`Import ${id} not found.`);
  throw conflict(`Import ${id} has already ended (${job.status}); it cannot be cancelled.`);
}

async function dropKeptRows(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('fatf_import_rows').where('import_id', '=', id).execute();
}
