import type { DocumentType } from '@console/contracts';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Database, DocumentTypesTable } from '../../db/schema.ts';

export function toDocumentType(row: Selectable<DocumentTypesTable>): DocumentType {
  const period = row.validity_period;
  return {
    id: row.id,
    displayName: row.display_name,
    tags: row.tags,
    apiReferences: row.api_references,
    sequence: row.sequence,
    validFrom: row.valid_from?.toISOString() ?? null,
    validTo: row.valid_to?.toISOString() ?? null,
    validityPeriod: period
      ? {
          ...(typeof period.years === 'number' ? { years: period.years } : {}),
          ...(typeof period.months === 'number' ? { months: period.months } : {}),
          ...(typeof period.days === 'number' ? { days: period.days } : {}),
        }
      : null,
  };
}

/** GET api/documenttypes: every document type, by sequence (unset last), then ID. */
export async function listDocumentTypes(db: Kysely<Database>): Promise<DocumentType[]> {
  const rows = await db
    .selectFrom('document_types')
    .selectAll()
    .orderBy('sequence', (order) => order.asc().nullsLast())
    .orderBy(sql`id collate "C"`)
    .execute();
  return rows.map(toDocumentType);
}

/** GET /api/documenttypes/used-tags: every tag some document type has, once, sorted. */
export function usedTags(db: Kysely<Database>): Promise<string[]> {
  return usedNames(db, sql<string>`unnest(tags)`);
}

/** GET /api/documenttypes/used-api-service-names: every service name of an API reference, sorted. */
export function usedApiServiceNames(db: Kysely<Database>): Promise<string[]> {
  return usedNames(db, sql<string>`jsonb_object_keys(api_references)`);
}

/** Every value of `names` (an expression over a document type's row), once, sorted. */
async function usedNames(db: Kysely<Database>, names: RawBuilder<string>): Promise<string[]> {
  const rows = await db.selectFrom('document_types').select(names.as('name')).distinct().execute();
  return sortNames(rows.map((row) => row.name));
}

// Sorted here rather than by the database, whose collation differs between the embedded cluster
// (C) and a managed server: English order, then code points between names it ranks equal.
const collator = new Intl.Collator('en');
function sortNames(names: string[]): string[] {
  return names.sort((a, b) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
}
