import { z } from 'zod';
import { apiRoute } from './api.ts';
import { listPageQueryShape, pageSchema } from './pagination.ts';
import { text } from './text.ts';

/**
 * FATF assessment ratings (spec part 2: section 3 "Ratings record", section 5 "Ratings record",
 * section 9): one record per jurisdiction and report, as parsed from a CSV file in the browser
 * (ratings-csv.ts) and validated again by the server with this same schema. Parsed records are
 * normalised (codes upper-case, 'N/A' as NA, the report date as YYYY-MM-DD), so a parsed record
 * passes the schema again unchanged.
 */

/** 11 effectiveness ratings (io1..io11) and 40 compliance ratings (r1..r40). */
export const EFFECTIVENESS_RATING_COUNT = 11;
export const COMPLIANCE_RATING_COUNT = 40;

/** 1 | 2 | … | N, for the field names below. */
type UpTo<N extends number, Counted extends number[] = []> = Counted['length'] extends N
  ? Exclude<Counted[number], 0> | N
  : UpTo<N, [...Counted, Counted['length']]>;
export type EffectivenessField = `io${UpTo<typeof EFFECTIVENESS_RATING_COUNT>}`;
export type ComplianceField = `r${UpTo<typeof COMPLIANCE_RATING_COUNT>}`;

export const EFFECTIVENESS_FIELDS = Array.from(
  { length: EFFECTIVENESS_RATING_COUNT },
  (_, index) => `io${index + 1}` as EffectivenessField,
);
export const COMPLIANCE_FIELDS = Array.from(
  { length: COMPLIANCE_RATING_COUNT },
  (_, index) => `r${index + 1}` as ComplianceField,
);

export const EFFECTIVENESS_RATINGS = ['HE', 'SE', 'ME', 'LE'] as const;
export const COMPLIANCE_RATINGS = ['C', 'LC', 'PC', 'NC', 'NA'] as const;
export type EffectivenessRating = (typeof EFFECTIVENESS_RATINGS)[number];
export type ComplianceRating = (typeof COMPLIANCE_RATINGS)[number];

/** Report types as the spec spells them; a file's are compared after normalisation. */
export const REPORT_TYPES = [
  'MER',
  'FUR',
  'FUAR',
  'MER+FUR',
  'MER+FURs',
  'MER+FUR+FUAR',
  'MER+FURs+FUAR',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** The spec's messages of section 5, word for word; the URL one completes an unshown text. */
export const RATINGS_MESSAGES = {
  jurisdictionRequired: 'Jurisdiction name is required',
  assessmentBodyRequired: 'Assessment body is required',
  effectiveness: 'Must be one of: HE (High), SE (Substantial), ME (Moderate), LE (Low)',
  compliance:
    'Must be one of: C (Compliant), LC (Largely Compliant), PC (Partially Compliant), NC (Non-Compliant), NA (Not Applicable)',
  reportType: 'Must be a valid report type (MER, FUR, FUAR, or combinations)',
  date: 'Invalid date format',
  number: 'Must be a valid number',
  url: 'Must be a valid URL',
} as const;

export const JURISDICTION_MAX_LENGTH = 200;
export const ASSESSMENT_BODY_MAX_LENGTH = 200;
export const REPORT_URL_MAX_LENGTH = 2000;
/** ISO 3166-1 alpha-2 or alpha-3. */
export const COUNTRY_CODE_PATTERN = /^[A-Z]{2,3}$/;

/** '' and null as absent: an empty cell is no rating. */
const blankAsAbsent = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/**
 * A rating code, trimmed and upper-cased ('N/A' is NA); an empty cell is no rating. One
 * normalising step and one enum check: a record has 51 of these, and an import 50,000 records.
 */
function ratingOf<const Codes extends readonly [string, ...string[]]>(
  codes: Codes,
  message: string,
) {
  return z.preprocess(
    (value) => {
      const present = blankAsAbsent(value);
      return typeof present === 'string'
        ? present
            .trim()
            .toUpperCase()
            .replace(/^N\/A$/, 'NA')
        : present;
    },
    z.enum(codes, { error: message }).optional(),
  );
}

const effectiveness = ratingOf(EFFECTIVENESS_RATINGS, RATINGS_MESSAGES.effectiveness);
const compliance = ratingOf(COMPLIANCE_RATINGS, RATINGS_MESSAGES.compliance);

/**
 * The report type of a cell: bracketed text and spaces removed ('MER (2019)' is MER), compared
 * without regard to case, answered as the spec spells it. Null when it is none of them.
 */
export function normalizeReportType(value: string): ReportType | null {
  const bare = value.replace(/\([^)]*\)|\[[^\]]*\]/g, '').replace(/\s+/g, '');
  return REPORT_TYPES.find((type) => type.toLowerCase() === bare.toLowerCase()) ?? null;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** 1-12 for a month name or an abbreviation of at least 3 letters ('May', 'Sept'); else 0. */
