import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMPLIANCE_FIELDS,
  COMPLIANCE_RATINGS,
  EFFECTIVENESS_FIELDS,
  EFFECTIVENESS_RATINGS,
  normalizeReportType,
  parseRatingsRecord,
  parseReportDate,
  RATINGS_MESSAGES,
  ratingsRecordSchema,
  REPORT_TYPES,
} from './ratings.ts';

/** A record every rule accepts. */
const VALID = {
  jurisdiction: 'Spain',
  reportType: 'MER',
  reportDate: '2014-12-01',
  assessmentBody: 'FATF',
};

/** The messages of a record's failures, by field. */
function failures(record: Record<string, unknown>): Record<string, string[]> {
  const result = ratingsRecordSchema.safeParse(record);
  const byField: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0]);
    (byField[field] ??= []).push(issue.message);
  }
  return byField;
}

const parse = (record: Record<string, unknown>) => ratingsRecordSchema.parse(record);

/** Puts random upper/lower case and surrounding spaces on a code. */
const spelledAnyhow = (code: string) =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: code.length, maxLength: code.length }),
      fc.constantFrom('', ' ', '  '),
    )
    .map(
      ([upper, pad]) =>
        `${pad}${[...code].map((letter, at) => (upper[at] ? letter.toUpperCase() : letter.toLowerCase())).join('')}${pad}`,
    );

