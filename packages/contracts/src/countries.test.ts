import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countryIdParamsSchema,
  countryImportRecordSchema,
  countryImportSchema,
  countrySchema,
  findDuplicates,
  importResultSchema,
} from './countries.ts';

const letter = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
const code = (length: number) => fc.string({ unit: letter, minLength: length, maxLength: length });
const name = fc
  .string({ minLength: 1, maxLength: 40 })
  .filter((value) => value.trim().length > 0 && !value.includes('\u0000'));
const record = fc.record({
  id: fc.integer({ min: 1, max: 999 }),
  alpha2: code(2),
  alpha3: code(3),
  name,
});
/** Import files whose ids and codes are all different. */
const file = fc
  .uniqueArray(record, {
    maxLength: 30,
    selector: (r) => `${r.id}`,
  })
  .map((records) =>
    records.filter(
      (r, index) =>
        records.findIndex((other) => other.alpha2.toUpperCase() === r.alpha2.toUpperCase()) ===
          index &&
        records.findIndex((other) => other.alpha3.toUpperCase() === r.alpha3.toUpperCase()) ===
          index,
    ),
  );

function issuesOf(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return (result.error?.issues ?? []).map((issue) => ({
    path: issue.path,
    message: issue.message,
  }));
}

describe('countryImportRecordSchema', () => {
  it('accepts every well-formed record, codes upper-cased and the name trimmed', () => {
    fc.assert(
      fc.property(record, (input) => {
        const result = countryImportRecordSchema.parse(input);
        expect(result).toEqual({
          id: input.id,
          alpha2: input.alpha2.toUpperCase(),
          alpha3: input.alpha3.toUpperCase(),
          name: input.name.trim(),
        });
      }),
    );
  });

  it('drops fields that are not part of the record', () => {
    expect(
      countryImportRecordSchema.parse({ id: 4, alpha2: 'AF', alpha3: 'AFG', name: 'A', risk: 'x' }),
    ).toEqual({ id: 4, alpha2: 'AF', alpha3: 'AFG', name: 'A' });
  });

  it('refuses ids that are not ISO numeric codes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ max: 0 }),
          fc.integer({ min: 1000 }),
          fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
          fc.string(),
          fc.constant(null),
        ),
        (id) => {
          const result = countryImportRecordSchema.safeParse({
            id,
            alpha2: 'AF',
            alpha3: 'AFG',
            name: 'A',
          });
          expect(result.success).toBe(false);
          expect(issuesOf(result).map((issue) => issue.path)).toEqual([['id']]);
        },
      ),
    );
  });

  it('refuses codes that are not exactly 2 and 3 letters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5 }), (value) => {
        const alpha2 = countryImportRecordSchema.safeParse({
          id: 4,
          alpha2: value,
          alpha3: 'AFG',
          name: 'A',
        });
        expect(alpha2.success).toBe(/^[A-Za-z]{2}$/.test(value));
        const alpha3 = countryImportRecordSchema.safeParse({
          id: 4,
          alpha2: 'AF',
          alpha3: value,
          name: 'A',
        });
        expect(alpha3.success).toBe(/^[A-Za-z]{3}$/.test(value));
      }),
    );
    expect(
      issuesOf(
        countryImportRecordSchema.safeParse({ id: 4, alpha2: 'A1', alpha3: 'AFG', name: 'A' }),
      ),
    ).toEqual([{ path: ['alpha2'], message: 'alpha2 must be exactly 2 letters (A-Z)' }]);
  });

  it('refuses a blank name, and names every missing field', () => {
    expect(
      issuesOf(
        countryImportRecordSchema.safeParse({ id: 4, alpha2: 'AF', alpha3: 'AFG', name: ' \t' }),
      ),
    ).toEqual([{ path: ['name'], message: 'name must not be empty' }]);
    expect(issuesOf(countryImportRecordSchema.safeParse({}))).toEqual([
      { path: ['id'], message: 'Required' },
      { path: ['alpha2'], message: 'Required' },
      { path: ['alpha3'], message: 'Required' },
      { path: ['name'], message: 'Required' },
    ]);
  });
});

describe('countryImportSchema', () => {
  it('accepts files without repeated ids or codes', () => {
    fc.assert(
      fc.property(file, (records) => {
        expect(countryImportSchema.safeParse(records).success).toBe(true);
      }),
    );
  });

  it('refuses a repeated id at the repeating record', () => {
    fc.assert(
      fc.property(
        file.filter((records) => records.length > 0),
        fc.nat(),
        (records, pick) => {
          const firstIndex = pick % records.length;
          const original = records[firstIndex]!;
          fc.pre(!records.some((r) => /^q{2,3}$/i.test(r.alpha2) || /^q{3}$/i.test(r.alpha3)));
          const withCopy = [...records, { ...original, alpha2: 'QQ', alpha3: 'QQQ' }];
          const result = countryImportSchema.safeParse(withCopy);
          expect(issuesOf(result)).toEqual([
            {
              path: [records.length, 'id'],
              message: `Duplicate id ${original.id} (already at index ${firstIndex})`,
            },
          ]);
        },
      ),
    );
  });

  it('refuses codes repeated in another case', () => {
    const result = countryImportSchema.safeParse([
      { id: 4, alpha2: 'AF', alpha3: 'AFG', name: 'Afghanistan' },
      { id: 8, alpha2: 'af', alpha3: 'ALB', name: 'Albania' },
    ]);
    expect(issuesOf(result)).toEqual([
      { path: [1, 'alpha2'], message: 'Duplicate alpha2 AF (already at index 0)' },
    ]);
  });

  it('refuses anything but an array', () => {
    for (const body of [{}, 'x', 1, null, undefined]) {
      expect(issuesOf(countryImportSchema.safeParse(body))).toEqual([
        { path: [], message: 'Expected an array of countries' },
      ]);
    }
  });
});

describe('findDuplicates', () => {
  it('reports exactly the records whose key appeared before, with the first index', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 20 }), (keys) => {
        const duplicates = findDuplicates(keys, (key) => key);
        const expected = keys.flatMap((key, index) => {
          const firstIndex = keys.indexOf(key);
          return firstIndex < index ? [{ index, firstIndex, value: key }] : [];
        });
        expect(duplicates).toEqual(expected);
      }),
    );
  });
});

describe('response and parameter schemas', () => {
  it('describe a country row', () => {
    const country = {
      id: 826,
      countryName: 'United Kingdom',
      alpha2Code: 'GB',
      alpha3Code: 'GBR',
      sequence: null,
      validFrom: '2020-01-01T00:00:00.000Z',
      validTo: null,
      cachedRisk: null,
      cachedRiskAt: null,
    };
    expect(countrySchema.parse(country)).toEqual(country);
    expect(countrySchema.safeParse({ ...country, validFrom: 'yesterday' }).success).toBe(false);
    expect(importResultSchema.parse({ count: 3 })).toEqual({ count: 3 });
  });

  it('read the id of the URL as an ISO numeric code', () => {
    expect(countryIdParamsSchema.parse({ id: '826' })).toEqual({ id: 826 });
    for (const id of ['abc', '1.5', '0', '1000', '']) {
      expect(countryIdParamsSchema.safeParse({ id }).success).toBe(false);
    }
  });
});
