import {
  ratingsRecordSchema,
  type RatingsImportOptions,
  type RatingsRecord,
} from '@console/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { BackgroundWork } from '../../http/lifecycle.ts';
import { recordEvent } from '../../outbox/index.ts';
import { alpha2OfJurisdiction } from './jurisdictions.ts';

/**
 * FATF ratings import jobs (docs/fatf-import.md). POST api/fatf/import stores the job with its
 * records and answers at once; a runner in each instance that runs background work processes
 * waiting jobs one at a time:
 *
 * - The job's writes are ONE transaction, in batches, with progress (0-100) written beside it on
 *   another connection so that status calls see it. Cancelling marks the job; the job checks
 *   between batches and at its end (under a lock of its row) and rolls back: nothing of a
 *   cancelled import remains. A cancel that comes after the commit finds the job completed.
 * - The transaction holds an advisory lock on the job: two instances never run the same job. A
 *   job whose process died (status still 'processing', lock free) is run again from its stored
 *   records, by any instance; after MAX_ATTEMPTS interrupted runs it fails with a message.
 * - A completed import records FatfRatingsImported; the country-risk worker then recomputes the
 *   risk of the countries it rated (risk.ts).
 */

const BATCH_SIZE = 1000;
const MAX_ATTEMPTS = 3;
/** Namespace of the jobs' advisory locks (the job id is the second key). */
const JOB_LOCK = 0x46_41_54_46; // 'FATF'
const POLL_MS = 2000;

/** POST api/fatf/import: stores the job; the runner takes it from there. */
export async function startImport(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  request: { records: Record<string, unknown>[]; options: RatingsImportOptions },
): Promise<{ importId: number }> {
  const { id } = await db
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
  return { importId: id };
}

/** Outcome of one record, in file order. */
interface Tally {
  processed: number;
  imported: number;
  skipped: number;
  errors: { message: string }[];
  countryIds: Set<number>;
}

/** Thrown inside the job transaction to roll it back. */
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

  stop(): Promise<void> {
    this.stopped ??= this.stopRunning();
    return this.stopped;
  }

  private async stopRunning(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
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
      await runJob(this.db, id);
    }
  }
}

/**
 * Runs job `id` unless another instance is running it. Answers whether this call ran it.
 * Exported for tests, which run jobs without a runner.
 */
export async function runJob(db: Kysely<Database>, id: number): Promise<boolean> {
  let ran = false;
  let stop: JobStop | undefined;
  try {
    await db.transaction().execute(async (trx) => {
      const { locked } = (
        await sql<{
          locked: boolean;
        }>`select pg_try_advisory_xact_lock(${JOB_LOCK}, ${id}) as locked`.execute(trx)
      ).rows[0] ?? { locked: false };
      if (!locked) return;
      const job = await begin(db, id);
      if (!job) return;
      ran = true;
      const tally = await importRecords(db, trx, id, job.records, job.options);
      await finish(trx, id, tally, job.createdBy);
    });
  } catch (error) {
    if (!(error instanceof JobStop)) throw error;
    stop = error;
  }
  if (stop) await end(db, id, stop.status, stop.message);
  return ran;
}

/** Marks the job as processing (visible at once) and answers its input; null when it is over. */
async function begin(db: Kysely<Database>, id: number) {
  const job = await db
    .updateTable('fatf_imports')
    .set({
      status: 'processing',
      attempts: sql<number>`attempts + 1`,
      started_at: sql<Date>`coalesce(started_at, now())`,
      progress: 0,
      message: 'Validating and importing records',
    })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'processing'])
    .returning(['records', 'options', 'attempts', 'created_by'])
    .executeTakeFirst();
  if (!job) return null;
  if (job.attempts > MAX_ATTEMPTS) {
    throw new JobStop(
      'failed',
      `Import interrupted ${MAX_ATTEMPTS} times (server restarts); nothing was imported. Start it again.`,
    );
  }
  return { records: job.records ?? [], options: job.options, createdBy: job.created_by };
}

/** Validates and writes every record, in batches, checking for a cancel between them. */
async function importRecords(
  db: Kysely<Database>,
  trx: Kysely<Database>,
  id: number,
  records: readonly Record<string, unknown>[],
  options: RatingsImportOptions,
): Promise<Tally> {
  const tally: Tally = { processed: 0, imported: 0, skipped: 0, errors: [], countryIds: new Set() };
  const latest = new Map<string, string>();
  for (let start = 0; start < records.length; start += BATCH_SIZE) {
    const batch = records.slice(start, start + BATCH_SIZE);
    const accepted = await acceptBatch(trx, batch, start, options, tally, latest);
    await writeBatch(trx, id, accepted, options, tally);
    tally.processed += batch.length;
    await reportProgress(db, id, tally.processed, records.length);
  }
  return tally;
}

/** The records of a batch that pass the schema and the chronology rule, with their index. */
async function acceptBatch(
  trx: Kysely<Database>,
  batch: readonly Record<string, unknown>[],
  offset: number,
  options: RatingsImportOptions,
  tally: Tally,
  latest: Map<string, string>,
): Promise<RatingsRecord[]> {
  const valid: { record: RatingsRecord; index: number }[] = [];
  batch.forEach((raw, at) => {
    const parsed = ratingsRecordSchema.safeParse(raw);
    if (parsed.success) {
      valid.push({ record: parsed.data, index: offset + at });
      return;
    }
    const issue = parsed.error.issues[0];
    const message = `Record ${offset + at + 1}: ${String(issue?.path[0] ?? 'record')}: ${issue?.message ?? 'invalid'}`;
    if (!options.skipInvalidRecords) throw new JobStop('failed', message);
    tally.skipped += 1;
    tally.errors.push({ message });
  });
  if (!options.validateChronology) return valid.map(({ record }) => record);
  await loadLatestDates(trx, valid, latest);
  return valid
    .filter(({ record, index }) => {
      const key = record.jurisdiction.toLowerCase();
      const before = latest.get(key);
      if (before && record.reportDate < before) {
        tally.skipped += 1;
        tally.errors.push({
          message: `Record ${index + 1}: report date ${record.reportDate} is before the latest report of ${record.jurisdiction} (${before})`,
        });
        return false;
      }
      latest.set(key, record.reportDate);
      return true;
    })
    .map(({ record }) => record);
}

