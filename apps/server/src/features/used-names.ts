import { usedNamesSchema, type ApiRoute } from '@console/contracts';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/schema.ts';
import type { CachedRead, ReferenceCache } from '../http/reference-cache.ts';
import type { CachedChoices, FeatureRoutes } from './routes.ts';

/**
 * The used tags and API service names of a catalogue that carries them (document types, form
 * fields): what the dialogs offer and flag as new (spec part 1 and part 2, "used-tags",
 * "used-api-service-names").
 */
type TaggedTable = 'document_types' | 'form_fields';

/** A catalogue's three reads: the list, its used tags and its used API service names. */
interface CatalogueReads {
  /** Its table, which is also its cached reference list. */
  table: TaggedTable;
  /** What one row is, in the summaries: 'a document type'. */
  owner: string;
  /** The cache's variant of the list; the used names' are derived from it. */
  variant: string;
  list: {
    api: ApiRoute;
    summary: string;
    response: z.ZodType;
    read: CachedRead['read'];
    /** What tenant users read of the list (featureRoutes' cachedList), if they may. */
    choices?: CachedChoices;
  };
  usedTags: ApiRoute;
  usedApiServiceNames: ApiRoute;
}

/**
 * Registers a catalogue's list, used tags and used API service names, each answered from its own
 * cached body of the catalogue's reference list (so every write of the table renews all three).
 */
export function registerCatalogueReads(
  routes: FeatureRoutes,
  cache: ReferenceCache,
  { table, owner, variant, list, usedTags, usedApiServiceNames }: CatalogueReads,
): void {
  const cached = (name: string, read: CachedRead['read']) => ({
    cache,
    list: table,
    variant: name,
    read,
  });
  routes.cachedList(list.api, {
    summary: list.summary,
    response: list.response,
    choices: list.choices,
    ...cached(variant, list.read),
  });
  routes.cachedList(usedTags, {
    summary: `Every tag in use by ${owner}, once, sorted`,
    response: usedNamesSchema,
    ...cached(`${variant}-used-tags`, (db) => usedTagsOf(db, table)),
  });
  routes.cachedList(usedApiServiceNames, {
    summary: `Every API reference service name in use by ${owner}, once, sorted`,
    response: usedNamesSchema,
    ...cached(`${variant}-used-api-service-names`, (db) => usedApiServiceNamesOf(db, table)),
  });
}

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
