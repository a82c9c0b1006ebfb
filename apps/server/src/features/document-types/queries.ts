import type { DocumentType } from '@console/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
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