const monthOf = (name: string) =>
  name.length >= 3 ? MONTHS.findIndex((month) => month.startsWith(name.toLowerCase())) + 1 : 0;

/** Days from the spreadsheet epoch: serial 1 is 1900-01-01 (and 60 the 29 February 1900 that
 * spreadsheets count although it never was, so later serials count from 1899-12-30). */
function dateOfSerial(serial: number): Date | null {
  if (!Number.isFinite(serial) || serial < 1 || serial >= 2_958_466) return null;
  const day = Math.floor(serial);
  const epoch = day >= 61 ? Date.UTC(1899, 11, 30) : Date.UTC(1899, 11, 31);
  return new Date(epoch + day * 86_400_000);
}

/** A UTC date from year, month (1-12) and day, or null when no such day exists. */
function utcDate(year: number, month: number, day: number): Date | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
    ? date
    : null;
}

/** Two-digit years as exports write them ('May/23'): 00-69 are 2000s, 70-99 1900s. */
const fullYear = (year: string) => {
  const number = Number(year);
  return year.length === 2 ? (number < 70 ? 2000 + number : 1900 + number) : number;
};

/**
 * The date of a date string as ratings files write it: ISO (2023-05-31, with or without a time),
 * day/month/year (31/05/2023, 31.05.2023), month and year ('May/23', 'May 2023', 'May-2023',
 * 'May 2023' counts as the 1st), a day, month name and year ('31 May 2023'), or a spreadsheet
 * serial number written as text. Null when it is none of these or no such day exists.
 */
export function parseReportDate(value: string): Date | null {
  const trimmed = value.trim();
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(trimmed);
  if (match) return utcDate(Number(match[1]), Number(match[2]), Number(match[3]));
  match = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(trimmed);
  if (match) return utcDate(Number(match[3]), Number(match[2]), Number(match[1]));
  match = /^(?:(\d{1,2})[\s/-])?([A-Za-z]{3,9})\.?[\s/-]+(\d{2}|\d{4})$/.exec(trimmed);
  if (match) {
    const month = monthOf(match[2] ?? '');
    return month ? utcDate(fullYear(match[3] ?? ''), month, Number(match[1] ?? 1)) : null;
  }
  if (/^\d+(\.\d+)?$/.test(trimmed)) return dateOfSerial(Number(trimmed));
  return null;
}

/** YYYY-MM-DD of a date taken as UTC. */
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** A date cell: a Date, a date string or a spreadsheet serial number; answered as YYYY-MM-DD. */
const reportDate = z.unknown().transform((value, ctx) => {
  const date =
    value instanceof Date
      ? Number.isNaN(value.getTime())
        ? null
        : value
      : typeof value === 'number'
        ? dateOfSerial(value)
        : typeof value === 'string'
          ? parseReportDate(value)
          : null;
  if (!date) {
    ctx.addIssue({ code: 'custom', message: RATINGS_MESSAGES.date });
    return z.NEVER;
  }
  return isoDay(date);
});

/** An optional count: an integer ≥ 0, from a number or a string of digits. */
const count = z.preprocess(
  (value) => {
    const present = blankAsAbsent(value);
    return typeof present === 'string' ? Number(present.trim()) : present;
  },
  z
    .number({ error: RATINGS_MESSAGES.number })
    .int({ error: RATINGS_MESSAGES.number })
    .min(0, { error: RATINGS_MESSAGES.number })
    .max(1_000_000, { error: RATINGS_MESSAGES.number })
    .optional(),
);

const requiredText = (name: string, max: number, required: string) =>
  z.preprocess(
    (value) => (value === null || value === undefined ? '' : value),
    text({ name, max, trim: true }).refine((value) => value.length > 0, { error: required }),
  );

const optionalDate = z.preprocess(blankAsAbsent, reportDate.optional());

const ratingFields = Object.fromEntries([
  ...EFFECTIVENESS_FIELDS.map((field) => [field, effectiveness]),
  ...COMPLIANCE_FIELDS.map((field) => [field, compliance]),
]) as Record<EffectivenessField, typeof effectiveness> & Record<ComplianceField, typeof compliance>;

