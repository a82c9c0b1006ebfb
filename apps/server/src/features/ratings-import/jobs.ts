import { setImmediate } from 'node:timers/promises';
import {
  COMPLIANCE_FIELDS,
  EFFECTIVENESS_FIELDS,
  parseRatingsRecord,
  type ComplianceField,
  type EffectivenessField,
  type RatingsImportOptions,
  type RatingsRecord,
} from '@console/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import { copyInto, type CopyValue } from '../../db/copy.ts';
import type { Database, FatfImportsTable } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { BackgroundWork } from '../../http/lifecycle.ts';
import { recordEvent } from '../../outbox/index.ts';
import { alpha2OfJurisdiction } from './jurisdictions.ts';

/**
 * FATF ratings import jobs (docs/fatf-import.md).
 *
 * - POST api/fatf/import validates the records (the record schema's rules, skipInvalidRecords)
 *   and keeps the valid ones in their stored form (`fatf_import_rows`, by COPY), with the job and
 *   its skips and errors, in one transaction before it answers: that is the job's checkpoint. No
 *   copy of the request is kept.
 * - A runner in each instance that runs background work takes waiting jobs one at a time. A job
 *   is one transaction that applies the chronology and overwrite rules to the kept rows in SQL,
 *   publishes them into `fatf_ratings`, drops them and completes the job: until then none of its
 *   ratings are visible. Cancelling marks the job; the publication looks at the mark under a
 *   lock of the job's row before it commits and rolls back when it is there, and the kept rows
 *   go: nothing of a cancelled import remains.
 * - A run holds an advisory lock on the job (its connection's, for the whole run): two instances
 *   never run the same job. A job whose run ended without finishing (status still 'processing',
 *   lock free) is run again from its kept rows, on any instance: a server that stops hands over
 *   a job it has not begun to publish (a publication once begun runs to its end); one that died
 *   is charged an attempt, and after MAX_ATTEMPTS interrupted runs the job fails with a message.
 * - A completed import records FatfRatingsImported; the country-risk worker then recomputes the
 *   risk of the countries it rated (risk.ts). A failed one records FatfImportFailed, with its
 *   counts so far and why.
 */

const MAX_ATTEMPTS = 3;
/** Namespace of the jobs' advisory locks (the job id is the second key). */
const JOB_LOCK = 0x46_41_54_46; // 'FATF'
const POLL_MS = 2000;
/** A job's progress while it publishes: its records were validated when it was stored. */
const PUBLISHING_PROGRESS = 50;

/** The records of a request as the job keeps them, and what validation refused. */
interface Validated {
  accepted: Accepted[];
  errors: { message: string }[];
}

/** A record that passed the schema, with its index in the request's records. */
interface Accepted {
  record: RatingsRecord;
  index: number;
}

/** Records validated between two turns of the event loop, which other requests get meanwhile. */
const VALIDATED_PER_TURN = 1000;

/**
 * Every record through the record schema (its plain-record reading first); without
 * skipInvalidRecords the first invalid record ends the reading, and the job then fails with it.
 */
async function validate(
  records: readonly Record<string, unknown>[],
  options: RatingsImportOptions,
): Promise<Validated> {
  const validated: Validated = { accepted: [], errors: [] };
  for (let index = 0; index < records.length; index++) {
    if (index > 0 && index % VALIDATED_PER_TURN === 0) await setImmediate();
    const parsed = parseRatingsRecord(records[index]!);
    if (parsed.success) {
      validated.accepted.push({ record: parsed.data, index });
      continue;
    }
    const issue = parsed.error.issues[0];
    const message = `Record ${index + 1}: ${String(issue?.path[0] ?? 'record')}: ${issue?.message ?? 'invalid'}`;
    validated.errors.push({ message });
    if (!options.skipInvalidRecords) return { accepted: [], errors: validated.errors };
  }
  return validated;
}

/**
 * POST api/fatf/import: validates the records, stores the job with the valid ones in their
 * stored form, and records who started it; the runner takes it from there
 * (FatfRatingsImported then says what it imported).
 */
