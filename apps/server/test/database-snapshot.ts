import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';

/**
 * Tables that change without a request writing anything (sign-in state, migrations, the rate
 * limiter counting a refused request too).
 */
const VOLATILE_TABLES = new Set([
  'rate_limit_counters',
  'sessions',
  'sign_in_attempts',
  'signing_keys',
  'schema_migrations',
]);

/**
 * Every row of every table, as JSON text sorted per table: two snapshots are equal when no
 * request changed anything (row counts and contents). Use it to prove a refused request wrote
 * nothing.
 */
export async function snapshotDatabase(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`.execute(db);
  const snapshot: Record<string, string[]> = {};
  for (const { name } of tables.rows) {
    if (VOLATILE_TABLES.has(name)) continue;
    const rows = await sql<{ row: string }>`
      select row_to_json(t)::text as row from ${sql.table(name)} t`.execute(db);
    snapshot[name] = rows.rows.map((row) => row.row).sort();
  }
  return snapshot;
}
