import Papa from 'papaparse';
import {
  COMPLIANCE_FIELDS,
  COMPLIANCE_RATING_COUNT,
  EFFECTIVENESS_FIELDS,
  EFFECTIVENESS_RATING_COUNT,
  issueTypeOf,
  plainRatingsRecord,
  ratingsRecordSchema,
  type RatingsIssue,
  type RatingsRecord,
} from './ratings.ts';

/**
 * Reading a ratings CSV file in the browser (spec part 2, section 5 "CSV file" and "Ratings
 * record"), as the FATF's consolidated assessment ratings table exports it: banner rows above the
 * header, a byte order mark, commas or semicolons, 'IO.1'/'R.1' spellings, 'N/A', bracketed
 * report types, dates such as 'May/23' or spreadsheet serial numbers. Pure: the web app runs it in
 * a Web Worker so a 10 MB file never freezes the page.
 */

export const RATINGS_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const RATINGS_FILE_NAME_MAX_LENGTH = 255;
/** Rows above the header a file may have (titles, notes, an empty line). */
export const RATINGS_BANNER_ROWS_MAX = 20;

export const RATINGS_FILE_MESSAGES = {
  type: 'Invalid file type. Please upload a CSV file (.csv)',
  size: 'File size too large. Maximum size is 10 MB',
  name: 'Invalid file name',
  missingColumn: (name: string, available: readonly string[]) =>
    `Required column '${name}' not found in CSV headers. Available headers: ${available.join(', ')}`,
  noRows: 'The file holds no rows',
  noRatingColumns: `No rating columns found (IO1 to IO${EFFECTIVENESS_RATING_COUNT}, R1 to R${COMPLIANCE_RATING_COUNT}): records will have no ratings`,
  ignoredColumn: (header: string) => `Column '${header}' is not a ratings column; it is ignored`,
  repeatedColumn: (header: string, field: string) =>
    `Column '${header}' is a second ${field} column; the first one is read`,
  duplicateRecord: (first: number) =>
    `Same jurisdiction, report type and report date as row ${first}`,
} as const;

/** The one message for a file that cannot be read at all, or null (checked before parsing). */
export function checkRatingsFile(file: { name: string; size: number }): string | null {
  const name = file.name.trim();
  if (!name || file.name.length > RATINGS_FILE_NAME_MAX_LENGTH) return RATINGS_FILE_MESSAGES.name;
  if (!/\.csv$/i.test(name)) return RATINGS_FILE_MESSAGES.type;
  if (file.size > RATINGS_FILE_MAX_BYTES) return RATINGS_FILE_MESSAGES.size;
  return null;
}

/** Section 3 "Parse result". */
export interface RatingsParseResult {
  ratingsData: RatingsRecord[];
  errors: RatingsIssue[];
  warnings: RatingsIssue[];
}

/** The required columns: the name messages use, and the header texts that mean it. */
const REQUIRED_COLUMNS = [
  { field: 'jurisdiction', name: 'jurisdiction', aliases: ['jurisdiction', 'country'] },
  { field: 'reportType', name: 'report type', aliases: ['report type', 'type'] },
  { field: 'reportDate', name: 'report date', aliases: ['report date', 'date'] },
  { field: 'assessmentBody', name: 'assessment body', aliases: ['assessment body', 'body'] },
] as const;

const OPTIONAL_COLUMNS: Record<string, string> = {
  upgrades: 'upgrades',
  downgrades: 'downgrades',
  'valid from': 'validFrom',
  'valid to': 'validTo',
  'country code': 'countryCode',
  'report url': 'reportUrl',
  url: 'reportUrl',
};

/** A header as compared: lower case, no punctuation, single spaces ('Assessment body/bodies'
 * is 'assessment body bodies'). */
const normalizeHeader = (header: string) =>
  header
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** io1..io11 and r1..r40 from 'IO1', 'IO.1', 'IO 1', 'R.40'; null for anything else. */
function ratingFieldOf(header: string): string | null {
  const match = /^(io|r) ?(\d{1,2})$/.exec(normalizeHeader(header));
  if (!match) return null;
  // The field lists' own strings: the record reader looks each field up for every row, and a
  // lookup finds the very string it is given sooner than an equal one.
  const fields = match[1] === 'io' ? EFFECTIVENESS_FIELDS : COMPLIANCE_FIELDS;
  return fields[Number(match[2]) - 1] ?? null;
}