export async function startImport(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  request: { records: Record<string, unknown>[]; options: RatingsImportOptions },
): Promise<{ importId: number }> {
  const { records, options } = request;
  const { accepted, errors } = await validate(records, options);
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('fatf_imports')
      .values({
        options: JSON.stringify(options),
        record_count: records.length,
        records_processed: records.length,
        records_skipped: errors.length,
        errors: JSON.stringify(errors),
        message: 'Waiting to start',
        created_by: actor.email,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (accepted.length > 0) {
      await trx.executeQuery(copyInto('fatf_import_rows', KEPT_COLUMNS, keptRows(id, accepted)));
    }
    await recordEvent(trx, {
      eventName: 'FatfImportStarted',
      metadata: {
        actor: actor.email,
        action: 'import',
        importId: id,
        target: { type: 'FatfImport', id, name: `FATF import ${id}` },
        after: { status: 'pending', recordCount: records.length, options },
      },
    });
    return { importId: id };
  });
}

const KEPT_COLUMNS = [
  'import_id',
  'position',
  'jurisdiction',
  'report_type',
  'report_date',
  'assessment_body',
  'effectiveness',
  'compliance',
  'upgrades',
  'downgrades',
  'valid_from',
  'valid_to',
  'country_code',
  'report_url',
  'alpha2',
] as const;

/** The COPY rows of the accepted records, in KEPT_COLUMNS' order, made as they are sent. */
function* keptRows(id: number, accepted: readonly Accepted[]): Generator<CopyValue[]> {
  for (const { record, index } of accepted) {
    yield [
      id,
      index,
      record.jurisdiction,
      record.reportType,
      record.reportDate,
      record.assessmentBody,
      ratingsJson(record, EFFECTIVENESS_FIELDS),
      ratingsJson(record, COMPLIANCE_FIELDS),
      record.upgrades ?? null,
      record.downgrades ?? null,
      record.validFrom ?? null,
      record.validTo ?? null,
      record.countryCode ?? null,
      record.reportUrl ?? null,
      record.countryCode?.length === 2
        ? record.countryCode
        : alpha2OfJurisdiction(record.jurisdiction),
    ];
  }
}

/**
 * The ratings of `fields` as a JSON object ({"io1":"SE",...}), the fields without a rating left
 * out. Written by hand: the names and the codes are the schema's own, which need no escaping.
 */
function ratingsJson(
  record: RatingsRecord,
  fields: readonly (EffectivenessField | ComplianceField)[],
): string {
  let json = '';
  for (const field of fields) {
    const code = record[field];
    if (code !== undefined) json += `${json ? ',' : ''}"${field}":"${code}"`;
  }
  return `{${json}}`;
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
  /** Aborted by stop(): a job taken but not yet publishing is handed over. */
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

  /** Looks for no more jobs; a job being published is published first. */
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
      const { paused } = await runJob(this.db, id, this.stopping.signal);
      if (paused) {
        this.logger.info({ importId: id }, `FATF import ${id} paused: another instance runs it`);
      }
    }
  }
}

/** What a call of runJob did. */
export interface JobRun {
  /** False when another instance runs the job, or it had ended. */
  ran: boolean;
  /** True when `signal` stopped the run before its publication: another run takes the job. */
  paused?: boolean;
}

/**
 * Runs job `id` unless another instance is running it, until it ends, or until `signal` asks it
 * to stop before its publication has begun. Exported for tests, which run jobs without a runner.
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
  if (signal?.aborted) return pause(db, id);
  await db.transaction().execute((trx) => publish(trx, id, job));
  return { ran: true };
}

/** What a job's publication needs of its row. */
interface Job {
  options: RatingsImportOptions;
  createdBy: string;
  recordCount: number;
}

/**
 * Marks the job as processing (visible at once) and answers what its publication needs; null
 * when it is over. A job whose validation found an invalid record without skipInvalidRecords
 * fails here, with that record's error.
 */
async function begin(db: Kysely<Database>, id: number): Promise<Job | null> {
  const job = await db
    .updateTable('fatf_imports')
    .set({
      status: 'processing',
      attempts: sql<number>`attempts + 1`,
      started_at: sql<Date>`coalesce(started_at, now())`,
      progress: PUBLISHING_PROGRESS,
      message: 'Importing the validated records',
    })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'processing'])
    .returning(['options', 'attempts', 'created_by', 'record_count'])
    .returning(sql<string | null>`errors -> 0 ->> 'message'`.as('first_error'))
    .executeTakeFirst();
  if (!job) return null;
  if (job.attempts > MAX_ATTEMPTS) {
    throw new JobStop(
      'failed',
      `Import interrupted ${MAX_ATTEMPTS} times (server restarts); nothing was imported. Start it again.`,
    );
  }
  if (!job.options.skipInvalidRecords && job.first_error !== null) {
    throw new JobStop('failed', job.first_error);
  }
  return { options: job.options, createdBy: job.created_by, recordCount: job.record_count };
}

