import { RATINGS_IMPORT_MAX_BODY_BYTES, type RatingsImportJob } from '@console/contracts';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { SQL_INJECTION, stamp } from '../../../test/callers.ts';
import { expectRefusal } from '../../../test/expectations.ts';
import { lastEventId, eventsAfter } from '../../../test/recorded-events.ts';
import { STATUSES, useReferenceDataTestApp, type Caller } from '../../../test/reference-data.ts';
import { createCountryRiskWorker, riskOfRatings } from './country-risk.ts';
import { ImportRunner, runJob } from './jobs.ts';
import { openDatabase } from '../../db/connection.ts';
import type { FatfImportsTable } from '../../db/schema.ts';
import { createAuditTrailWorker } from '../../outbox/audit-trail.ts';
import { EventDispatcher } from '../../outbox/index.ts';

// Jobs run when a test says so (runJob), except where a test starts a runner of its own.
const suite = useReferenceDataTestApp(undefined, { eventWorkersEnabled: false });
const db = () => suite.testApp.database.db;
const call = suite.call;

const SPAIN = { id: 724, alpha2: 'ES', alpha3: 'ESP', name: 'Spain' };
const BOTSWANA = { id: 72, alpha2: 'BW', alpha3: 'BWA', name: 'Botswana' };

beforeEach(async () => {
  await db().deleteFrom('fatf_ratings').execute();
  await db().deleteFrom('fatf_imports').execute();
  await db().deleteFrom('countries').where('id', 'in', [SPAIN.id, BOTSWANA.id]).execute();
  await db()
    .insertInto('countries')
    .values([SPAIN, BOTSWANA].map((country) => ({ ...country, ...stamp })))
    .execute();
});

/** A record every rule accepts; `weak` rates all 40 Recommendations PC (a high risk). */
function record(jurisdiction: string, reportDate: string, overrides: object = {}, weak = false) {
  const compliance = Object.fromEntries(
    Array.from({ length: 40 }, (_, index) => [`r${index + 1}`, weak ? 'PC' : 'C']),
  );
  return {
    jurisdiction,
    reportType: 'MER',
    reportDate,
    assessmentBody: 'FATF',
    io1: 'SE',
    ...compliance,
    ...overrides,
  };
}

const start = (caller: Caller, body: unknown) => call(caller, 'POST', '/api/fatf/import', body);
const status = async (id: number) =>
  (await call('staff', 'GET', `/api/fatf/import/${id}/status`)).json() as RatingsImportJob;

/** Starts an import as staff, runs its job, answers its final state. */
async function importAndRun(records: unknown[], options: object = {}): Promise<RatingsImportJob> {
  const response = await start('staff', { records, options });
  expect(response.statusCode).toBe(201);
  const { importId } = response.json() as { importId: number };
  expect(await runJob(db(), importId)).toEqual({ ran: true });
  return status(importId);
}

/** Columns of a job's row, as stored. */
const jobRow = <Column extends keyof FatfImportsTable & string>(
  importId: number,
  columns: readonly Column[],
) =>
  db()
    .selectFrom('fatf_imports')
    .select(columns)
    .where('id', '=', importId)
    .executeTakeFirstOrThrow();

/** The records a job has validated and kept (not published yet). */
const keptRows = async (importId: number) =>
  (
    await db()
      .selectFrom('fatf_import_rows')
      .select(db().fn.countAll<number>().as('n'))
      .where('import_id', '=', importId)
      .executeTakeFirstOrThrow()
  ).n;

/**
 * Holds every job's publication at its first write, until released: a session of its own keeps
 * a lock of fatf_ratings that the publication's insert waits for. `reached` settles once a
 * publication waits for it.
 */