/**
 * The record field of each column of a header row (null: not a ratings column). Exact header
 * texts first, then a required column's name followed by more words ('Assessment body/bodies',
 * 'Report date (dd/mm/yyyy)') for a required column still missing.
 */
function fieldsOf(headers: readonly string[]): (string | null)[] {
  const normalized = headers.map(normalizeHeader);
  const fields = normalized.map((header, index): string | null => {
    const required = REQUIRED_COLUMNS.find((column) =>
      (column.aliases as readonly string[]).includes(header),
    );
    return required?.field ?? OPTIONAL_COLUMNS[header] ?? ratingFieldOf(headers[index] ?? '');
  });
  for (const column of REQUIRED_COLUMNS) {
    if (fields.includes(column.field)) continue;
    const index = normalized.findIndex(
      (header, at) => fields[at] === null && header.startsWith(`${column.name} `),
    );
    if (index >= 0) fields[index] = column.field;
  }
  return fields;
}

const missingRequired = (fields: readonly (string | null)[]) =>
  REQUIRED_COLUMNS.filter((column) => !fields.includes(column.field));

/** A top row that is not the header, and the required columns it does not name. */
interface HeaderCandidate {
  index: number;
  row: readonly string[];
  missing: ReturnType<typeof missingRequired>;
}

/** The message about the top row that names the most required columns (the first on a tie). */
function headerError(best: HeaderCandidate | undefined): RatingsIssue {
  const available = (best?.row ?? []).map((header) => header.trim()).filter(Boolean);
  const [first] = best?.missing ?? REQUIRED_COLUMNS;
  return {
    type: 'INVALID_HEADER',
    message: RATINGS_FILE_MESSAGES.missingColumn(first?.name ?? 'jurisdiction', available),
    row: (best?.index ?? 0) + 1,
    severity: 'error',
  };
}

/** Warnings about the header: ignored and repeated columns, no rating column at all. */
function headerWarnings(
  headers: readonly string[],
  fields: readonly (string | null)[],
  row: number,
) {
  const warnings: RatingsIssue[] = [];
  const warn = (message: string, column?: string) =>
    warnings.push({ type: 'INVALID_HEADER', message, row, column, severity: 'warning' });
  fields.forEach((field, index) => {
    const header = (headers[index] ?? '').trim();
    if (field === null) {
      if (header) warn(RATINGS_FILE_MESSAGES.ignoredColumn(header));
    } else if (fields.indexOf(field) !== index) {
      warn(RATINGS_FILE_MESSAGES.repeatedColumn(header, field), field);
    }
  });
  if (!fields.some((field) => field !== null && /^(io|r)\d+$/.test(field))) {
    warn(RATINGS_FILE_MESSAGES.noRatingColumns);
  }
  return warnings;
}

/**
 * Calls `visit` with each row of the file as text cells, in order, until it answers false; a
 * byte order mark dropped, the delimiter guessed. The rows are not kept: a 10 MB file's cells die
 * young, where an array of all of them outlived the garbage collector's young generation and made
 * most of the reading time.
 */
function readRows(text: string, visit: (row: string[]) => boolean): void {
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    delimiter: '',
    delimitersToGuess: [',', ';', '\t', '|'],
    skipEmptyLines: false,
    step: (results, parser) => {
      if (!visit(results.data)) parser.abort();
    },
  });
}

const isBlankRow = (row: readonly string[]) => row.every((cell) => cell.trim() === '');

/**
 * The records of a ratings CSV and what is wrong with it. The header is the first of the top
 * rows that names every required column. A row with an error is not among the records; rows are
 * numbered as a spreadsheet numbers them (the header's is the first counted after any banner
 * rows); blank rows are skipped.
 */