describe('ratings record', () => {
  it('requires a jurisdiction and an assessment body, trimmed', () => {
    expect(failures({ ...VALID, jurisdiction: '   ' })).toEqual({
      jurisdiction: [RATINGS_MESSAGES.jurisdictionRequired],
    });
    expect(failures({ ...VALID, jurisdiction: undefined })).toEqual({
      jurisdiction: [RATINGS_MESSAGES.jurisdictionRequired],
    });
    expect(failures({ ...VALID, assessmentBody: '' })).toEqual({
      assessmentBody: [RATINGS_MESSAGES.assessmentBodyRequired],
    });
    expect(
      parse({ ...VALID, jurisdiction: '  Spain ', assessmentBody: ' ESAAMLG/WB ' }),
    ).toMatchObject({ jurisdiction: 'Spain', assessmentBody: 'ESAAMLG/WB' });
  });

  it('accepts exactly the effectiveness codes, in any case and spacing', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EFFECTIVENESS_FIELDS),
        fc.constantFrom(...EFFECTIVENESS_RATINGS).chain(spelledAnyhow),
        (field, value) => {
          expect(parse({ ...VALID, [field]: value })[field]).toBe(value.trim().toUpperCase());
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...EFFECTIVENESS_FIELDS),
        fc
          .string({ minLength: 1, maxLength: 4 })
          .filter(
            (value) =>
              value.trim() !== '' &&
              !(EFFECTIVENESS_RATINGS as readonly string[]).includes(value.trim().toUpperCase()),
          ),
        (field, value) => {
          expect(failures({ ...VALID, [field]: value })).toEqual({
            [field]: [RATINGS_MESSAGES.effectiveness],
          });
        },
      ),
    );
  });

  it('accepts exactly the compliance codes, N/A as NA', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...COMPLIANCE_FIELDS),
        fc.constantFrom(...COMPLIANCE_RATINGS, 'N/A').chain(spelledAnyhow),
        (field, value) => {
          const expected = value.trim().toUpperCase() === 'N/A' ? 'NA' : value.trim().toUpperCase();
          expect(parse({ ...VALID, [field]: value })[field]).toBe(expected);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...COMPLIANCE_FIELDS),
        fc.string({ minLength: 1, maxLength: 4 }).filter((value) => {
          const code = value.trim().toUpperCase();
          return (
            code !== '' &&
            code !== 'N/A' &&
            !(COMPLIANCE_RATINGS as readonly string[]).includes(code)
          );
        }),
        (field, value) => {
          expect(failures({ ...VALID, [field]: value })).toEqual({
            [field]: [RATINGS_MESSAGES.compliance],
          });
        },
      ),
    );
  });

  it('takes an empty rating cell as no rating', () => {
    const record = parse({ ...VALID, io1: '', r40: '  ', r2: null });
    expect(record).not.toHaveProperty('io1', expect.anything());
    expect(record.r40).toBeUndefined();
    expect(record.r2).toBeUndefined();
  });

  it('reads report types after removing bracketed text and spaces', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...REPORT_TYPES),
        fc.constantFrom('', ' (2019)', ' [draft]', '(re-rating)'),
        fc.constantFrom('', ' '),
        (type, note, space) => {
          const written = `${type.split('+').join(`${space}+${space}`)}${note}`;
          expect(normalizeReportType(written)).toBe(type);
          expect(normalizeReportType(written.toLowerCase())).toBe(type);
        },
      ),
    );
    for (const wrong of ['', 'MER+', 'FUR+MER', 'Mutual evaluation', 'MER FUR']) {
      expect(failures({ ...VALID, reportType: wrong }), wrong).toEqual({
        reportType: [RATINGS_MESSAGES.reportType],
      });
    }
  });

  it('reads report dates as dates, date strings or spreadsheet serial numbers', () => {
    const dateOf = (reportDate: unknown) => parse({ ...VALID, reportDate }).reportDate;
    expect(dateOf(new Date(Date.UTC(2023, 4, 31)))).toBe('2023-05-31');
    expect(dateOf('2023-05-31')).toBe('2023-05-31');
    expect(dateOf('31/05/2023')).toBe('2023-05-31');
    expect(dateOf('May/23')).toBe('2023-05-01');
    expect(dateOf('Sept 2019')).toBe('2019-09-01');
    expect(dateOf('12 December 2014')).toBe('2014-12-12');
    // Serial numbers count days from 1900-01-01 as spreadsheets do (1 is that day).
    expect(dateOf(1)).toBe('1900-01-01');
    expect(dateOf(45077)).toBe('2023-05-31');
    expect(dateOf('45077')).toBe('2023-05-31');
    for (const wrong of ['', 'soon', '2023-02-30', '31/13/2023', 'Mayo/23', 0, -5, Number.NaN]) {
      expect(failures({ ...VALID, reportDate: wrong }), String(wrong)).toEqual({
        reportDate: [RATINGS_MESSAGES.date],
      });
    }
  });

  it('agrees with the calendar for every ISO day it reads', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1950-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }),
        (date) => {
          const day = date.toISOString().slice(0, 10);
          expect(parseReportDate(day)?.toISOString().slice(0, 10)).toBe(day);
          const [year, month, dayOfMonth] = day.split('-');
          expect(
            parseReportDate(`${dayOfMonth}/${month}/${year}`)?.toISOString().slice(0, 10),
          ).toBe(day);
        },
      ),
    );
  });

  it('reads upgrades and downgrades as integers of at least 0, strings included', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.boolean(), (count, asText) => {
        const value = asText ? ` ${count} ` : count;
        expect(parse({ ...VALID, upgrades: value, downgrades: value })).toMatchObject({
          upgrades: count,
          downgrades: count,
        });
      }),
    );
    for (const wrong of [-1, 1.5, 'two', '3x', '-2']) {
      expect(failures({ ...VALID, upgrades: wrong }), String(wrong)).toEqual({
        upgrades: [RATINGS_MESSAGES.number],
      });
    }
    expect(parse({ ...VALID, upgrades: '' }).upgrades).toBeUndefined();
  });

  it('requires a report URL to be a web address', () => {
    expect(
      parse({ ...VALID, reportUrl: 'https://www.fatf-gafi.org/en/publications.html' }).reportUrl,
    ).toBe('https://www.fatf-gafi.org/en/publications.html');
    for (const wrong of ['fatf-gafi.org', 'javascript:alert(1)', 'https://']) {
      expect(failures({ ...VALID, reportUrl: wrong }), wrong).toEqual({
        reportUrl: [RATINGS_MESSAGES.url],
      });
    }
  });

  it('gives the same record when a parsed record is validated again (as the server does)', () => {
    fc.assert(
      fc.property(
        fc.record({
          io3: fc.constantFrom(...EFFECTIVENESS_RATINGS).chain(spelledAnyhow),
          r7: fc.constantFrom(...COMPLIANCE_RATINGS, 'N/A').chain(spelledAnyhow),
          reportType: fc.constantFrom(...REPORT_TYPES).map((type) => `${type} (note)`),
          reportDate: fc.constantFrom('May/23', '45077', '31/05/2023'),
          upgrades: fc.nat(9).map(String),
        }),
        (fields) => {
          const once = parse({ ...VALID, ...fields });
          expect(parse(JSON.parse(JSON.stringify(once)) as Record<string, unknown>)).toEqual(once);
        },
      ),
    );
  });
});

