import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The used tags and API service names of a catalogue that carries them (document types, form
 * fields): what the dialogs offer and flag as new (spec part 1 and part 2, "used-tags",
 * "used-api-service-names").
 */
type TaggedTable = 'document_types' | 'form_fields';

/** Every tag some row of `table` has, once, sorted. */
export function usedTagsOf(db: Kysely<Database>, table: TaggedTable): Promise<string[]> {
  return usedNames(db, table, sql<string>`unnest(tags)`);
}

/** Every service name of an API reference of a row of `table`, once, sorted. */
export function usedApiServiceNamesOf(db: Kysely<Database>, table: TaggedTable): Promise<string[]> {
  return usedNames(db, table, sql<string>`jsonb_object_keys(api_references)`);
}

/** Every value of `names` (an expression over a row of `table`), once, sorted. */
async function usedNames(
  db: Kysely<Database>,
  table: TaggedTable,
  names: RawBuilder<string>,
): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select distinct ${names} as name from ${sql.table(table)}
  `.execute(db);
  return sortNames(rows.map((row) => row.name));
}

// Sorted here rather than by the database, whose collation differs between the embedded cluster
// (C) and a managed server: English order, then code points between names it ranks equal.
const collator = new Intl.Collator('en');
function sortNames(names: string[]): string[] {
  return names.sort((a, b) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
}
