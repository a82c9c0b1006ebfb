import type { DocumentType, DocumentTypeChoice, ExportFormat } from '@console/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, DocumentTypesTable } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';

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

/** The document types in the list's order: by sequence (unset last), then ID. */
const orderedDocumentTypes = (db: Kysely<Database>) =>
  db
    .selectFrom('document_types')
    .orderBy('sequence', (order) => order.asc().nullsLast())
    .orderBy(sql`id collate "C"`);

/** GET api/documenttypes as staff: every document type. */
export async function listDocumentTypes(db: Kysely<Database>): Promise<DocumentType[]> {
  const rows = await orderedDocumentTypes(db).selectAll().execute();
  return rows.map(toDocumentType);
}

/** GET api/documenttypes as a tenant user: every document type as a choice of the profile forms. */
export function listDocumentTypeChoices(db: Kysely<Database>): Promise<DocumentTypeChoice[]> {
  return orderedDocumentTypes(db).select(['id', 'display_name as displayName']).execute();
}

/** GET api/documenttypes/export: every document type, in the list's order, with its fields. */
export function documentTypesExport(
  db: Kysely<Database>,
  format: ExportFormat,
): ListExport<Selectable<DocumentTypesTable>> {
  const period = (row: Selectable<DocumentTypesTable>, part: 'years' | 'months' | 'days') => {
    const value = row.validity_period?.[part];
    return typeof value === 'number' ? value : null;
  };
  return {
    name: 'document-types',
    format,
    db,
    query: orderedDocumentTypes(db).selectAll(),
    columns: [
      { header: 'ID', value: (row) => row.id },
      { header: 'Display Name', value: (row) => row.display_name },
      { header: 'Tags', value: (row) => row.tags.join(', ') },
      { header: 'API References', value: (row) => JSON.stringify(row.api_references) },
      { header: 'Sequence', value: (row) => row.sequence },
      { header: 'Valid From', value: (row) => row.valid_from?.toISOString() ?? null },
      { header: 'Valid To', value: (row) => row.valid_to?.toISOString() ?? null },
      { header: 'Validity Years', value: (row) => period(row, 'years') },
      { header: 'Validity Months', value: (row) => period(row, 'months') },
      { header: 'Validity Days', value: (row) => period(row, 'days') },
    ],
  };
}
