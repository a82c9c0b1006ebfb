import { describe, expect, it } from 'vitest';
import {
  IMPORT_FILE_MESSAGES,
  countryImportFile,
  documentTypeImportFile,
  isJsonFileName,
  parseImportFile,
} from './import-files.ts';

const germany = { id: 276, alpha2: 'DE', alpha3: 'DEU', name: 'Germany' };
const passport = {
  id: 'passport',
  displayName: 'Passport',
  tags: ['identity'],
  apiReferences: { onfido: 'passport' },
};

describe('isJsonFileName', () => {
  it.each(['countries.json', 'COUNTRIES.JSON', 'a.b.Json', ' spaced.json '])('%j is', (name) => {
    expect(isJsonFileName(name)).toBe(true);
  });

  it.each(['countries.csv', 'countries.json.txt', 'json', 'countries', ''])('%j is not', (name) => {
    expect(isJsonFileName(name)).toBe(false);
  });
});

describe('parseImportFile, countries', () => {
  it('gives the records of a valid file, extra fields and all', () => {
    const records = [germany, { ...germany, id: 250, alpha2: 'FR', extra: true }];
    expect(parseImportFile(countryImportFile, 'c.json', JSON.stringify(records))).toEqual({
      ok: true,
      records,
    });
  });

  it('accepts an empty array and a byte order mark', () => {
    expect(parseImportFile(countryImportFile, 'c.json', '\uFEFF[]')).toEqual({
      ok: true,
      records: [],
    });
  });

  it("refuses another file type with 'Please select a JSON file' before reading it", () => {
    expect(parseImportFile(countryImportFile, 'c.csv', '[]')).toEqual({
      ok: false,
      message: 'Please select a JSON file',
    });
  });

  it.each(['', '{', 'not json', "[{'id': 1}]"])("%j is 'Invalid JSON file format'", (text) => {
    expect(parseImportFile(countryImportFile, 'c.json', text)).toEqual({
      ok: false,
      message: IMPORT_FILE_MESSAGES.invalidJson,
    });
  });

  it.each(['{}', '"countries"', '42', 'null'])('%s is not an array', (text) => {
    expect(parseImportFile(countryImportFile, 'c.json', text)).toEqual({
      ok: false,
      message: 'Invalid JSON format. Expected an array of countries',
    });
  });

  it.each([
    ['no id', { alpha2: 'DE', alpha3: 'DEU', name: 'Germany' }],
    ['a text id', { ...germany, id: '276' }],
    ['no alpha2', { id: 276, alpha3: 'DEU', name: 'Germany' }],
    ['a numeric alpha3', { ...germany, alpha3: 276 }],
    ['no name', { id: 276, alpha2: 'DE', alpha3: 'DEU' }],
    ['null', null],
    ['an array', [276, 'DE', 'DEU', 'Germany']],
  ])('names the first record with %s', (_what, bad) => {
    const result = parseImportFile(countryImportFile, 'c.json', JSON.stringify([germany, bad]));
    expect(result).toEqual({
      ok: false,
      message:
        'Invalid data structure. Each country must have id (a number), alpha2, alpha3 and name; the record at index 1 does not.',
    });
  });
});

describe('parseImportFile, document types', () => {
  it('gives the records of a valid file', () => {
    expect(parseImportFile(documentTypeImportFile, 'd.json', JSON.stringify([passport]))).toEqual({
      ok: true,
      records: [passport],
    });
  });

  it('says what it expected an array of', () => {
    expect(parseImportFile(documentTypeImportFile, 'd.json', JSON.stringify(passport))).toEqual({
      ok: false,
      message: 'Invalid JSON format. Expected an array of document types',
    });
  });

  it.each([
    ['no id', { ...passport, id: undefined }],
    ['no displayName', { ...passport, displayName: undefined }],
    ['tags that are not an array', { ...passport, tags: 'identity' }],
    ['no apiReferences', { ...passport, apiReferences: undefined }],
    ['apiReferences that are an array', { ...passport, apiReferences: ['onfido'] }],
    ['apiReferences that are null', { ...passport, apiReferences: null }],
  ])('names the first record with %s', (_what, bad) => {
    const result = parseImportFile(documentTypeImportFile, 'd.json', JSON.stringify([bad]));
    expect(result).toEqual({
      ok: false,
      message:
        'Invalid data structure. Each document type must have id, displayName, a tags array and an apiReferences object; the record at index 0 does not.',
    });
  });
});
