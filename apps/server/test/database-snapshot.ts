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
  const snapshot: Record<string, string[]> = {};
  for (const name of await tableNames(db)) {
    if (VOLATILE_TABLES.has(name)) continue;
    const rows = await sql<{ row: string }>`
      select row_to_json(t)::text as row from ${sql.table(name)} t`.execute(db);
    snapshot[name] = rows.rows.map((row) => row.row).sort();
  }
  return snapshot;
}

/**
 * Every table's row count and an md5 of all its rows in order (rows as text, so every column
 * counts, the generated ones too): two databases with the same checksums hold the same data.
 */
export async function tableChecksums(
  db: Kysely<Database>,
): Promise<Record<string, { rows: number; md5: string }>> {
  const checksums: Record<string, { rows: number; md5: string }> = {};
  for (const name of await tableNames(db)) {
    const { rows } = await sql<{ rows: number; md5: string }>`
      select count(*)::int as rows,
        md5(coalesce(string_agg(t::text, E'\n' order by t::text collate "C"), '')) as md5
      from ${sql.table(name)} t`.execute(db);
    checksums[name] = rows[0] ?? { rows: 0, md5: '' };
  }
  return checksums;
}

/** The values every sequence of the schema stands at. */
export async function sequenceValues(db: Kysely<Database>): Promise<Record<string, string>> {
  const { rows } = await sql<{ name: string; value: string | null }>`
    select sequencename as name, last_value::text as value from pg_sequences
    where schemaname = current_schema() order by 1`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.name, row.value ?? 'not called']));
}

async function tableNames(db: Kysely<Database>): Promise<string[]> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`.execute(db);
  return tables.rows.map((row) => row.name);
}