describe('parseRatingsRecord: the schema, faster for plain records', () => {
  /** A cell as files and clients write them: usual shapes, odd ones, and other types. */
  const cell = (usual: readonly string[]) =>
    fc.oneof(
      fc.constantFrom(...usual),
      fc.constantFrom('', '  ', ' n/a ', 'N/A', 'x', '\u0000', '\uD800', 'May/23', '1e3', ' 12 '),
      fc.string({ maxLength: 6 }),
      fc.constantFrom(null, undefined, 0, 7, 45_000.5, -1, true, {}),
    );
  const raw = fc.record(
    {
      jurisdiction: cell(['Spain', '  Korea ', 'a'.repeat(200), 'a'.repeat(201)]),
      reportType: cell([...REPORT_TYPES, 'MER (2019)', 'mer + furs', 'FUR [x]']),
      reportDate: cell([
        '2014-12-01',
        '31/05/2023',
        'May 2023',
        '31 May 2023',
        '45000',
        '2023-02-30',
      ]),
      assessmentBody: cell(['FATF', 'ESAAMLG/WB']),
      io1: cell([...EFFECTIVENESS_RATINGS, ' he ', 'C']),
      r40: cell([...COMPLIANCE_RATINGS, ' lc', 'HE']),
      upgrades: cell(['0', '3', '1000000', '1000001', '2.5']),
      validFrom: cell(['2020-01-01', 'never']),
      countryCode: cell(['es', ' ESP ', 'E1']),
      reportUrl: cell(['https://www.fatf-gafi.org/', 'ftp://x.example', 'https://']),
    },
    { requiredKeys: [] },
  );

  it('answers what the schema answers, for any record', () => {
    fc.assert(
      fc.property(raw, (record) => {
        const fast = parseRatingsRecord(record);
        const schema = ratingsRecordSchema.safeParse(record);
        expect(fast.success).toBe(schema.success);
        expect(fast.data).toEqual(schema.data);
        expect(fast.error?.issues).toEqual(schema.error?.issues);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a full plain record as the schema does', () => {
    const record = {
      ...VALID,
      ...Object.fromEntries(EFFECTIVENESS_FIELDS.map((field) => [field, ' me '])),
      ...Object.fromEntries(COMPLIANCE_FIELDS.map((field) => [field, 'n/a'])),
      upgrades: '2',
      downgrades: 0,
      validTo: 'May/23',
      countryCode: 'es',
      reportUrl: ' https://www.fatf-gafi.org/ ',
    };
    expect(parseRatingsRecord(record)).toEqual(ratingsRecordSchema.safeParse(record));
  });

  it('reads each rating into its own field', () => {
    for (const field of [...EFFECTIVENESS_FIELDS, ...COMPLIANCE_FIELDS]) {
      const record = { ...VALID, [field]: field.startsWith('io') ? ' he ' : 'lc' };
      expect(parseRatingsRecord(record)).toEqual(ratingsRecordSchema.safeParse(record));
    }
  });

  it("answers a plain record with every field of the schema, in the schema's key order", () => {
    // One fixed shape (ratings.ts), the fields without a value undefined.
    const record = parseRatingsRecord({ ...VALID, io2: 'SE', upgrades: '1' }).data ?? {};
    expect(Object.keys(record)).toEqual(Object.keys(ratingsRecordSchema.shape));
    expect(Object.entries(record).filter(([, value]) => value !== undefined)).toEqual([
      ...Object.entries(VALID),
      ['io2', 'SE'],
      ['upgrades', 1],
    ]);
  });
});
