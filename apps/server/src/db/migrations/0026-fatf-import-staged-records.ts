import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * An import's records are validated when it is started and kept once, in their stored form, in
 * `fatf_import_rows` (migration 20), in the transaction that stores the job: that is the job's
 * checkpoint, and the job itself is the one transaction that publishes them
 * (features/ratings-import/jobs.ts). The records as submitted (`fatf_imports.records`, a jsonb
 * copy of the request read back by the job) are no longer kept.
 *
 * Jobs of the earlier flow still waiting or running at the upgrade kept their records only there:
 * they end as failed, with a message saying so, and what they had kept goes (every kept row
 * belongs to a job that has not ended).
 */
export const FatfImportStagedRecords: Migration = {
  version: 26,
  description:
    'FATF import jobs keep their records validated, in their stored form, from the start',
  className: 'FatfImportStagedRecords',
  async up(db) {
    await sql`
      update fatf_imports
      set status = 'failed', finished_at = now(),
        message = 'Stopped by an upgrade of the console before it ended; nothing was imported. Start it again.'
      where status in ('pending', 'processing');
      delete from fatf_import_rows;
      alter table fatf_imports drop column records;
    `.execute(db);
  },
};