export function parseRatingsCsv(text: string): RatingsParseResult {
  const result: RatingsParseResult = { ratingsData: [], errors: [], warnings: [] };
  let readRecord: ((row: string[], index: number) => void) | undefined;
  /** While the header is looked for: the top row closest to being it. */
  let best: HeaderCandidate | undefined;
  let index = -1;
  let anyNonBlank = false;
  readRows(text, (row) => {
    index += 1;
    if (readRecord) {
      if (!isBlankRow(row)) readRecord(row, index);
      return true;
    }
    anyNonBlank ||= !isBlankRow(row);
    // Past the top rows, only whether the file holds anything at all is left to learn.
    if (index > RATINGS_BANNER_ROWS_MAX) return !anyNonBlank;
    const fields = fieldsOf(row);
    const missing = missingRequired(fields);
    if (missing.length === 0) {
      result.warnings.push(...headerWarnings(row, fields, index + 1));
      readRecord = recordReader(fields, result);
    } else if (!best || missing.length < best.missing.length) {
      best = { index, row, missing };
    }
    return true;
  });
  if (!anyNonBlank) {
    result.errors.push({
      type: 'MISSING_SHEET',
      message: RATINGS_FILE_MESSAGES.noRows,
      row: 0,
      severity: 'error',
    });
  } else if (!readRecord) {
    result.errors.push(headerError(best));
  }
  return result;
}

/** Reads a row after the header (`fields`) into `result`: a record, or its errors. */
function recordReader(fields: readonly (string | null)[], result: RatingsParseResult) {
  const firstRowOf = new Map<string, number>();
  // Each field's column: the first one that names it (headerWarnings names the others).
  const columnOf = new Map<string, number>();
  fields.forEach((field, column) => {
    if (field !== null && !columnOf.has(field)) columnOf.set(field, column);
  });
  // One reader of the current row's cells, not a closure per row.
  let row: string[] = [];
  const cell = (field: string) => {
    const column = columnOf.get(field);
    return column === undefined ? undefined : (row[column] ?? '');
  };
  /** The schema's reading of the current row: its record, or null with its errors added. */
  const schemaRecord = (index: number): RatingsRecord | null => {
    const parsed = ratingsRecordSchema.safeParse(
      Object.fromEntries([...columnOf].map(([field, column]) => [field, row[column] ?? ''])),
    );
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const column = String(issue.path[0] ?? '');
      result.errors.push({
        type: issueTypeOf(column, issue.message),
        message: issue.message,
        row: index + 1,
        column,
        value: cell(column),
        severity: 'error',
      });
    }
    return null;
  };
  return (current: string[], index: number) => {
    row = current;
    // A plain row is read in place; any other goes through the schema, for its messages.
    const record = plainRatingsRecord(cell) ?? schemaRecord(index);
    if (record === null) return;
    const key = `${record.jurisdiction.toLowerCase()}|${record.reportType}|${record.reportDate}`;
    const first = firstRowOf.get(key);
    if (first === undefined) firstRowOf.set(key, index + 1);
    else {
      result.warnings.push({
        type: 'INVALID_DATA',
        message: RATINGS_FILE_MESSAGES.duplicateRecord(first),
        row: index + 1,
        column: 'jurisdiction',
        value: record.jurisdiction,
        severity: 'warning',
      });
    }
    result.ratingsData.push(record);
  };
}

/**
 * A ratings CSV with every column the reader knows, in the FATF table's spellings, and one
 * example row (Download Template): a file that passes every rule as it is.
 */
export function ratingsCsvTemplate(): string {
  const header = [
    'Jurisdiction',
    'Report Type',
    'Report Date',
    'Assessment Body',
    ...Array.from({ length: EFFECTIVENESS_RATING_COUNT }, (_, index) => `IO${index + 1}`),
    ...Array.from({ length: COMPLIANCE_RATING_COUNT }, (_, index) => `R${index + 1}`),
    'Upgrades',
    'Downgrades',
    'Valid From',
    'Valid To',
    'Country Code',
    'Report URL',
  ];
  const example = [
    'Spain',
    'MER',
    '2014-12-01',
    'FATF',
    ...Array.from({ length: EFFECTIVENESS_RATING_COUNT }, () => 'SE'),
    ...Array.from({ length: COMPLIANCE_RATING_COUNT }, () => 'LC'),
    '0',
    '0',
    '',
    '',
    'ES',
    'https://www.fatf-gafi.org/',
  ];
  return `${header.join(',')}\r\n${example.join(',')}\r\n`;
}