/** One ratings record (the spec's extended record: validFrom, validTo, countryCode, reportUrl). */
export const ratingsRecordSchema = z.object({
  jurisdiction: requiredText(
    'jurisdiction',
    JURISDICTION_MAX_LENGTH,
    RATINGS_MESSAGES.jurisdictionRequired,
  ),
  reportType: z.string({ error: RATINGS_MESSAGES.reportType }).transform((value, ctx) => {
    const type = normalizeReportType(value);
    if (type) return type;
    ctx.addIssue({ code: 'custom', message: RATINGS_MESSAGES.reportType });
    return z.NEVER;
  }),
  reportDate,
  assessmentBody: requiredText(
    'assessmentBody',
    ASSESSMENT_BODY_MAX_LENGTH,
    RATINGS_MESSAGES.assessmentBodyRequired,
  ),
  ...ratingFields,
  upgrades: count,
  downgrades: count,
  validFrom: optionalDate,
  validTo: optionalDate,
  countryCode: z.preprocess(
    (value) => {
      const present = blankAsAbsent(value);
      return typeof present === 'string' ? present.trim().toUpperCase() : present;
    },
    z
      .string()
      .regex(COUNTRY_CODE_PATTERN, { error: 'Must be an ISO 3166-1 alpha-2 or alpha-3 code' })
      .optional(),
  ),
  reportUrl: z.preprocess(
    blankAsAbsent,
    text({ name: 'reportUrl', max: REPORT_URL_MAX_LENGTH, trim: true })
      .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), {
        error: RATINGS_MESSAGES.url,
      })
      .optional(),
  ),
});
export type RatingsRecordInput = z.input<typeof ratingsRecordSchema>;
export type RatingsRecord = z.output<typeof ratingsRecordSchema>;

/* ---------------------------------------------------------------------------------------------
 * The record schema, faster. Reading a 10 MB file (60,000 rows of 55 cells) and validating an
 * import of 50,000 records both ran the schema on every cell: about four times PapaParse's own
 * parse of the file. Most records are plain: every cell a string in the usual shape. Those are
 * read below by plain code with the schema's rules; any other record (a cell the plain reading
 * does not accept, a value of another type) goes through the schema, which has the last word and
 * the messages. ratings.test.ts checks that both readings agree.
 * ------------------------------------------------------------------------------------------- */

/** What ratingsRecordSchema.safeParse answers. */
export type RatingsRecordResult = ReturnType<typeof ratingsRecordSchema.safeParse>;

/** ratingsRecordSchema.safeParse(raw), with plain records read without the schema. */
export function parseRatingsRecord(raw: Readonly<Record<string, unknown>>): RatingsRecordResult {
  const data = plainRatingsRecord((field) => raw[field]);
  return data ? { success: true, data } : ratingsRecordSchema.safeParse(raw);
}

/** NUL, or half of a surrogate pair: the schema's text rules decide (text.ts). */
const TEXT_TO_CHECK = /[\0\uD800-\uDFFF]/;
/** Cells repeat (a file has a few report types and dates): their readings are kept. */
const CACHE_MAX = 10_000;
const reportTypes = new Map<string, ReportType | null>();
const days = new Map<string, string | null>();

function cached<T>(cache: Map<string, T>, key: string, read: (key: string) => T): T {
  const known = cache.get(key);
  if (known !== undefined || cache.has(key)) return known as T;
  if (cache.size >= CACHE_MAX) cache.clear();
  const value = read(key);
  cache.set(key, value);
  return value;
}

/** Blank as the schema's blankAsAbsent sees it: absent, null or only spaces. */
const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A required text cell, trimmed; null when the schema must decide. */
function plainText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= max && !TEXT_TO_CHECK.test(trimmed)
    ? trimmed
    : null;
}

/** YYYY-MM-DD of a date string; null when the schema must decide. */
function plainDay(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return cached(days, value, (text) => {
    const date = parseReportDate(text);
    return date ? isoDay(date) : null;
  });
}

/** A rating cell as the schema reads it: trimmed, upper case, 'N/A' as NA ('' when blank). */
const ratingCode = (cell: string) => {
  const code = cell.trim().toUpperCase();
  return code === 'N/A' ? 'NA' : code;
};

/**
 * The reading of a rating cell with one of `codes`: undefined for a blank cell, the code for a
 * valid one, null when the schema must decide. A cell's reading is kept (one lookup a cell, and
 * every record holds the same few code strings, not each cell's own).
 */
