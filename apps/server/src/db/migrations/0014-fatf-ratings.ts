import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * FATF assessment ratings and their import jobs (spec part 2, "Ratings import"; docs/fatf-import.md).
 *
 * An import job keeps the records it was given until it ends, so a job interrupted by a restart is
 * run again from them (its writes were one transaction, rolled back with the process). A rating is
 * one report of one jurisdiction: the jurisdiction (compared without case), report type and report
 * date are its key. Ratings are kept as JSON objects of their codes ({"io1": "SE", ...}): there
 * are 51 of them and no query filters on one.
 */
export const FatfRatings: Migration = {
  version: 14,
  description: 'FATF ratings and their import jobs',
  className: 'FatfRatings',
  async up(db) {
    await sql`
      create table fatf_imports (
        id integer generated always as identity primary key,
        status text not null default 'pending'
          check (status in ('pending', 'processing', 'completed', 'failed', 'cancelled')),
        progress integer not null default 0 check (progress between 0 and 100),
        message text not null default '',
        options jsonb not null,
        records jsonb,
        record_count integer not null,
        records_processed integer not null default 0,
        records_imported integer not null default 0,
        records_skipped integer not null default 0,
        errors jsonb not null default '[]',
        attempts integer not null default 0,
        created_by text not null,
        created_at timestamptz not null default now(),
        started_at timestamptz,
        finished_at timestamptz
      );
      create index fatf_imports_waiting on fatf_imports (id)
        where status in ('pending', 'processing');

      create table fatf_ratings (
        id integer generated always as identity primary key,
        jurisdiction text not null,
        country_id integer references countries (id) on delete set null,
        report_type text not null,
        report_date date not null,
        assessment_body text not null,
        effectiveness jsonb not null default '{}',
        compliance jsonb not null default '{}',
        upgrades integer,
        downgrades integer,
        valid_from date,
        valid_to date,
        country_code text,
        report_url text,
        import_id integer not null references fatf_imports (id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index fatf_ratings_report
        on fatf_ratings (lower(jurisdiction), report_type, report_date);
      create index fatf_ratings_country on fatf_ratings (country_id, report_date desc);
    `.execute(db);
  },
};
