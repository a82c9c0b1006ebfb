import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/test-database.ts';
import { migrateTo } from '../migrator.ts';

const database = useTestDatabase({ empty: true });

describe('migration 26: import jobs keep their records validated from the start', () => {
  it('ends the jobs of the earlier flow still waiting or running, drops what they kept, keeps the ended ones', async () => {
    await migrateTo(database.db, 25);
    const { rows } = await sql<{ id: number; status: string }>`
      insert into fatf_imports (status, options, records, record_count, created_by, finished_at)
      values ('pending', '{}', '[{"jurisdiction": "Spain"}]', 1, 'staff@example.com', null),
        ('processing', '{}', '[{"jurisdiction": "Spain"}]', 1, 'staff@example.com', null),
        ('completed', '{}', null, 1, 'staff@example.com', now())
      returning id, status
    `.execute(database.db);
    const processing = rows.find((row) => row.status === 'processing')!.id;
    await sql`
      insert into fatf_import_rows (import_id, position, jurisdiction, report_type, report_date,
        assessment_body, effectiveness, compliance)
      values (${processing}, 0, 'Spain', 'MER', '2014-12-01', 'FATF', '{}', '{}')
    `.execute(database.db);

    await migrateTo(database.db, 26);
    const jobs = await database.db
      .selectFrom('fatf_imports')
      .select(['status', 'message'])
      .orderBy('id')
      .execute();
    const upgraded =
      'Stopped by an upgrade of the console before it ended; nothing was imported. Start it again.';
    expect(jobs).toEqual([
      { status: 'failed', message: upgraded },
      { status: 'failed', message: upgraded },
      { status: 'completed', message: '' },
    ]);
    expect(await database.db.selectFrom('fatf_import_rows').selectAll().execute()).toEqual([]);
    const { rows: columns } = await sql<{ name: string }>`
      select column_name as name from information_schema.columns
      where table_name = 'fatf_imports' and column_name = 'records'
    `.execute(database.db);
    expect(columns).toEqual([]);
  });
});