/**
 * A run that stops hands the job over: still processing, its lock released by the caller, and
 * the run not charged as an interrupted attempt.
 */
async function pause(db: Kysely<Database>, id: number): Promise<JobRun> {
  await db
    .updateTable('fatf_imports')
    .set({
      attempts: sql<number>`attempts - 1`,
      message: 'Paused while its server stopped; another server imports it',
    })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .execute();
  return { ran: true, paused: true };
}

/** What the publishing statement answers. */
interface Published {
  /** Kept rows, records that passed the schema. */
  kept: number;
  /** Of those, the ones the chronology rule refused, with their errors. */
  refused: number;
  refused_errors: { message: string }[];
  /** The reports left once a report given twice in the file is one (see `chosen` below). */
  chosen: number;
  /** Rows inserted or overwritten. */
  written: number;
  country_ids: number[];
}

/**
 * Publishes the job's kept rows into fatf_ratings, completes the job and records its event: one
 * transaction. A cancel is seen at its end, under a lock of the job's row: one made while the
 * rows were written rolls them back, one made later waits for the commit and finds the job
 * completed.
 */
async function publish(trx: Kysely<Database>, id: number, job: Job): Promise<void> {
  const published = (await publishingStatement(id, job.options).execute(trx)).rows[0]!;
  await dropKeptRows(trx, id);
  const { status } = await trx
    .selectFrom('fatf_imports')
    .select('status')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (status === 'cancelled') throw new JobStop('cancelled', 'Import cancelled by user');
  // Records are imported in the file's order: a report given twice is written twice when
  // overwriting (the later one wins), and skipped the second time otherwise.
  const imported =
    published.written +
    (job.options.overwriteExisting ? published.kept - published.refused - published.chosen : 0);
  const skipped = published.kept - imported;
  const completed = await trx
    .updateTable('fatf_imports')
    .set({
      status: 'completed',
      progress: 100,
      message: `Imported ${imported} of ${job.recordCount} records`,
      records_imported: imported,
      // Besides the records the schema refused: those the chronology rule refused and those
      // already stored (without overwriting).
      records_skipped: sql<number>`records_skipped + ${skipped}`,
      errors: sql<string>`errors || ${JSON.stringify(published.refused_errors)}::jsonb`,
      finished_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .returning('records_skipped')
    .executeTakeFirstOrThrow();
  await recordEvent(trx, {
    eventName: 'FatfRatingsImported',
    metadata: {
      actor: job.createdBy,
      action: 'import',
      importId: id,
      recordsImported: imported,
      recordsSkipped: completed.records_skipped,
      countryIds: [...published.country_ids].sort((a, b) => a - b),
      target: { type: 'FatfImport', id, name: `FATF import ${id}` },
      after: {
        status: 'completed',
        recordCount: job.recordCount,
        recordsImported: imported,
        recordsSkipped: completed.records_skipped,
      },
    },
  });
}

/**
 * One statement that applies the job's rules to its kept rows and writes them. The rules read a
 * narrow copy of the rows (position, report key, date): sorting whole rows with their 51 ratings
 * would take far more memory than a sort is given.
 *
 * - Chronology: a record dated before the latest report of its jurisdiction, stored or earlier in
 *   the file, is refused. The latest report before a record is the latest of those stored and of
 *   the file's earlier records (a refused one is older than that latest, so counting it changes
 *   nothing): a window over the file's order.
 * - A report given twice in the file is written once: the last one, when overwriting (each would
 *   have overwritten the one before; the first one's spelling of the jurisdiction stays, as an
 *   overwrite keeps the stored one), else the first one (the next would have been skipped).
 * - Each row's country: by its alpha-2 code, else its alpha-3 code, else its name; each a join
 *   of at most one row that PostgreSQL hashes once. A lateral search per record (an OR of the
 *   three) read every country for every record of a file without codes.
 */
function publishingStatement(id: number, options: RatingsImportOptions) {
  const latestReports = options.validateChronology
    ? sql`
        select position, jurisdiction, report_date, latest from (
          select kept.*, greatest(stored.latest, max(kept.report_date) over (
            partition by kept.key order by kept.position
            rows between unbounded preceding and 1 preceding)) as latest
          from kept
          left join (
            select lower(jurisdiction) as key, max(report_date) as latest
            from fatf_ratings
            group by lower(jurisdiction)
          ) as stored using (key)
        ) as checked
        where report_date < latest`
    : sql`select position, jurisdiction, report_date, null::date as latest from kept where false`;
  const onConflict = options.overwriteExisting
    ? sql`do update set assessment_body = excluded.assessment_body,
        effectiveness = excluded.effectiveness, compliance = excluded.compliance,
        upgrades = excluded.upgrades, downgrades = excluded.downgrades,
        valid_from = excluded.valid_from, valid_to = excluded.valid_to,
        country_code = excluded.country_code, report_url = excluded.report_url,
        country_id = excluded.country_id, import_id = excluded.import_id, updated_at = now()`
    : sql`do nothing`;
  const chosenOrder = options.overwriteExisting ? sql`position desc` : sql`position`;
  return sql<Published>`
    with kept as materialized (
      select position, lower(jurisdiction) as key, report_type, report_date, jurisdiction
      from fatf_import_rows
      where import_id = ${id}
    ),
    refused as materialized (${latestReports}),
    chosen as materialized (
      select distinct on (key, report_type, report_date) position,
        first_value(jurisdiction) over same_report as jurisdiction
      from kept
      where position not in (select position from refused)
      window same_report as (partition by key, report_type, report_date order by position)
      order by key, report_type, report_date, ${chosenOrder}
    ),
    written as (
      insert into fatf_ratings (jurisdiction, country_id, report_type, report_date,
        assessment_body, effectiveness, compliance, upgrades, downgrades, valid_from, valid_to,
        country_code, report_url, import_id)
      select chosen.jurisdiction, coalesce(by_alpha2.id, by_alpha3.id, by_name.id),
        staged.report_type, staged.report_date, staged.assessment_body, staged.effectiveness,
        staged.compliance, staged.upgrades, staged.downgrades, staged.valid_from, staged.valid_to,
        staged.country_code, staged.report_url, ${id}
      from chosen
      join fatf_import_rows as staged on staged.import_id = ${id} and staged.position = chosen.position
      left join countries as by_alpha2 on by_alpha2.alpha2 = staged.alpha2
      left join countries as by_alpha3 on by_alpha3.alpha3 = staged.country_code
      left join (
        select distinct on (lower(name)) id, lower(name) as name
        from countries
        order by lower(name), id
      ) as by_name on by_name.name = lower(staged.jurisdiction)
      order by staged.position
      on conflict (lower(jurisdiction), report_type, report_date) ${onConflict}
      returning country_id
    )
    select (select count(*) from kept)::int as kept,
      (select count(*) from refused)::int as refused,
      (select coalesce(jsonb_agg(jsonb_build_object('message', format(
          'Record %s: report date %s is before the latest report of %s (%s)',
          position + 1, to_char(report_date, 'YYYY-MM-DD'), jurisdiction,
          to_char(latest, 'YYYY-MM-DD'))) order by position), '[]')
        from refused) as refused_errors,
      (select count(*) from chosen)::int as chosen,
      (select count(*) from written)::int as written,
      array(select distinct country_id from written where country_id is not null) as country_ids
  `;
}

/**
 * A failed or cancelled job: its kept rows dropped, its message kept. A failure records
 * FatfImportFailed with it (a cancel has its event from the one who cancelled).
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
      .set({ status, message, finished_at: sql<Date>`now()` })
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
 * DELETE api/fatf/import/{id}: marks a pending or running job cancelled; its publication rolls
 * back. 404 unknown; 409 once it has ended (a completed import stays).
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
    // A job waiting (or paused by a stopping server) has no run to drop its kept rows. A
    // statement of its own, after the cancel committed: a publication running meanwhile rolls
    // back (its own drop of the rows with it), and this one drops them then.
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
