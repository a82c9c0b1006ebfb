import type { CountryImportRecord } from './countries.ts';
import type { DocumentTypeImportRecord } from './document-types.ts';

/**
 * Reading an import file before it is sent (spec part 1, section 5, "Import files"): the
 * countries and document types screens check that the file is .json, that it holds an array,
 * and that each record has its required fields. Everything else about a record (ID rules, code
 * lengths, duplicates) is the server's check, with the same schemas (countries.ts,
 * document-types.ts); its 400 answer names the record.
 */

/** The spec's messages, word for word, and the structure messages that complete its '...'. */
export const IMPORT_FILE_MESSAGES = {
  notJsonFile: 'Please select a JSON file',
  invalidJson: 'Invalid JSON file format',
  notAnArray: (plural: string) => `Invalid JSON format. Expected an array of ${plural}`,
} as const;

/** What differs between the import files of the two screens. */
export interface ImportFileKind<T> {
  /** What the array holds, in 'Expected an array of {plural}'. */
  plural: string;
  /** Whether a record has every required field, with its type. */
  hasRequiredFields: (value: unknown) => value is T;
  /** 'Invalid data structure. ...' for the record at `index`. */
  invalidStructure: (index: number) => string;
}

export type ImportFileResult<T> = { ok: true; records: T[] } | { ok: false; message: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Country records: `{id, alpha2, alpha3, name}` (spec 3, "Import country record"). */
export const countryImportFile: ImportFileKind<CountryImportRecord> = {
  plural: 'countries',
  hasRequiredFields: (value): value is CountryImportRecord =>
    isObject(value) &&
    typeof value.id === 'number' &&
    Number.isFinite(value.id) &&
    typeof value.alpha2 === 'string' &&
    typeof value.alpha3 === 'string' &&
    typeof value.name === 'string',
  invalidStructure: (index) =>
    `Invalid data structure. Each country must have id (a number), alpha2, alpha3 and name; the record at index ${index} does not.`,
};

/** Document type records: id, displayName, a tags array and an apiReferences object (spec 5). */
export const documentTypeImportFile: ImportFileKind<DocumentTypeImportRecord> = {
  plural: 'document types',
  hasRequiredFields: (value): value is DocumentTypeImportRecord =>
    isObject(value) &&
    typeof value.id === 'string' &&
    typeof value.displayName === 'string' &&
    Array.isArray(value.tags) &&
    isObject(value.apiReferences),
  invalidStructure: (index) =>
    `Invalid data structure. Each document type must have id, displayName, a tags array and an apiReferences object; the record at index ${index} does not.`,
};

/** Whether a file name ends in .json (in any case): the spec's only file type check. */
export function isJsonFileName(fileName: string): boolean {
  return /\.json$/i.test(fileName.trim());
}

/**
 * The records of an import file, or the one message that says what is wrong with it, checked
 * in this order: the file name, the JSON, the array, each record's required fields.
 */
export function parseImportFile<T>(
  kind: ImportFileKind<T>,
  fileName: string,
  text: string,
): ImportFileResult<T> {
  if (!isJsonFileName(fileName)) return { ok: false, message: IMPORT_FILE_MESSAGES.notJsonFile };
  let value: unknown;
  try {
    // A byte order mark (Windows editors write one) is not part of the JSON.
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, message: IMPORT_FILE_MESSAGES.invalidJson };
  }
  if (!Array.isArray(value)) {
    return { ok: false, message: IMPORT_FILE_MESSAGES.notAnArray(kind.plural) };
  }
  const badIndex = value.findIndex((record) => !kind.hasRequiredFields(record));
  if (badIndex !== -1) return { ok: false, message: kind.invalidStructure(badIndex) };
  return { ok: true, records: value as T[] };
}