function ratingReader<Code extends string>(codes: readonly Code[]) {
  const valid: ReadonlySet<string> = new Set(codes);
  const read = (cell: string) => {
    const code = ratingCode(cell);
    return code === '' || valid.has(code) ? (code as Code | '') : null;
  };
  const readings = new Map<string, Code | '' | null>();
  return (value: unknown): Code | null | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') return null;
    const reading = cached(readings, value, read);
    return reading === '' ? undefined : reading;
  };
}
const plainEffectiveness = ratingReader(EFFECTIVENESS_RATINGS);
const plainCompliance = ratingReader(COMPLIANCE_RATINGS);

function plainCount(value: unknown): number | null | undefined {
  if (isBlank(value)) return undefined;
  const number = typeof value === 'string' && /^\s*\d{1,7}\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' &&
    Number.isInteger(number) &&
    number >= 0 &&
    number <= 1_000_000
    ? number
    : null;
}

function plainOptionalDay(value: unknown): string | null | undefined {
  return isBlank(value) ? undefined : plainDay(value);
}

function plainCountryCode(value: unknown): string | null | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value !== 'string') return null;
  const code = value.trim().toUpperCase();
  return COUNTRY_CODE_PATTERN.test(code) ? code : null;
}

function plainUrl(value: unknown): string | null | undefined {
  if (isBlank(value)) return undefined;
  const url = plainText(value, REPORT_URL_MAX_LENGTH);
  return url !== null && /^https?:\/\//i.test(url) && URL.canParse(url) ? url : null;
}

/** The codes of the record being read (undefined: no rating): two arrays for all records. */
const effectivenessCodes = EFFECTIVENESS_FIELDS.map(
  (): EffectivenessRating | undefined => undefined,
);
const complianceCodes = COMPLIANCE_FIELDS.map((): ComplianceRating | undefined => undefined);

/**
 * The record as the schema answers it, when every cell is plain; otherwise null. `cell` answers
 * a field's value (a CSV row is read in place, without a record object of its own).
 */
export function plainRatingsRecord(cell: (field: string) => unknown): RatingsRecord | null {
  const jurisdiction = plainText(cell('jurisdiction'), JURISDICTION_MAX_LENGTH);
  const type = cell('reportType');
  const reportType =
    typeof type === 'string' ? cached(reportTypes, type, normalizeReportType) : null;
  const reportDate = plainDay(cell('reportDate'));
  const assessmentBody = plainText(cell('assessmentBody'), ASSESSMENT_BODY_MAX_LENGTH);
  if (jurisdiction === null || reportType === null || reportDate === null) return null;
  if (assessmentBody === null) return null;
  for (let index = 0; index < EFFECTIVENESS_RATING_COUNT; index++) {
    const code = plainEffectiveness(cell(EFFECTIVENESS_FIELDS[index]!));
    if (code === null) return null;
    effectivenessCodes[index] = code;
  }
  for (let index = 0; index < COMPLIANCE_RATING_COUNT; index++) {
    const code = plainCompliance(cell(COMPLIANCE_FIELDS[index]!));
    if (code === null) return null;
    complianceCodes[index] = code;
  }
  const upgrades = plainCount(cell('upgrades'));
  const downgrades = plainCount(cell('downgrades'));
  const validFrom = plainOptionalDay(cell('validFrom'));
  const validTo = plainOptionalDay(cell('validTo'));
  const countryCode = plainCountryCode(cell('countryCode'));
  const reportUrl = plainUrl(cell('reportUrl'));
  if (upgrades === null || downgrades === null || validFrom === null || validTo === null) {
    return null;
  }
  if (countryCode === null || reportUrl === null) return null;
  // Every field was read by the schema's rules above. The record is one object literal of all
  // the schema's fields in its key order (ratings.test.ts checks both): it is made at once, of
  // one shape, its fields inside it, where adding the codes one by one grew and copied its field
  // store several times a record, and that garbage was most of a 10 MB file's reading time.
  // Written out: building it from the field lists would take new Function, which the web app's
  // CSP refuses. A field without a value is undefined, as in the schema's answer for a blank
  // cell (the schema leaves out a field its input lacks; no reader of a record tells the two
  // apart, and JSON, in which records go to the server, drops both).
  return {
    jurisdiction,
    reportType,
    reportDate,
    assessmentBody,
    io1: effectivenessCodes[0],
    io2: effectivenessCodes[1],
    io3: effectivenessCodes[2],
    io4: effectivenessCodes[3],
    io5: effectivenessCodes[4],
    io6: effectivenessCodes[5],
    io7: effectivenessCodes[6],
    io8: effectivenessCodes[7],
    io9: effectivenessCodes[8],
    io10: effectivenessCodes[9],
    io11: effectivenessCodes[10],
    r1: complianceCodes[0],
    r2: complianceCodes[1],
    r3: complianceCodes[2],
    r4: complianceCodes[3],
    r5: complianceCodes[4],
    r6: complianceCodes[5],
    r7: complianceCodes[6],
    r8: complianceCodes[7],
    r9: complianceCodes[8],
    r10: complianceCodes[9],
    r11: complianceCodes[10],
    r12: complianceCodes[11],
    r13: complianceCodes[12],
    r14: complianceCodes[13],
    r15: complianceCodes[14],
    r16: complianceCodes[15],
    r17: complianceCodes[16],
    r18: complianceCodes[17],
    r19: complianceCodes[18],
    r20: complianceCodes[19],
    r21: complianceCodes[20],
    r22: complianceCodes[21],
    r23: complianceCodes[22],
    r24: complianceCodes[23],
    r25: complianceCodes[24],
    r26: complianceCodes[25],
    r27: complianceCodes[26],
    r28: complianceCodes[27],
    r29: complianceCodes[28],
    r30: complianceCodes[29],
    r31: complianceCodes[30],
    r32: complianceCodes[31],
    r33: complianceCodes[32],
    r34: complianceCodes[33],
    r35: complianceCodes[34],
    r36: complianceCodes[35],
    r37: complianceCodes[36],
    r38: complianceCodes[37],
    r39: complianceCodes[38],
    r40: complianceCodes[39],
    upgrades,
    downgrades,
    validFrom,
    validTo,
    countryCode,
    reportUrl,
  };
}

