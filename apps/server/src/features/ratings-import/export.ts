import { COMPLIANCE_FIELDS, EFFECTIVENESS_FIELDS } from '@console/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The spreadsheet's columns: header and the value of a stored rating. */
type Row = Awaited<ReturnType<typeof readRatings>>[number];
const COLUMNS: { header: string; value: (row: Row) => string | number | null }[] = [
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

function readRatings(db: Kysely<Database>) {
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
    .orderBy('fatf_ratings.jurisdiction')
    .orderBy('fatf_ratings.report_date')
    .execute();
}

/** GET api/fatf/export's file name: fatf-data-{date}.xlsx, the date of `now` (UTC). */
export function exportFileName(now = new Date()): string {
  return `fatf-data-${now.toISOString().slice(0, 10)}.xlsx`;
}

/**
 * Every stored rating as an .xlsx workbook (one sheet, one row per report, the import file's
 * columns), built by ExcelJS. Dates stay YYYY-MM-DD text, as stored: a spreadsheet date cell
 * would show in the reader's time zone.
 */
export async function exportRatings(db: Kysely<Database>): Promise<Buffer> {
  // Loaded with the first export, not with the server: ExcelJS takes a third of a second to load.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet('FATF ratings', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRow(COLUMNS.map((column) => column.header)).font = { bold: true };
  for (const row of await readRatings(db)) {
    sheet.addRow(COLUMNS.map((column) => column.value(row)));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
