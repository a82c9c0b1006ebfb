import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RATINGS_MESSAGES } from './ratings.ts';
import {
  checkRatingsFile,
  parseRatingsCsv,
  ratingsCsvTemplate,
  RATINGS_FILE_MAX_BYTES,
  RATINGS_FILE_MESSAGES,
} from './ratings-csv.ts';

const IO = Array.from({ length: 11 }, (_, index) => `IO${index + 1}`);
const R = Array.from({ length: 40 }, (_, index) => `R${index + 1}`);

/**
 * A file shaped like an export of the FATF's consolidated assessment ratings table: a title row
 * and an empty row above the header, the header's own spellings, 'N/A' and bracketed notes.
 */
function fatfExport({ delimiter = ',', bom = false, dotted = false } = {}) {
  const rating = (name: string) => (dotted ? name.replace(/(\d+)/, '.$1') : name);
  const header = [
    'Jurisdiction',
    'Report Type',
    'Report Date',
    'Assessment body/bodies',
    ...IO.map(rating),
    ...R.map(rating),
  ];
  const row = (cells: string[]) =>
    cells.map((cell) => (cell.includes(delimiter) ? `"${cell}"` : cell)).join(delimiter);
  const lines = [
    row(['Consolidated assessment ratings', ...Array<string>(header.length - 1).fill('')]),
    '',
    row(header),
    row([
      'Spain',
      'MER',
      'Dec/14',
      'FATF',
      ...IO.map((_, index) => ['SE', 'ME', 'HE', 'LE'][index % 4] ?? 'SE'),
      ...R.map((_, index) => ['C', 'LC', 'PC', 'NC', 'N/A'][index % 5] ?? 'C'),
    ]),
    row([
      'Botswana',
      'MER+FURs (re-ratings)',
      '45077',
      'ESAAMLG/WB',
      ...IO.map(() => 'ME'),
      ...R.map(() => 'LC'),
    ]),
  ];
  return `${bom ? '\uFEFF' : ''}${lines.join('\r\n')}\r\n`;
}

describe('checkRatingsFile', () => {
  it('applies the file rules in the spec’s words', () => {
    expect(checkRatingsFile({ name: 'ratings.csv', size: 1000 })).toBeNull();
    expect(checkRatingsFile({ name: 'RATINGS.CSV', size: RATINGS_FILE_MAX_BYTES })).toBeNull();
    expect(checkRatingsFile({ name: 'ratings.xlsx', size: 1000 })).toBe(RATINGS_FILE_MESSAGES.type);
    expect(checkRatingsFile({ name: 'ratings.csv', size: RATINGS_FILE_MAX_BYTES + 1 })).toBe(
      RATINGS_FILE_MESSAGES.size,
    );
    expect(checkRatingsFile({ name: `${'x'.repeat(252)}.csv`, size: 1 })).toBe(
      RATINGS_FILE_MESSAGES.name,
    );
    expect(checkRatingsFile({ name: `${'x'.repeat(251)}.csv`, size: 1 })).toBeNull();
    expect(checkRatingsFile({ name: '  ', size: 1 })).toBe(RATINGS_FILE_MESSAGES.name);
    expect(RATINGS_FILE_MESSAGES.type).toBe('Invalid file type. Please upload a CSV file (.csv)');
    expect(RATINGS_FILE_MESSAGES.size).toBe('File size too large. Maximum size is 10 MB');
  });
});