/** The latest stored report date of each jurisdiction of `valid` not yet known. */
async function loadLatestDates(
  trx: Kysely<Database>,
  valid: readonly { record: RatingsRecord }[],
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

/** One statement for the batch (records as one JSON parameter, like the other imports). */
async function writeBatch(
  trx: Kysely<Database>,
  id: number,
  records: readonly RatingsRecord[],
  options: RatingsImportOptions,
  tally: Tally,
): Promise<void> {
  if (records.length === 0) return;
  const input = records.map((record) => toRow(record));
  const onConflict = options.overwriteExisting
    ? sql`do update set assessment_body = excluded.assessment_body,
        effectiveness = excluded.effectiveness, compliance = excluded.compliance,
        upgrades = excluded.upgrades, downgrades = excluded.downgrades,
        valid_from = excluded.valid_from, valid_to = excluded.valid_to,
        country_code = excluded.country_code, report_url = excluded.report_url,
        country_id = excluded.country_id, import_id = excluded.import_id, updated_at = now()`
    : sql`do nothing`;
  const { rows } = await sql<{ country_id: number | null }>`
    insert into fatf_ratings (jurisdiction, country_id, report_type, report_date, assessment_body,
      effectiveness, compliance, upgrades, downgrades, valid_from, valid_to, country_code,
      report_url, import_id)
    select input.jurisdiction, country.id, input.report_type, input.report_date,
      input.assessment_body, input.effectiveness, input.compliance, input.upgrades,
      input.downgrades, input.valid_from, input.valid_to, input.country_code, input.report_url,
      ${id}
    from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as input(jurisdiction text,
      report_type text, report_date date, assessment_body text, effectiveness jsonb,
      compliance jsonb, upgrades integer, downgrades integer, valid_from date, valid_to date,
      country_code text, report_url text, alpha2 text)
    left join lateral (
      select id from countries
      where countries.alpha2 = input.alpha2 or countries.alpha3 = input.country_code
        or lower(countries.name) = lower(input.jurisdiction)
      order by countries.alpha2 = input.alpha2 desc
      limit 1
    ) as country on true
    on conflict (lower(jurisdiction), report_type, report_date) ${onConflict}
    returning country_id
  `.execute(trx);
  tally.imported += rows.length;
  tally.skipped += records.length - rows.length;
  for (const row of rows) if (row.country_id !== null) tally.countryIds.add(row.country_id);
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

/** Progress on its own connection: the job's transaction is not visible until it ends. */
async function reportProgress(
  db: Kysely<Database>,
  id: number,
  processed: number,
  total: number,
): Promise<void> {
  const job = await db
    .updateTable('fatf_imports')
    .set({
      // 99 at most until the commit: 100 means done.
      progress: Math.min(99, Math.floor((processed / total) * 100)),
      records_processed: processed,
      message: `Processed ${processed} of ${total} records`,
    })
    .where('id', '=', id)
    .returning('status')
    .executeTakeFirst();
  if (job?.status === 'cancelled') throw new JobStop('cancelled', 'Import cancelled by user');
}

/** Ends the job in its own transaction, under a lock of its row that a cancel waits for. */
async function finish(
  trx: Kysely<Database>,
  id: number,
  tally: Tally,
  createdBy: string,
): Promise<void> {
  const job = await trx
    .selectFrom('fatf_imports')
    .select('status')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (job.status === 'cancelled') throw new JobStop('cancelled', 'Import cancelled by user');
  await trx
    .updateTable('fatf_imports')
    .set({
      status: 'completed',
      progress: 100,
      message: `Imported ${tally.imported} of ${tally.processed} records`,
      records: null,
      records_processed: tally.processed,
      records_imported: tally.imported,
      records_skipped: tally.skipped,
      errors: JSON.stringify(tally.errors),
      finished_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .execute();
  await recordEvent(trx, {
    eventName: 'FatfRatingsImported',
    metadata: {
      actor: createdBy,
      action: 'import',
      importId: id,
      recordsImported: tally.imported,
      recordsSkipped: tally.skipped,
      countryIds: [...tally.countryIds].sort((a, b) => a - b),
    },
  });
}

/** A failed or cancelled job: its records dropped, its message kept. */
async function end(
  db: Kysely<Database>,
  id: number,
  status: 'failed' | 'cancelled',
  message: string,
): Promise<void> {
  await db
    .updateTable('fatf_imports')
    .set({ status, message, records: null, finished_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'processing', status])
    .execute();
}

/**
 * DELETE api/fatf/import/{id}: marks a pending or running job cancelled; its run rolls back at
 * its next batch. 404 unknown; 409 once it has ended (a completed import stays).
 */
export async function cancelImport(db: Kysely<Database>, id: number): Promise<void> {
  const cancelled = await db
    .updateTable('fatf_imports')
    .set({ status: 'cancelled', message: 'Import cancelled by user' })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'processing'])
    .returning('id')
    .executeTakeFirst();
  if (cancelled) return;
  const job = await db
    .selectFrom('fatf_imports')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!job) throw notFound(`Import ${id} not found.`);
  throw conflict(`Import ${id} has already ended (${job.status}); it cannot be cancelled.`);
}
