import { COMPLIANCE_FIELDS, EFFECTIVENESS_FIELDS, type ExportFormat } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ExportColumn, ListExport } from '../../http/export.ts';

/**
 * The stored ratings in the FATF data list's order (by jurisdiction, the latest report first),
 * with the import file's columns: a file exported here can be imported again.
 */
function storedRatings(db: Kysely<Database>) {
  return db
    .selectFrom('fatf_ratings')
    .leftJoin('countries', 'countries.id', 'fatf_ratings.country_id')
    .select([
      'fatf_ratings.jurisdiction',
      'countries.alpha2',
      'fatf_ratings.country_code',
      'fatf_ratings.report_type',
      'fatf_ratings.report_date',
      'fatf_ratings.assessment_body',
      'fatf_ratings.effectiveness',
      'fatf_ratings.compliance',
      'fatf_ratings.upgrades',
      'fatf_ratings.downgrades',
      'fatf_ratings.valid_from',
      'fatf_ratings.valid_to',
      'fatf_ratings.report_url',
    ])
    .orderBy(sql`lower(fatf_ratings.jurisdiction)`)
    .orderBy('fatf_ratings.report_date', 'desc')
    .orderBy('fatf_ratings.id');
}

type Row = Awaited<ReturnType<ReturnType<typeof storedRatings>['executeTakeFirstOrThrow']>>;

/** Dates stay YYYY-MM-DD text, as stored: a spreadsheet date cell would show in the reader's zone. */
const COLUMNS: readonly ExportColumn<Row>[] = [
  { header: 'Jurisdiction', value: (row) => row.jurisdiction },
  { header: 'Country Code', value: (row) => row.alpha2 ?? row.country_code },
  { header: 'Report Type', value: (row) => row.report_type },
  { header: 'Report Date', value: (row) => row.report_date },
  { header: 'Assessment Body', value: (row) => row.assessment_body },
  ...EFFECTIVENESS_FIELDS.map((field) => ({
    header: field.toUpperCase(),
    value: (row: Row) => row.effectiveness[field] ?? null,
  })),
  ...COMPLIANCE_FIELDS.map((field) => ({
    header: field.toUpperCase(),
    value: (row: Row) => row.compliance[field] ?? null,
  })),
  { header: 'Upgrades', value: (row) => row.upgrades },
  { header: 'Downgrades', value: (row) => row.downgrades },
  { header: 'Valid From', value: (row) => row.valid_from },
  { header: 'Valid To', value: (row) => row.valid_to },
  { header: 'Report URL', value: (row) => row.report_url },
];

/** GET api/fatf/ratings/export: every stored rating as CSV or xlsx. */
export function ratingsExport(db: Kysely<Database>, format: ExportFormat): ListExport<Row> {
  return {
    name: 'fatf-data',
    sheetName: 'FATF ratings',
    format,
    db,
    query: storedRatings(db),
    columns: COLUMNS,
  };
}

/** GET api/fatf/export (spec part 2, section 7): the same file as xlsx, fatf-data-{date}.xlsx. */
export function spreadsheetExport(db: Kysely<Database>, now = new Date()): ListExport<Row> {
  return {
    ...ratingsExport(db, 'xlsx'),
    fileName: `fatf-data-${now.toISOString().slice(0, 10)}.xlsx`,
  };
}