describe('parseRatingsCsv', () => {
  it.each([
    ['commas', {}],
    ['semicolons and a byte order mark', { delimiter: ';', bom: true }],
    ['tabs and IO.1/R.1 spellings', { delimiter: '\t', dotted: true }],
  ])('reads an FATF export with %s', (_name, options) => {
    const result = parseRatingsCsv(fatfExport(options));
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.ratingsData).toHaveLength(2);
    const [spain, botswana] = result.ratingsData;
    expect(spain).toMatchObject({
      jurisdiction: 'Spain',
      reportType: 'MER',
      reportDate: '2014-12-01',
      assessmentBody: 'FATF',
      io1: 'SE',
      io3: 'HE',
      r1: 'C',
      r5: 'NA',
      r40: 'NA',
    });
    expect(botswana).toMatchObject({
      reportType: 'MER+FURs',
      reportDate: '2023-05-31',
      assessmentBody: 'ESAAMLG/WB',
    });
  });

  it('names the missing required column and the headers it found', () => {
    const result = parseRatingsCsv('Country;Type;Date\nSpain;MER;2014-12-01\n');
    expect(result.ratingsData).toEqual([]);
    expect(result.errors).toEqual([
      {
        type: 'INVALID_HEADER',
        message:
          "Required column 'assessment body' not found in CSV headers. Available headers: Country, Type, Date",
        row: 1,
        severity: 'error',
      },
    ]);
  });

  it('matches header names without regard to case, and reads the short names', () => {
    const result = parseRatingsCsv(
      'COUNTRY,type,DATE,Body,io1,r1\nPeru,mer,2019-02-01,GAFILAT,le,nc\n',
    );
    expect(result.errors).toEqual([]);
    expect(result.ratingsData).toEqual([
      expect.objectContaining({ jurisdiction: 'Peru', reportType: 'MER', io1: 'LE', r1: 'NC' }),
    ]);
  });

  it('lists each invalid cell with its type, row, column and value, and keeps the good rows', () => {
    const file = [
      'Jurisdiction,Report Type,Report Date,Assessment Body,IO1,R1,Upgrades',
      'Spain,MER,2014-12-01,FATF,SE,C,0',
      ',FUR,2016-01-01,FATF,XX,Y,-1',
      'Peru,MER,soon,,ME,C,',
    ].join('\n');
    const result = parseRatingsCsv(file);
    expect(result.ratingsData.map((record) => record.jurisdiction)).toEqual(['Spain']);
    expect(result.errors).toEqual([
      {
        type: 'MISSING_REQUIRED_FIELD',
        message: RATINGS_MESSAGES.jurisdictionRequired,
        row: 3,
        column: 'jurisdiction',
        value: '',
        severity: 'error',
      },
      expect.objectContaining({ type: 'INVALID_RATING', row: 3, column: 'io1', value: 'XX' }),
      expect.objectContaining({ type: 'INVALID_RATING', row: 3, column: 'r1', value: 'Y' }),
      expect.objectContaining({ type: 'INVALID_DATA', row: 3, column: 'upgrades', value: '-1' }),
      expect.objectContaining({
        type: 'INVALID_DATE',
        row: 4,
        column: 'reportDate',
        value: 'soon',
      }),
      expect.objectContaining({
        type: 'MISSING_REQUIRED_FIELD',
        row: 4,
        column: 'assessmentBody',
        message: RATINGS_MESSAGES.assessmentBodyRequired,
      }),
    ]);
  });

  it('warns about ignored and repeated columns, missing ratings and repeated records', () => {
    const file = [
      'Jurisdiction,Report Type,Report Date,Assessment Body,Notes,Jurisdiction',
      'Spain,MER,2014-12-01,FATF,first,x',
      'spain,MER,01/12/2014,FATF,again,y',
    ].join('\n');
    const result = parseRatingsCsv(file);
    expect(result.errors).toEqual([]);
    expect(result.ratingsData).toHaveLength(2);
    expect(result.warnings.map((warning) => [warning.type, warning.row, warning.message])).toEqual([
      ['INVALID_HEADER', 1, RATINGS_FILE_MESSAGES.ignoredColumn('Notes')],
      ['INVALID_HEADER', 1, RATINGS_FILE_MESSAGES.repeatedColumn('Jurisdiction', 'jurisdiction')],
      ['INVALID_HEADER', 1, RATINGS_FILE_MESSAGES.noRatingColumns],
      ['INVALID_DATA', 3, RATINGS_FILE_MESSAGES.duplicateRecord(2)],
    ]);
    expect(result.warnings.every((warning) => warning.severity === 'warning')).toBe(true);
  });

  it('reports an empty file as holding no rows', () => {
    for (const text of ['', '\uFEFF', '\n\n', ' , ,\n']) {
      expect(parseRatingsCsv(text).errors).toEqual([
        { type: 'MISSING_SHEET', message: RATINGS_FILE_MESSAGES.noRows, row: 0, severity: 'error' },
      ]);
    }
  });

  it('never throws, and accounts for every non-blank row after the header', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 6 }), {
          maxLength: 8,
        }),
        (rows) => {
          const body = rows.map((cells) =>
            cells.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(','),
          );
          const file = [
            'Jurisdiction,Report Type,Report Date,Assessment Body,IO1,R1',
            ...body,
          ].join('\n');
          const result = parseRatingsCsv(file);
          const rowsWithErrors = new Set(result.errors.map((issue) => issue.row));
          const nonBlank = rows.filter((cells) => cells.some((cell) => cell.trim() !== '')).length;
          expect(result.ratingsData.length + rowsWithErrors.size).toBe(nonBlank);
        },
      ),
    );
  });

  it('reads its own template: every column known, the example row valid', () => {
    const result = parseRatingsCsv(ratingsCsvTemplate());
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.ratingsData).toEqual([
      expect.objectContaining({
        jurisdiction: 'Spain',
        io11: 'SE',
        r40: 'LC',
        upgrades: 0,
        countryCode: 'ES',
        reportUrl: 'https://www.fatf-gafi.org/',
      }),
    ]);
  });
});