/** Section 3 "Issue": what is wrong, where, and how bad. */
export const RATINGS_ISSUE_TYPES = [
  'MISSING_SHEET',
  'INVALID_HEADER',
  'INVALID_DATA',
  'MISSING_REQUIRED_FIELD',
  'INVALID_DATE',
  'INVALID_RATING',
] as const;
export type RatingsIssueType = (typeof RATINGS_ISSUE_TYPES)[number];

export interface RatingsIssue {
  type: RatingsIssueType;
  message: string;
  /** Line of the file, counted from 1 (as a spreadsheet numbers rows); 0 for the whole file. */
  row: number;
  /** The record field concerned, when there is one. */
  column?: string;
  /** The cell as the file has it. */
  value?: string;
  severity: 'error' | 'warning';
}

/** The issue type of a record field's failure with `message`. */
export function issueTypeOf(field: string, message: string): RatingsIssueType {
  if (
    message === RATINGS_MESSAGES.jurisdictionRequired ||
    message === RATINGS_MESSAGES.assessmentBodyRequired
  ) {
    return 'MISSING_REQUIRED_FIELD';
  }
  if (field === 'reportDate' || field === 'validFrom' || field === 'validTo') return 'INVALID_DATE';
  if (/^(io|r)\d+$/.test(field)) return 'INVALID_RATING';
  return 'INVALID_DATA';
}

/* ---------------------------------------------------------------------------------------------
 * The import job (spec part 2: section 3 "Import options", "Import job", "Statistics"; section 4
 * "Import job status"; section 7 "Ratings import").
 * ------------------------------------------------------------------------------------------- */

/** Records one import may carry: a 10 MB CSV holds fewer. */
export const RATINGS_IMPORT_MAX_RECORDS = 50_000;
/** The request body of an import: 50,000 records of 55 fields, as JSON. */
export const RATINGS_IMPORT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * What an import does with what it finds (defaults as the spec gives them; docs/fatf-import.md):
 * - overwriteExisting: a record for a jurisdiction, report type and report date already stored
 *   replaces it; otherwise it is skipped.
 * - validateChronology: a record dated before the latest report stored (or imported earlier in
 *   the same file) for its jurisdiction is skipped, with an error naming both dates.
 * - skipInvalidRecords: a record the record schema refuses is skipped, with its error; otherwise
 *   one invalid record fails the whole import and nothing is written.
 */
export const RATINGS_IMPORT_DEFAULT_OPTIONS = {
  overwriteExisting: false,
  validateChronology: true,
  skipInvalidRecords: true,
} as const;

const option = (name: keyof typeof RATINGS_IMPORT_DEFAULT_OPTIONS) =>
  z
    .boolean({ error: `${name} must be true or false` })
    .default(RATINGS_IMPORT_DEFAULT_OPTIONS[name]);

