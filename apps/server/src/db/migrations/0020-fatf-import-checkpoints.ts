import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * An import job's records are validated and kept here batch by batch, each batch committed with
 * the job's checkpoint (`fatf_imports.records_processed`, its skips and errors), so that a job
 * stopped or interrupted resumes at its next batch, on any instance. Nothing is visible in
 * `fatf_ratings` until the job publishes every kept row in one transaction (its completion);
 * the rows go with the job's end (features/ratings-import/jobs.ts).
 */
export const FatfImportCheckpoints: Migration = {
  version: 20,
  description: 'FATF import jobs keep their validated records batch by batch, to resume',
  className: 'FatfImportCheckpoints',
  async up(db) {
    await sql`
      create table fatf_import_rows (
        import_id integer not null references fatf_imports (id) on delete cascade,
        position integer not null,
        jurisdiction text not null,
        report_type text not null,
        report_date date not null,
        assessment_body text not null,
        effectiveness jsonb not null,
        compliance jsonb not null,
        upgrades integer,
        downgrades integer,
        valid_from date,
        valid_to date,
        country_code text,
        report_url text,
        alpha2 text,
        primary key (import_id, position)
      )
    `.execute(db);
  },
};
