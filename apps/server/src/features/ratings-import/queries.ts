import {
  RATINGS_IMPORT_STATUSES,
  type Page,
  type RatingsImportJob,
  type RatingsImportStatus,
  type RatingsStatistics,
  type StoredRating,
} from '@console/contracts';
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import { readPage, walkDirection } from '../../db/paging.ts';
import type { Database, FatfImportsTable } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';

/** The history shows this many imports, newest first. */
export const IMPORT_HISTORY_LIMIT = 100;

type JobRow = Selectable<FatfImportsTable>;

const JOB_COLUMNS = [
  'id',
  'status',
  'progress',
  'message',
  'options',
  'record_count',
  'records_processed',
  'records_imported',
  'records_skipped',
  'errors',
  'attempts',
  'created_by',
  'created_at',
  'started_at',
  'finished_at',
] as const;

export function toJob(row: JobRow): RatingsImportJob {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    message: row.message,
    startTime: (row.started_at ?? row.created_at).toISOString(),
    endTime: row.finished_at?.toISOString() ?? null,
    createdBy: row.created_by,
    recordCount: row.record_count,
    options: row.options,
    // The spec's result: known once the job has ended.
    result:
      row.status === 'completed'
        ? {
            importId: row.id,
            recordsProcessed: row.records_processed,
            recordsImported: row.records_imported,
            recordsSkipped: row.records_skipped,
            errors: row.errors,
          }
        : null,
  };
}

/** GET api/fatf/import/{id}/status; 404 for an unknown id. */
export async function readImportJob(db: Kysely<Database>, id: number): Promise<RatingsImportJob> {
  const row = await db
    .selectFrom('fatf_imports')
    .select(JOB_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`Import ${id} not found.`);
  return toJob(row);
}

/** GET api/fatf/imports: the latest imports, newest first. */
export async function listImportJobs(db: Kysely<Database>): Promise<RatingsImportJob[]> {
  const rows = await db
    .selectFrom('fatf_imports')
    .select(JOB_COLUMNS)
    .orderBy('id', 'desc')
    .limit(IMPORT_HISTORY_LIMIT)
    .execute();
  return rows.map(toJob);
}

/**
 * GET api/fatf/stats: completed imports, ratings stored, countries with at least one rating, and
 * when the last import completed.
 */
export async function readStatistics(db: Kysely<Database>): Promise<RatingsStatistics> {
  const { rows } = await sql<{
    total_imports: number;
    total_records: number;
    countries_with_data: number;
    last_import: Date | null;
  }>`
    select
      (select count(*) from fatf_imports where status = 'completed')::int as total_imports,
      (select count(*) from fatf_ratings)::int as total_records,
      (select count(distinct country_id) from fatf_ratings)::int as countries_with_data,
      (select max(finished_at) from fatf_imports where status = 'completed') as last_import
  `.execute(db);
  const [row] = rows;
  return {
    totalImports: row?.total_imports ?? 0,
    totalRecords: row?.total_records ?? 0,
    countriesWithData: row?.countries_with_data ?? 0,
    lastImportDate: row?.last_import?.toISOString() ?? null,
  };
}

/**
 * GET api/fatf/ratings: one page of the stored ratings by jurisdiction (without regard to case),
 * the latest report first, counted and read in one snapshot (db/paging.ts).
 */
export async function listRatings(
  db: Kysely<Database>,
  query: { offset: number; limit: number },
): Promise<Page<StoredRating>> {
  return readPage(db, {
    ...query,
    async count(trx) {
      const { count } = await trx
        .selectFrom('fatf_ratings')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return count;
    },
    async read(trx, plan) {
      const ascending = walkDirection(false, plan);
      const descending = ascending === 'asc' ? 'desc' : 'asc';
      const rows = await trx
        .selectFrom('fatf_ratings')
        .leftJoin('countries', 'countries.id', 'fatf_ratings.country_id')
        .select([
          'fatf_ratings.id',
          'fatf_ratings.jurisdiction',
          'countries.name as country_name',
          'fatf_ratings.report_type',
          'fatf_ratings.report_date',
          'fatf_ratings.assessment_body',
          'fatf_ratings.effectiveness',
          'fatf_ratings.compliance',
          'fatf_ratings.upgrades',
          'fatf_ratings.downgrades',
          'fatf_ratings.report_url',
        ])
        .orderBy(sql`lower(fatf_ratings.jurisdiction)`, ascending)
        .orderBy('fatf_ratings.report_date', descending)
        .orderBy('fatf_ratings.id', ascending)
        .offset(plan.offset)
        .limit(plan.limit)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        jurisdiction: row.jurisdiction,
        countryName: row.country_name,
        reportType: row.report_type,
        reportDate: row.report_date,
        assessmentBody: row.assessment_body,
        effectiveness: row.effectiveness,
        compliance: row.compliance,
        upgrades: row.upgrades,
        downgrades: row.downgrades,
        reportUrl: row.report_url,
      }));
    },
  });
}

/**
 * Import jobs per status, every status named (the metrics read it when scraped). Jobs are few
 * (one per import a person starts) and hold no records, so counting reads a small table.
 */
export async function countImportJobsByStatus(
  db: Kysely<Database>,
): Promise<Record<RatingsImportStatus, number>> {
  const rows = await db
    .selectFrom('fatf_imports')
    .select((eb) => ['status', eb.fn.countAll<number>().as('count')])
    .groupBy('status')
    .execute();
  const counts = Object.fromEntries(RATINGS_IMPORT_STATUSES.map((status) => [status, 0]));
  for (const row of rows) counts[row.status] = row.count;
  return counts as Record<RatingsImportStatus, number>;
}