export const ratingsImportOptionsSchema = z.object({
  overwriteExisting: option('overwriteExisting'),
  validateChronology: option('validateChronology'),
  skipInvalidRecords: option('skipInvalidRecords'),
});
export type RatingsImportOptions = z.output<typeof ratingsImportOptionsSchema>;

/**
 * A record of an import request: any object here. Each is validated with ratingsRecordSchema
 * when the import is started, so that an invalid one can be skipped (skipInvalidRecords). Checked
 * as it is, not copied: z.record would copy each of 50,000 records of 55 fields, a fifth of the
 * server's time for the request.
 */
const importedRecord = z
  .custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    { error: 'Each record must be an object' },
  )
  .meta({ type: 'object', description: 'A ratings record (ratingsRecordSchema)' });

/** Body of POST api/fatf/import. */
export const ratingsImportRequestSchema = z.object({
  records: z
    .array(importedRecord, {
      error: 'records must be an array of ratings records',
    })
    .min(1, { error: 'records must hold at least one record' })
    .max(RATINGS_IMPORT_MAX_RECORDS, {
      error: `At most ${RATINGS_IMPORT_MAX_RECORDS} records can be imported at once`,
    }),
  options: ratingsImportOptionsSchema.prefault({}),
});
export type RatingsImportRequest = z.input<typeof ratingsImportRequestSchema>;

export const RATINGS_IMPORT_STATUSES = [
  'pending',
  'processing',
  'completed',
  'failed',
  'cancelled',
] as const;
export type RatingsImportStatus = (typeof RATINGS_IMPORT_STATUSES)[number];

export const ratingsImportResultSchema = z.object({
  importId: z.number(),
  recordsProcessed: z.number(),
  recordsImported: z.number(),
  recordsSkipped: z.number(),
  errors: z.array(z.object({ message: z.string() })),
});

export const ratingsImportJobSchema = z.object({
  id: z.number(),
  status: z.enum(RATINGS_IMPORT_STATUSES),
  progress: z.number().int().min(0).max(100),
  message: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  createdBy: z.string(),
  recordCount: z.number(),
  options: ratingsImportOptionsSchema,
  result: ratingsImportResultSchema.nullable(),
});
export type RatingsImportJob = z.output<typeof ratingsImportJobSchema>;

export const ratingsImportStartedSchema = z.object({ importId: z.number() });
export const ratingsImportHistorySchema = z.array(ratingsImportJobSchema);

export const ratingsStatisticsSchema = z.object({
  totalImports: z.number(),
  totalRecords: z.number(),
  countriesWithData: z.number(),
  lastImportDate: z.string().nullable(),
});
export type RatingsStatistics = z.output<typeof ratingsStatisticsSchema>;

/** One stored rating (GET api/fatf/ratings): a report of a jurisdiction with its codes. */
export const storedRatingSchema = z.object({
  id: z.number(),
  jurisdiction: z.string(),
  countryName: z.string().nullable().describe('The matched country, or null when none matched'),
  reportType: z.string(),
  reportDate: z.string().describe('YYYY-MM-DD'),
  assessmentBody: z.string(),
  effectiveness: z.record(z.string(), z.string()).describe('io1..io11 to HE, SE, ME or LE'),
  compliance: z.record(z.string(), z.string()).describe('r1..r40 to C, LC, PC, NC or NA'),
  upgrades: z.number().nullable(),
  downgrades: z.number().nullable(),
  reportUrl: z.string().nullable(),
});
export type StoredRating = z.output<typeof storedRatingSchema>;

/** Query of GET api/fatf/ratings?offset&limit: by jurisdiction, the latest report first. */
export const storedRatingsQuerySchema = z.object({ ...listPageQueryShape });
export const storedRatingsPageSchema = pageSchema(storedRatingSchema);

export const ratingsImportApi = {
  ratings: apiRoute('GET', '/api/fatf/ratings'),
  ratingsExport: apiRoute('GET', '/api/fatf/ratings/export'),
  start: apiRoute('POST', '/api/fatf/import'),
  status: apiRoute('GET', '/api/fatf/import/:id/status'),
  history: apiRoute('GET', '/api/fatf/imports'),
  cancel: apiRoute('DELETE', '/api/fatf/import/:id'),
  stats: apiRoute('GET', '/api/fatf/stats'),
  export: apiRoute('GET', '/api/fatf/export'),
} as const;
