import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INT4_ID_MAX, INT8_ID_MAX, idParamsSchema, isCanonicalId, pathIdSchema } from './ids.ts';

/** Texts that name a number to Number(), parseInt or a coercion, but are not canonical ids. */
const NON_CANONICAL_IDS = [
  '0b1',
  '0x71',
  '1.13e2',
  '000113',
  '+113',
  ' 113 ',
  '113.0',
  '0o7',
  '0',
  '-1',
  '',
  ' ',
  '1e3',
  'Infinity',
  'NaN',
  '١١٣', // Arabic-Indic digits
  '１１３', // full-width digits
  '113\u0000',
  '\ud800',
  '2147483648',
  '99999999999999999999',
];

describe('path ids', () => {
  it('refuses every non-canonical spelling of a number, naming the parameter', () => {
    for (const raw of NON_CANONICAL_IDS) {
      const result = idParamsSchema.safeParse({ id: raw });
      expect(result.success, JSON.stringify(raw)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(
        `id must be a whole number from 1 to ${INT4_ID_MAX}, in plain digits`,
      );
    }
  });

  it('reads canonical ids as their number, up to the column maximum', () => {
    expect(idParamsSchema.parse({ id: '1' })).toEqual({ id: 1 });
    expect(idParamsSchema.parse({ id: '113' })).toEqual({ id: 113 });
    expect(idParamsSchema.parse({ id: String(INT4_ID_MAX) })).toEqual({ id: INT4_ID_MAX });
    expect(pathIdSchema('id', INT8_ID_MAX).parse(String(INT8_ID_MAX))).toBe(INT8_ID_MAX);
    expect(pathIdSchema('id', INT8_ID_MAX).safeParse('9007199254740993').success).toBe(false);
    expect(pathIdSchema('id', 999).safeParse('1000').success).toBe(false);
  });

  it('accepts exactly the strings that are the decimal form of a number in range', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 12 }), (raw) => {
        const parsed = pathIdSchema('id').safeParse(raw);
        const value = Number(raw);
        const canonical = Number.isInteger(value) && value >= 1 && value <= INT4_ID_MAX;
        expect(parsed.success).toBe(canonical && String(value) === raw);
        expect(isCanonicalId(raw, INT4_ID_MAX)).toBe(parsed.success);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips every id of the column', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: INT4_ID_MAX }), (id) => {
        expect(pathIdSchema('id').parse(String(id))).toBe(id);
      }),
    );
  });
});
