import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import {
  CSV_BOM,
  csvField,
  csvRecord,
  exportFileName,
  exportQuerySchema,
  neutraliseFormula,
  type ExportValue,
} from './exports.ts';
import { tenantIdQueryParam } from './entities.ts';

/** Parses CSV text as a spreadsheet program would, by another implementation than ours. */
function parseCsv(text: string): string[][] {
  const result = Papa.parse<string[]>(text, { delimiter: ',', newline: '\r\n' });
  expect(result.errors).toEqual([]);
  return result.data;
}

const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'];

describe('neutraliseFormula', () => {
  it.each([
    ['=1+2', "'=1+2"],
    ['+31 20 123', "'+31 20 123"],
    ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['Acme =1', 'Acme =1'],
    ["'already", "'already"],
    ['', ''],
  ])('%j becomes %j', (text, expected) => {
    expect(neutraliseFormula(text)).toBe(expected);
  });

  it('leaves text alone unless it starts like a formula, and then only adds an apostrophe', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = neutraliseFormula(text);
        if (FORMULA_STARTS.some((start) => text.startsWith(start))) {
          expect(result).toBe(`'${text}`);
        } else {
          expect(result).toBe(text);
        }
      }),
    );
  });
});

describe('csvField', () => {
  it.each<[ExportValue, string]>([
    [null, ''],
    [42, '42'],
    [-5, '-5'],
    [true, 'true'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'],
  ])('%j is written %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe('csvRecord', () => {
  const cell = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: fc.constantFrom('"', ',', '\r', '\n', '=', '-', 'a', ' ', 'é') }),
    fc.integer(),
    fc.constant(null),
  );

  it('reads back through a CSV parser as the values, neutralised', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 6 }), { minLength: 1 }),
        (rows) => {
          const text = rows.map((row) => csvRecord(row)).join('');
          // Papa reads a last empty line after the final CRLF; the records are the others.
          const parsed = parseCsv(text).slice(0, rows.length);
          expect(parsed).toEqual(
            rows.map((row) =>
              row.map((value) =>
                value === null
                  ? ''
                  : typeof value === 'string'
                    ? neutraliseFormula(value)
                    : String(value),
              ),
            ),
          );
        },
      ),
    );
  });

  it('never lets a cell start like a formula', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (row) => {
        const [parsed] = parseCsv(csvRecord(row));
        for (const value of parsed ?? []) {
          expect(FORMULA_STARTS.some((start) => value.startsWith(start))).toBe(false);
        }
      }),
    );
  });

  it('ends every record with CRLF, and a file with a BOM keeps its first header', () => {
    const text = CSV_BOM + csvRecord(['Id', 'Name']) + csvRecord([1, 'Acme']);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text.slice(CSV_BOM.length)).slice(0, 2)).toEqual([
      ['Id', 'Name'],
      ['1', 'Acme'],
    ]);
  });
});

describe('exportFileName', () => {
  it('says what and when, in UTC to the minute', () => {
    expect(exportFileName('tenants', 'csv', new Date('2026-11-28T12:30:59.999Z'))).toBe(
      'tenants-2026-11-28T1230Z.csv',
    );
    expect(exportFileName('entity-users', 'xlsx', new Date('2027-01-02T03:04:00Z'))).toBe(
      'entity-users-2027-01-02T0304Z.xlsx',
    );
  });
});

describe('exportQuerySchema', () => {
  const schema = exportQuerySchema({ tenantId: tenantIdQueryParam });

  it('takes csv by default, xlsx in any letter case, and the filters as the list does', () => {
    expect(schema.parse({})).toEqual({ format: 'csv', tenantId: undefined });
    expect(schema.parse({ format: 'XLSX', tenantId: '3' })).toEqual({
      format: 'xlsx',
      tenantId: 3,
    });
  });

  it.each(['pdf', 'csv;drop table tenants', "csv'--"])('refuses format=%j, naming it', (format) => {
    const result = schema.safeParse({ format });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('format must be csv or xlsx');
  });

  it("refuses a bad filter with the list's own message", () => {
    const result = schema.safeParse({ tenantId: 'acme' });
    expect(result.error?.issues[0]?.message).toBe(
      'tenantId must be a whole number from 1 to 2147483647',
    );
  });
});