async function holdPublications() {
  const session = new pg.Client({ connectionString: suite.testApp.database.connectionString });
  await session.connect();
  await session.query('begin; lock table fatf_ratings in share mode');
  return {
    async reached(): Promise<number> {
      for (;;) {
        const { rows } = await session.query<{ pid: number }>(
          `select pid from pg_locks where relation = 'fatf_ratings'::regclass and not granted`,
        );
        if (rows[0]) return rows[0].pid;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async release(): Promise<void> {
      await session.query('commit');
      await session.end();
    },
  };
}

/** The audit rows of the events named `eventName` after `mark`, once the audit trail ran. */
async function auditRowsAfter(mark: number, eventName: string) {
  await new EventDispatcher({
    db: db(),
    workers: [createAuditTrailWorker()],
    logger: suite.testApp.app.log,
    leaseSeconds: 30,
    pollIntervalMs: 60_000,
  }).drain();
  return db()
    .selectFrom('audit_log')
    .selectAll()
    .where('event_id', '>', mark)
    .where('event_name', '=', eventName)
    .execute();
}

const storedRatings = () =>
  db()
    .selectFrom('fatf_ratings')
    .select(['jurisdiction', 'country_id', 'report_type', 'report_date', 'assessment_body'])
    .select(['effectiveness', 'compliance'])
    .orderBy('jurisdiction')
    .orderBy('report_date')
    .execute();

describe('POST /api/fatf/import and its job', () => {
  it('stores the records, matches their countries, and reports the result', async () => {
    const job = await importAndRun([
      record('Spain', '2014-12-01'),
      record('Botswana', '2023-05-31', { reportType: 'MER+FURs', r5: 'NA' }),
      record('Atlantis', '2020-01-01'),
    ]);
    expect(job).toMatchObject({
      status: 'completed',
      progress: 100,
      recordCount: 3,
      result: { recordsProcessed: 3, recordsImported: 3, recordsSkipped: 0, errors: [] },
    });
    expect(job.endTime).not.toBeNull();
    const rows = await storedRatings();
    expect(rows.map((row) => [row.jurisdiction, row.country_id, row.report_date])).toEqual([
      ['Atlantis', null, '2020-01-01'],
      ['Botswana', BOTSWANA.id, '2023-05-31'],
      ['Spain', SPAIN.id, '2014-12-01'],
    ]);
    expect(rows[1]).toMatchObject({
      report_type: 'MER+FURs',
      effectiveness: { io1: 'SE' },
      compliance: expect.objectContaining({ r1: 'C', r5: 'NA' }),
    });
  });

  it('records a domain event, and the country-risk worker sets the countries’ risk', async () => {
    const before = await lastEventId(db());
    await importAndRun([record('Spain', '2014-12-01', {}, true), record('Botswana', '2023-05-31')]);
    const [started, event] = await eventsAfter(db(), before);
    expect(started).toMatchObject({
      eventName: 'FatfImportStarted',
      metadata: { actor: suite.emails.staff, action: 'import', after: { recordCount: 2 } },
    });
    expect(event).toMatchObject({
      eventName: 'FatfRatingsImported',
      metadata: expect.objectContaining({
        actor: suite.emails.staff,
        recordsImported: 2,
        countryIds: [BOTSWANA.id, SPAIN.id],
      }),
    });
    const dispatcher = new EventDispatcher({
      db: db(),
      workers: [createCountryRiskWorker()],
      logger: suite.testApp.app.log,
      leaseSeconds: 30,
      pollIntervalMs: 60_000,
    });
    await dispatcher.drain();
    const risks = await db()
      .selectFrom('countries')
      .select(['id', 'cached_risk', 'cached_risk_at'])
      .where('id', 'in', [SPAIN.id, BOTSWANA.id])
      .orderBy('id')
      .execute();
    expect(risks.map((row) => [row.id, row.cached_risk])).toEqual([
      [BOTSWANA.id, 'Low'],
      [SPAIN.id, 'High'],
    ]);
    expect(risks.every((row) => row.cached_risk_at instanceof Date)).toBe(true);
    const countries = (await call('staff', 'GET', '/api/countries')).json() as {
      id: number;
      cachedRisk: string | null;
    }[];
    expect(countries.find((country) => country.id === SPAIN.id)?.cachedRisk).toBe('High');
  });

  it('skips invalid records with their errors, or fails the whole import without skipping', async () => {
    const records = [
      record('Spain', '2014-12-01'),
      record('', '2015-01-01'),
      record('Peru', 'soon'),
    ];
    const skipping = await importAndRun(records);
    expect(skipping.result).toMatchObject({
      recordsImported: 1,
      recordsSkipped: 2,
      errors: [
        { message: 'Record 2: jurisdiction: Jurisdiction name is required' },
        { message: 'Record 3: reportDate: Invalid date format' },
      ],
    });

    await db().deleteFrom('fatf_ratings').execute();
    const strict = await importAndRun(records, { skipInvalidRecords: false });
    expect(strict).toMatchObject({
      status: 'failed',
      message: 'Record 2: jurisdiction: Jurisdiction name is required',
      result: null,
    });
    expect(await storedRatings()).toEqual([]);
  });

  it('skips a record with text PostgreSQL cannot store, with its field’s message', async () => {
    const job = await importAndRun([
      record('Spain\u0000', '2014-12-01'),
      record('Botswana', '2023-05-31', { assessmentBody: 'FATF \uD800' }),
      record('Spain', '2014-12-01', { note: '\u0000 never stored' }),
    ]);
    expect(job.result).toMatchObject({
      recordsImported: 1,
      recordsSkipped: 2,
      errors: [
        { message: 'Record 1: jurisdiction: jurisdiction must not contain the NUL character' },
        {
          message:
            'Record 2: assessmentBody: assessmentBody must not contain a lone surrogate (half of a UTF-16 pair, not valid Unicode)',
        },
      ],
    });
  });

  it('writes a report given twice in one file once: the first, or the last when overwriting', async () => {
    const twice = [
      record('Spain', '2014-12-01'),
      record('SPAIN', '2014-12-01', { assessmentBody: 'GAFILAT', countryCode: 'BW' }),
    ];
    const kept = await importAndRun(twice);
    expect(kept.result).toMatchObject({ recordsImported: 1, recordsSkipped: 1, errors: [] });
    expect(await storedRatings()).toMatchObject([
      { jurisdiction: 'Spain', assessment_body: 'FATF', country_id: SPAIN.id },
    ]);

    await db().deleteFrom('fatf_ratings').execute();
    // Each record overwrites the one before: the last one's ratings and country, the first
    // one's spelling (an overwrite keeps the stored jurisdiction).
    const overwritten = await importAndRun(twice, { overwriteExisting: true });
    expect(overwritten.result).toMatchObject({ recordsImported: 2, recordsSkipped: 0 });
    expect(await storedRatings()).toMatchObject([
      { jurisdiction: 'Spain', assessment_body: 'GAFILAT', country_id: BOTSWANA.id },
    ]);
  });

  it('leaves an audit row when a job fails: the job, its counts so far and why', async () => {
    const records = [
      ...Array.from({ length: 1000 }, (_, index) => record(`Jurisdiction ${index}`, '2020-01-01')),
      record('', '2020-01-01'),
    ];
    const mark = await lastEventId(db());
    const job = await importAndRun(records, { skipInvalidRecords: false });
    expect(job.status).toBe('failed');
    expect(await auditRowsAfter(mark, 'FatfImportFailed')).toEqual([
      expect.objectContaining({
        actor: suite.emails.staff,
        action: 'import',
        target_type: 'FatfImport',
        target_id: String(job.id),
        // Every record was read when the import started; the invalid one fails the job at its
        // start: nothing published.
        after: {
          status: 'failed',
          recordCount: 1001,
          recordsProcessed: 1001,
          recordsSkipped: 1,
          recordsImported: 0,
          message: 'Record 1001: jurisdiction: Jurisdiction name is required',
        },
      }),
    ]);
  });

  it('skips records already stored unless asked to overwrite them', async () => {
    await importAndRun([record('Spain', '2014-12-01')]);
    const again = await importAndRun([
      record('Spain', '2014-12-01', { assessmentBody: 'GAFILAT' }),
    ]);
    expect(again.result).toMatchObject({ recordsImported: 0, recordsSkipped: 1 });
    expect((await storedRatings())[0]?.assessment_body).toBe('FATF');

    const overwrite = await importAndRun(
      [record('SPAIN', '2014-12-01', { assessmentBody: 'GAFILAT' })],
      {
        overwriteExisting: true,
      },
    );
    expect(overwrite.result).toMatchObject({ recordsImported: 1, recordsSkipped: 0 });
    expect(await storedRatings()).toHaveLength(1);
    expect((await storedRatings())[0]?.assessment_body).toBe('GAFILAT');
  });

  it('refuses a report older than the latest of its jurisdiction unless chronology is off', async () => {
    await importAndRun([record('Spain', '2019-06-01')]);
    const older = [
      record('Spain', '2014-12-01'),
      record('Botswana', '2023-05-31'),
      record('Botswana', '2017-01-01'),
    ];
    const checked = await importAndRun(older);
    expect(checked.result).toMatchObject({
      recordsImported: 1,
      recordsSkipped: 2,
      errors: [
        {
          message:
            'Record 1: report date 2014-12-01 is before the latest report of Spain (2019-06-01)',
        },
        {
          message:
            'Record 3: report date 2017-01-01 is before the latest report of Botswana (2023-05-31)',
        },
      ],
    });
    const unchecked = await importAndRun(older, { validateChronology: false });
    expect(unchecked.result).toMatchObject({ recordsImported: 2, recordsSkipped: 1 });
  });

  it('imports more records than one batch holds', async () => {
    const records = Array.from({ length: 2500 }, (_, index) =>
      record(`Jurisdiction ${index}`, '2020-01-01'),
    );
    const job = await importAndRun(records);
    expect(job.result).toMatchObject({ recordsProcessed: 2500, recordsImported: 2500 });
    expect(
      await db()
        .selectFrom('fatf_ratings')
        .select(db().fn.countAll<number>().as('n'))
        .executeTakeFirst(),
    ).toEqual({ n: 2500 });
  });
});

describe('cancelling an import', () => {
  it('leaves nothing of it, even when it is cancelled while it runs', async () => {
    const response = await start('staff', {
      records: Array.from({ length: 5000 }, (_, index) => record(`J${index}`, '2020-01-01')),
    });
    const { importId } = response.json() as { importId: number };
    // Cancelled while its publication writes (the job sees it before it commits).
    const held = await holdPublications();
    const running = runJob(db(), importId);
    try {
      await held.reached();
      expect(await status(importId)).toMatchObject({ status: 'processing', progress: 50 });
      const cancel = await call('staff', 'DELETE', `/api/fatf/import/${importId}`);
      expect(cancel.statusCode).toBe(204);
    } finally {
      await held.release();
    }
    expect(await running).toEqual({ ran: true });
    expect(await status(importId)).toMatchObject({
      status: 'cancelled',
      message: 'Import cancelled by user',
      result: null,
    });
    expect(await storedRatings()).toEqual([]);
    expect(await keptRows(importId)).toBe(0);
  });

  it('answers 409 once the import has ended, and 404 for an unknown one', async () => {
    const done = await importAndRun([record('Spain', '2014-12-01')]);
    expectRefusal(
      await call('staff', 'DELETE', `/api/fatf/import/${done.id}`),
      409,
      `Import ${done.id} has already ended (completed); it cannot be cancelled.`,
    );
    expect(await storedRatings()).toHaveLength(1);
    expect((await call('staff', 'DELETE', '/api/fatf/import/999999')).statusCode).toBe(404);
  });
});

describe('jobs across restarts and instances', () => {
  it('runs a job interrupted mid-way again from its stored records', async () => {
    const response = await start('staff', { records: [record('Spain', '2014-12-01')] });
    const { importId } = response.json() as { importId: number };
    // What a process that died while running it leaves: processing, one attempt, no ratings.
    await db()
      .updateTable('fatf_imports')
      .set({ status: 'processing', attempts: 1, progress: 40 })
      .where('id', '=', importId)
      .execute();
    const runner = new ImportRunner(db(), suite.testApp.app.log);
    runner.start();
    await runner.idle();
    await runner.stop();
    expect(await status(importId)).toMatchObject({ status: 'completed', progress: 100 });
    expect(await storedRatings()).toHaveLength(1);
  });

  it('fails a job interrupted too often, with a message, instead of retrying forever', async () => {
    const { importId } = (
      await start('staff', { records: [record('Spain', '2014-12-01')] })
    ).json() as {
      importId: number;
    };
    await db()
      .updateTable('fatf_imports')
      .set({ status: 'processing', attempts: 3 })
      .where('id', '=', importId)
      .execute();
    const mark = await lastEventId(db());
    await runJob(db(), importId);
    const job = await status(importId);
    expect(job.status).toBe('failed');
    expect(job.message).toMatch(/interrupted 3 times/);
    const [failure] = await auditRowsAfter(mark, 'FatfImportFailed');
    expect(failure?.after).toMatchObject({
      status: 'failed',
      recordCount: 1,
      message: expect.stringMatching(/interrupted 3 times/),
    });
  });

  it('keeps the valid records, validated, from the answer on: the job needs nothing else', async () => {
    const response = await start('staff', {
      records: [
        record('Spain', '2014-12-01'),
        record('', '2015-01-01'),
        record('Peru', '2016-01-01'),
      ],
    });
    const { importId } = response.json() as { importId: number };
    expect(await status(importId)).toMatchObject({ status: 'pending', progress: 0, result: null });
    expect(await keptRows(importId)).toBe(2);
    const job = await jobRow(importId, ['records_processed', 'records_skipped', 'errors']);
    expect(job).toEqual({
      records_processed: 3,
      records_skipped: 1,
      errors: [{ message: 'Record 2: jurisdiction: Jurisdiction name is required' }],
    });
  });

  it('hands a job over when its server stops before publishing it; another publishes it', async () => {
    const records = Array.from({ length: 2500 }, (_, index) => record(`J${index}`, '2020-01-01'));
    const { importId } = (
      await start('staff', { records, options: { skipInvalidRecords: false } })
    ).json() as { importId: number };
    // What a runner does with the job it has taken when its server stops.
    const stopping = new AbortController();
    stopping.abort();
    expect(await runJob(db(), importId, stopping.signal)).toEqual({ ran: true, paused: true });

    const paused = await jobRow(importId, ['status', 'attempts', 'message']);
    expect(paused).toEqual({
      status: 'processing',
      attempts: 0,
      message: 'Paused while its server stopped; another server imports it',
    });
    expect(await keptRows(importId)).toBe(2500);
    expect(await storedRatings()).toEqual([]);

    // Another instance: a pool and a runner of its own on the same database.
    const other = openDatabase(suite.testApp.database.connectionString);
    const staying = new ImportRunner(other.db, suite.testApp.app.log);
    staying.start();
    try {
      await staying.idle();
      expect(await status(importId)).toMatchObject({
        status: 'completed',
        result: { recordsProcessed: 2500, recordsImported: 2500, recordsSkipped: 0, errors: [] },
      });
    } finally {
      await staying.stop();
      await other.close();
    }
    expect(await keptRows(importId)).toBe(0);
    expect(await storedRatings()).toHaveLength(2500);
  });

  it('leaves nothing of a publication its server died in; the next run publishes the kept rows', async () => {
    const records = Array.from({ length: 2500 }, (_, index) => record(`J${index}`, '2020-01-01'));
    const { importId } = (await start('staff', { records })).json() as { importId: number };
    const held = await holdPublications();
    // The job's own pool, as a server of its own: its connection is the one that dies.
    const dying = openDatabase(suite.testApp.database.connectionString);
    try {
      const running = runJob(dying.db, importId);
      const publishing = await held.reached();
      await sql`select pg_terminate_backend(${publishing})`.execute(db());
      await expect(running).rejects.toThrow();
    } finally {
      await held.release();
      await dying.close();
    }
    const interrupted = await jobRow(importId, ['status', 'attempts']);
    expect(interrupted).toEqual({ status: 'processing', attempts: 1 });
    expect(await storedRatings()).toEqual([]);
    expect(await keptRows(importId)).toBe(2500);

    expect(await runJob(db(), importId)).toEqual({ ran: true });
    expect(await status(importId)).toMatchObject({
      status: 'completed',
      result: { recordsProcessed: 2500, recordsImported: 2500 },
    });
    expect(await keptRows(importId)).toBe(0);
  });

  it('publishes to its end a job its server stops during the publication', async () => {
    const { importId } = (
      await start('staff', { records: [record('Spain', '2014-12-01')] })
    ).json() as { importId: number };
    const held = await holdPublications();
    const runner = new ImportRunner(db(), suite.testApp.app.log);
    let stopped: Promise<void> | undefined;
    try {
      runner.start();
      await held.reached();
      stopped = runner.stop();
    } finally {
      await held.release();
    }
    await stopped;
    expect(await status(importId)).toMatchObject({ status: 'completed', progress: 100 });
    expect(await storedRatings()).toHaveLength(1);
  });

  it('drops what a job paused by a stopping server kept when it is cancelled', async () => {
    const { importId } = (
      await start('staff', {
        records: Array.from({ length: 2500 }, (_, index) => record(`J${index}`, '2020-01-01')),
      })
    ).json() as { importId: number };
    const stopping = new AbortController();
    stopping.abort();
    expect((await runJob(db(), importId, stopping.signal)).paused).toBe(true);
    expect(await keptRows(importId)).toBeGreaterThan(0);
    expect((await call('staff', 'DELETE', `/api/fatf/import/${importId}`)).statusCode).toBe(204);
    expect(await keptRows(importId)).toBe(0);
    expect(await runJob(db(), importId)).toEqual({ ran: false });
    expect(await storedRatings()).toEqual([]);
  });

  it('never runs one job twice at once', async () => {
    const { importId } = (
      await start('staff', {
        records: Array.from({ length: 1500 }, (_, index) => record(`J${index}`, '2020-01-01')),
      })
    ).json() as { importId: number };
    const ran = await Promise.all([runJob(db(), importId), runJob(db(), importId)]);
    expect(ran.filter((run) => run.ran)).toHaveLength(1);
    expect((await status(importId)).result?.recordsImported).toBe(1500);
  });

  it('is run by the runner of an instance as soon as it is started', async () => {
    const runner = new ImportRunner(db(), suite.testApp.app.log);
    runner.start();
    try {
      const { importId } = (
        await start('staff', { records: [record('Spain', '2014-12-01')] })
      ).json() as {
        importId: number;
      };
      runner.kick();
      await runner.idle();
      expect((await status(importId)).status).toBe('completed');
    } finally {
      await runner.stop();
    }
  });
});

describe('GET /api/fatf/imports and /api/fatf/stats', () => {
  it('list imports newest first, and count what is stored', async () => {
    const empty = (await call('staff', 'GET', '/api/fatf/stats')).json();
    expect(empty).toEqual({
      totalImports: 0,
      totalRecords: 0,
      countriesWithData: 0,
      lastImportDate: null,
    });
    const first = await importAndRun([
      record('Spain', '2014-12-01'),
      record('Atlantis', '2015-01-01'),
    ]);
    const second = await importAndRun([record('Botswana', '2023-05-31')]);
    const history = (await call('staff', 'GET', '/api/fatf/imports')).json() as RatingsImportJob[];
    expect(history.map((job) => job.id)).toEqual([second.id, first.id]);
    const stats = (await call('admin', 'GET', '/api/fatf/stats')).json() as Record<string, unknown>;
    expect(stats).toMatchObject({ totalImports: 2, totalRecords: 3, countriesWithData: 2 });
    expect(stats.lastImportDate).toBe(second.endTime);
  });
});

describe('GET /api/fatf/export', () => {
  it('downloads every stored rating as fatf-data-{date}.xlsx, read back with ExcelJS', async () => {
    await importAndRun([
      record('Spain', '2014-12-01', { r5: 'N/A', upgrades: 2 }),
      record('Botswana', '2023-05-31', { reportUrl: 'https://www.fatf-gafi.org/x.html' }),
    ]);
    const response = await call('staff', 'GET', '/api/fatf/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="fatf-data-${today}.xlsx"`,
    );
    const workbook = new ExcelJS.Workbook();
    // ExcelJS types its input as an ArrayBuffer-backed Buffer; the payload is one.
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('FATF ratings');
    const rows = (sheet?.getSheetValues() ?? []).filter(Boolean) as unknown[][];
    // getSheetValues rows are 1-based arrays: cell A is at index 1.
    const [header, botswana, spain] = rows.map((row) => row.slice(1));
    expect(header?.slice(0, 6)).toEqual([
      'Jurisdiction',
      'Country Code',
      'Report Type',
      'Report Date',
      'Assessment Body',
      'IO1',
    ]);
    expect(header).toHaveLength(5 + 11 + 40 + 5);
    expect(botswana?.slice(0, 5)).toEqual(['Botswana', 'BW', 'MER', '2023-05-31', 'FATF']);
    expect(botswana?.at(-1)).toBe('https://www.fatf-gafi.org/x.html');
    expect(spain?.[header?.indexOf('R5') ?? -1]).toBe('NA');
    expect(spain?.[header?.indexOf('Upgrades') ?? -1]).toBe(2);
  });
});

describe('GET /api/fatf/ratings', () => {
  it('pages the ratings by jurisdiction, the latest report first, with the exact total', async () => {
    await importAndRun(
      [
        record('spain', '2014-12-01'),
        record('Spain', '2019-06-01', { reportType: 'FUR' }),
        record('Botswana', '2023-05-31'),
        record('atlantis', '2020-01-01'),
      ],
      { validateChronology: false },
    );
    const page = (offset: number, limit: number) =>
      call('staff', 'GET', `/api/fatf/ratings?offset=${offset}&limit=${limit}`);
    const all = (await page(0, 10)).json() as {
      data: { jurisdiction: string; reportDate: string; countryName: string | null }[];
      totalCount: number;
    };
    expect(all.totalCount).toBe(4);
    expect(all.data.map((row) => [row.jurisdiction, row.reportDate, row.countryName])).toEqual([
      ['atlantis', '2020-01-01', null],
      ['Botswana', '2023-05-31', 'Botswana'],
      ['Spain', '2019-06-01', 'Spain'],
      ['spain', '2014-12-01', 'Spain'],
    ]);
    // Every page, from either end of the list, agrees with the whole list.
    for (let offset = 0; offset < 4; offset++) {
      const one = (await page(offset, 1)).json() as { data: { jurisdiction: string }[] };
      expect(one.data).toEqual([all.data[offset]]);
    }
  });

  it.each([['offset=-1'], ['limit=0'], ['offset=abc'], ['limit=1.5']])(
    'answers 400 for %s',
    async (query) => {
      expect((await call('staff', 'GET', `/api/fatf/ratings?${query}`)).statusCode).toBe(400);
    },
  );
});

describe('permissions and bad input', () => {
  it.each(STATUSES.notStaff)('refuses %s on every call', async (caller, code) => {
    const { importId } = (
      await start('staff', { records: [record('Spain', '2014-12-01')] })
    ).json() as {
      importId: number;
    };
    for (const [method, url, body] of [
      ['POST', '/api/fatf/import', { records: [record('Spain', '2014-12-01')] }],
      ['GET', `/api/fatf/import/${importId}/status`],
      ['GET', '/api/fatf/imports'],
      ['DELETE', `/api/fatf/import/${importId}`],
      ['GET', '/api/fatf/stats'],
      ['GET', '/api/fatf/export'],
      ['GET', '/api/fatf/ratings'],
    ] as const) {
      expect((await call(caller, method, url, body)).statusCode, `${method} ${url}`).toBe(code);
    }
    expect((await status(importId)).status).toBe('pending');
  });

  it.each([
    ['malformed JSON', '{"records": [', 'Body is not valid JSON'],
    ['no records', { records: [] }, 'records must hold at least one record'],
    [
      'records that are not an array',
      { records: 'x' },
      'records must be an array of ratings records',
    ],
    ['a record that is not an object', { records: [1] }, 'Each record must be an object'],
    [
      'an option of the wrong type',
      { records: [record('Spain', '2014-12-01')], options: { overwriteExisting: 'yes' } },
      'overwriteExisting must be true or false',
    ],
  ])('answers 400 for %s and starts nothing', async (_case, body, message) => {
    const response = await start('staff', body);
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain(message);
    expect(await db().selectFrom('fatf_imports').selectAll().execute()).toEqual([]);
  });

  it('answers 413 for a body over its 64 MB, and reads one over the 10 MB of other routes', async () => {
    const padding = (bytes: number) =>
      JSON.stringify({ records: [record('Spain', '2014-12-01', { note: 'x'.repeat(bytes) })] });
    const tooLarge = await start('staff', padding(RATINGS_IMPORT_MAX_BODY_BYTES));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ message: expect.stringMatching(/too large/i) });
    expect(await db().selectFrom('fatf_imports').selectAll().execute()).toEqual([]);
    // 12 MB: more than other routes read, as a file of 50,000 records can be.
    expect((await start('staff', padding(12 * 1024 * 1024))).statusCode).toBe(201);
  });

  it('keeps injection strings as text', async () => {
    const job = await importAndRun([record(SQL_INJECTION, '2014-12-01')]);
    expect(job.status).toBe('completed');
    expect((await storedRatings())[0]?.jurisdiction).toBe(SQL_INJECTION);
  });

  it.each(['0', '01', '1.0', 'abc', '99999999999'])(
    'answers 400 for the import id %s',
    async (id) => {
      expect((await call('staff', 'GET', `/api/fatf/import/${id}/status`)).statusCode).toBe(400);
      expect((await call('staff', 'DELETE', `/api/fatf/import/${id}`)).statusCode).toBe(400);
    },
  );
});

describe('riskOfRatings', () => {
  const ratings = (pcOrNc: number, meOrLe: number, le: number) => ({
    compliance: Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [`r${index + 1}`, index < pcOrNc ? 'NC' : 'LC']),
    ),
    effectiveness: Object.fromEntries(
      Array.from({ length: 11 }, (_, index) => [
        `io${index + 1}`,
        index < le ? 'LE' : index < meOrLe ? 'ME' : 'SE',
      ]),
    ),
  });

  it.each([
    [20, 0, 0, 'High'],
    [19, 7, 4, 'High'],
    [19, 7, 3, 'Medium'],
    [10, 0, 0, 'Medium'],
    [0, 5, 0, 'Medium'],
    [9, 4, 4, 'Low'],
  ] as const)('%i PC/NC, %i ME/LE (%i LE): %s', (pcOrNc, meOrLe, le, risk) => {
    expect(riskOfRatings(ratings(pcOrNc, meOrLe, le))).toBe(risk);
  });
});
