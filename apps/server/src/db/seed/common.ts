import type { InsertObject, Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** created_by / updated_by of every row the seed writes (spec: writes are attributed). */
export const SEED_ACTOR = 'seed';

/** The created and updated stamps of a row the seed writes at `now`. */
export function seedStamps(now: Date) {
  return { created_at: now, created_by: SEED_ACTOR, updated_at: now, updated_by: SEED_ACTOR };
}

/**
 * Inserts the rows that are missing (insert ... on conflict do nothing: a row that is there, maybe
 * edited, stays as it is); answers how many it inserted.
 */
export async function insertMissing<Table extends keyof Database & string>(
  db: Kysely<Database>,
  table: Table,
  rows: readonly InsertObject<Database, Table>[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db
    .insertInto(table)
    .values(rows)
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

/** A list written as comma-separated text (keeps long word lists compact): 'a, b,\n c' -> [a, b, c]. */
export function list(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
