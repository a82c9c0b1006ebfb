/**
 * Test support that the contracts, server and web tests share (imported as
 * '@console/contracts/testing', never by product code: index.ts does not export it).
 */
import fc from 'fast-check';
import Papa from 'papaparse';
import { expect } from 'vitest';
import { CSV_BOM, CSV_RECORD_END } from './exports.ts';
import type { FormField } from './form-fields.ts';

/**
 * Property check of a list normaliser (tags, namespaces): on any list of up to `maxLength`-grapheme
 * strings it is idempotent and yields each item once, none empty, each trimmed, and each passing
 * `checkItem` (what the normaliser adds, such as lower case).
 */
export function expectNormalizesLists(
  normalize: (items: string[]) => string[],
  maxLength: number,
  checkItem: (item: string) => void = () => {},
): void {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength })), (items) => {
      const normalized = normalize(items);
      expect(normalize(normalized)).toEqual(normalized);
      expect(new Set(normalized).size).toBe(normalized.length);
      for (const item of normalized) {
        expect(item).not.toBe('');
        expect(item).toBe(item.trim());
        checkItem(item);
      }
    }),
  );
}

let nextFormFieldId = 1;

/**
 * A field of the catalogue as the forms service answers it: a Text field in the General group,
 * labelled by its storage name, every other property empty, unless `overrides` says otherwise.
 */
export function aFormField(overrides: Partial<FormField> & Pick<FormField, 'name'>): FormField {
  return {
    id: nextFormFieldId++,
    displayName: overrides.name,
    type: 'Text',
    section: null,
    order: null,
    note: null,
    required: false,
    validationErrorMessage: null,
    maxLength: null,
    pattern: null,
    printLabel: null,
    requireFields: [],
    options: [],
    aliasFor: null,
    print: false,
    printSequence: null,
    viewPermissions: [],
    editPermissions: [],
    uiGroup: 'General',
    apiReferences: {},
    tags: [],
    conditionalRequirements: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/**
 * The records of an exported CSV file (contracts/exports.ts), header first, read by PapaParse
 * (another implementation than the writer's); checks the BOM and that every record ends in CRLF.
 */
export function readCsvExport(text: string): string[][] {
  expect(text.startsWith(CSV_BOM)).toBe(true);
  const body = text.slice(CSV_BOM.length);
  expect(body.endsWith(CSV_RECORD_END)).toBe(true);
  const result = Papa.parse<string[]>(body.slice(0, -CSV_RECORD_END.length), {
    delimiter: ',',
    newline: CSV_RECORD_END,
  });
  expect(result.errors).toEqual([]);
  return result.data;
}
