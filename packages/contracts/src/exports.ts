import { z } from 'zod';

/**
 * Whole lists as files (issue 31): every list screen's `GET {list path}/export?format=csv|xlsx`
 * with the list's own filters. The rules of the file's text live here, once: the server writes
 * with them and the tests read back with them.
 */

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const FORMAT_MESSAGE = `format must be ${EXPORT_FORMATS.join(' or ')}`;

/** `format` of an export: csv (the default) or xlsx, in any letter case. */
export const exportFormatQueryParam = z
  .string({ error: FORMAT_MESSAGE })
  .optional()
  .transform((raw, ctx): ExportFormat => {
    const text = raw?.trim().toLowerCase() ?? '';
    if (text === '') return 'csv';
    if ((EXPORT_FORMATS as readonly string[]).includes(text)) return text as ExportFormat;
    ctx.issues.push({ code: 'custom', input: raw, message: FORMAT_MESSAGE });
    return z.NEVER;
  })
  .describe('csv (default) or xlsx');

/**
 * The query of a list's export: the list's filters (its own query parameters without paging,
 * so that a filter means one thing on both calls) and `format`.
 */
export function exportQuerySchema<const Shape extends z.ZodRawShape>(filters: Shape) {
  return z.object({ ...filters, format: exportFormatQueryParam });
}

/** The query of a list that has no filter: only `format`. */
export const wholeListExportQuerySchema = exportQuerySchema({});

/** One cell of an exported row: text, a number, a yes/no, or nothing. */
export type ExportValue = string | number | boolean | null;

/** The byte-order mark a CSV export starts with, so that Excel reads it as UTF-8. */
export const CSV_BOM = '\uFEFF';
/** RFC 4180's record separator. */
export const CSV_RECORD_END = '\r\n';

/**
 * The characters a spreadsheet reads at the start of a cell as a formula (or, tab and CR, that
 * it drops before one): OWASP's "CSV injection". `-` and `+` too: `-2+3+cmd|' /C calc'!A0`.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * `text` as a spreadsheet shows it without running it: text that a spreadsheet would read as a
 * formula gets a leading apostrophe, which spreadsheets show as the start of text (OWASP's
 * advice). Everything else is left as it is.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Fields that RFC 4180 wants in double quotes: those holding a quote, comma, CR or LF. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field (RFC 4180): text neutralised (above), then quoted when it holds a quote, comma,
 * CR or LF, with its quotes doubled. Numbers and yes/no are written as they are (a number's text
 * is never a formula: `-5` is minus five), nothing as an empty field.
 */
export function csvField(value: ExportValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = neutraliseFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record with its CRLF. */
export function csvRecord(values: readonly ExportValue[]): string {
  let line = '';
  for (let index = 0; index < values.length; index++) {
    if (index > 0) line += ',';
    line += csvField(values[index] ?? null);
  }
  return line + CSV_RECORD_END;
}

/**
 * The file name of an export: what the list is and when it was taken, in UTC to the minute,
 * e.g. `tenants-2026-11-28T1230Z.csv`. No character a file system or a header would refuse.
 */
export function exportFileName(list: string, format: ExportFormat, now: Date): string {
  const iso = now.toISOString();
  return `${list}-${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}Z.${format}`;
}
