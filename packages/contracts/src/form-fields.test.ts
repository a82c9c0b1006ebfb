import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeTags } from './document-types.ts';
import { isPrototypeKey, PROTOTYPE_KEYS } from './keys.ts';
import {
  CLONE_DISPLAY_NAME_SUFFIX,
  cloneDisplayName,
  cloneStorageName,
  cloneTimestamp,
  compareFormFieldsForList,
  conditionalRequirementSchema,
  conditionalRequirementsOf,
  decodeConditionalRequirement,
  encodeConditionalRequirement,
  FIELD_DISPLAY_NAME_MAX_LENGTH,
  formFieldCreateSchema,
  formFieldUpdateSchema,
  isValidStorageName,
  parseSelectOptions,
  parseTriggerValues,
  requirementApplies,
  STORAGE_NAME_MAX_LENGTH,
  STORAGE_NAME_MESSAGES,
  storageNameSchema,
  validateStorageName,
  type RequirementRow,
  isSafePattern,
  UNSAFE_PATTERN_MESSAGE,
} from './form-fields.ts';

// ---------------------------------------------------------------------------------------------
// Arbitraries.

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const letterOrUnderscore = fc.constantFrom(...`${LETTERS}_`);
const nameCharacter = fc.constantFrom(...`${LETTERS}${DIGITS}_`);
/** A valid storage name: a letter or '_', then letters, digits and '_', 50 at most. */
const validStorageName = fc
  .tuple(
    letterOrUnderscore,
    fc.string({ unit: nameCharacter, maxLength: STORAGE_NAME_MAX_LENGTH - 1 }),
  )
  .map(([first, rest]) => first + rest)
  .filter((name) => !isPrototypeKey(name));
/** Whitespace String.prototype.trim removes (and zod's trim, which is the same). */
const whitespace = fc.string({
  unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\ufeff'),
  maxLength: 4,
});
/**
 * A character of any text: name characters, whitespace, NUL, lone surrogates, punctuation,
 * non-ASCII letters, an emoji, any ASCII. (fast-check's 'binary' unit, over every code point, is
 * 200 times slower and finds nothing more here.)
 */
const textCharacter = fc.oneof(
  nameCharacter,
  fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u0000', '\ud800', '\udc00', '-', '.', '!'),
  fc.constantFrom('é', 'ß', 'Ж', '\u{1F600}', '<', '"', "'", '\\'),
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }),
);
const anyText = (maxLength: number, minLength = 0) =>
  fc.string({ unit: textCharacter, minLength, maxLength });

/** A field the create schema accepts, to vary one property of. */
const TEXT_FIELD = { name: 'CompanyName', displayName: 'Company name', type: 'Text' };

// ---------------------------------------------------------------------------------------------
// Storage name (spec part 2, section 5).

describe('validateStorageName and storageNameSchema', () => {
  it('give the spec messages', () => {
    expect(STORAGE_NAME_MESSAGES).toEqual({
      required: 'Storage name is required.',
      tooLong: 'Storage name must be 50 characters or less.',
      mustStartWith: 'Storage name must start with a letter or underscore.',
      invalidCharacters: 'Storage name can only contain letters, numbers, and underscores.',
    });
    expect(validateStorageName('')).toBe(STORAGE_NAME_MESSAGES.required);
    expect(validateStorageName(' \t ')).toBe(STORAGE_NAME_MESSAGES.required);
    expect(validateStorageName('A'.repeat(51))).toBe(STORAGE_NAME_MESSAGES.tooLong);
    expect(validateStorageName('A'.repeat(50))).toBeNull();
    expect(validateStorageName('1Name')).toBe(STORAGE_NAME_MESSAGES.mustStartWith);
    expect(validateStorageName('Company Name')).toBe(STORAGE_NAME_MESSAGES.invalidCharacters);
    expect(validateStorageName('Straße')).toBe(STORAGE_NAME_MESSAGES.invalidCharacters);
    expect(validateStorageName('_internal_2')).toBeNull();
    expect(validateStorageName(' CompanyName ')).toBeNull();
  });

  it('refuse a name JavaScript objects reserve, after trimming, and only those', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROTOTYPE_KEYS),
        whitespace,
        whitespace,
        (key, before, after) => {
          const message = `Storage name must not be ${key}: JavaScript objects reserve that name.`;
          expect(validateStorageName(before + key + after)).toBe(message);
          expect(storageNameSchema.safeParse(before + key + after).error?.issues).toEqual([
            expect.objectContaining({ message }),
          ]);
        },
      ),
    );
    // The same letters in another case are an ordinary name.
    expect(validateStorageName('Constructor')).toBeNull();
    expect(validateStorageName('ToString')).toBeNull();
  });

  it('agree on every text: the schema accepts exactly what the rule accepts, with its one message', () => {
    fc.assert(
      fc.property(
        fc.oneof(anyText(60), validStorageName, fc.string({ unit: nameCharacter, maxLength: 60 })),
        (raw) => {
          const message = validateStorageName(raw);
          const parsed = storageNameSchema.safeParse(raw);
          expect(parsed.success).toBe(message === null);
          expect(isValidStorageName(raw)).toBe(message === null);
          if (parsed.success) expect(parsed.data).toBe(raw.trim());
          else expect(parsed.error.issues.map((issue) => issue.message)).toEqual([message]);
        },
      ),
    );
  });

  it('trims the name first: a valid name with whitespace around it is the name', () => {
    fc.assert(
      fc.property(whitespace, validStorageName, whitespace, (before, name, after) => {
        expect(validateStorageName(before + name + after)).toBeNull();
        expect(storageNameSchema.parse(before + name + after)).toBe(name);
      }),
    );
  });

  it('says "required" for nothing but whitespace', () => {
    fc.assert(
      fc.property(whitespace, (blank) => {
        expect(validateStorageName(blank)).toBe(STORAGE_NAME_MESSAGES.required);
      }),
    );
    for (const missing of [undefined, null]) {
      expect(storageNameSchema.safeParse(missing).error?.issues[0]?.message).toBe(
        STORAGE_NAME_MESSAGES.required,
      );
    }
    expect(storageNameSchema.safeParse(5).error?.issues[0]?.message).toBe(
      'Storage name must be a string',
    );
  });

  it('says "50 characters or less" for any longer trimmed name, whatever its characters', () => {
    fc.assert(
      fc.property(whitespace, anyText(80, 51), (space, long) => {
        fc.pre(long.trim().length > STORAGE_NAME_MAX_LENGTH);
        expect(validateStorageName(space + long)).toBe(STORAGE_NAME_MESSAGES.tooLong);
      }),
    );
  });

  it('checks the first character before the others', () => {
    fc.assert(
      fc.property(
        anyText(50, 1).filter((raw) => {
          const name = raw.trim();
          return name.length > 0 && name.length <= 50 && !/^[A-Za-z_]/.test(name);
        }),
        (raw) => {
          expect(validateStorageName(raw)).toBe(STORAGE_NAME_MESSAGES.mustStartWith);
        },
      ),
    );
  });

  it('refuses any other character after a valid first one', () => {
    fc.assert(
      fc.property(validStorageName, anyText(3, 1), fc.nat(), (name, bad, at) => {
        fc.pre(/[^A-Za-z0-9_]/.test(bad.trim()) && bad.trim() === bad);
        const index = 1 + (at % name.length);
        const raw = (name.slice(0, index) + bad + name.slice(index)).slice(0, 50);
        fc.pre(/[^A-Za-z0-9_]/.test(raw.trim()) && /^[A-Za-z_]/.test(raw.trim()));
        expect(validateStorageName(raw)).toBe(STORAGE_NAME_MESSAGES.invalidCharacters);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Clones (spec part 2, section 4).

/** yyyyMMdd_HHmmss of `date` in local time, built from the date's own parts. */
function expectedTimestamp(date: Date): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return (
    `${pad(date.getFullYear(), 4)}${pad(date.getMonth() + 1)}${pad(date.getDate())}_` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`
  );
}

const cloneDate = fc.date({
  min: new Date('0001-01-01T12:00:00Z'),
  max: new Date('9999-12-30T00:00:00Z'),
  noInvalidDate: true,
});

describe('cloneStorageName', () => {
  it('appends _yyyyMMdd_HHmmss of the moment', () => {
    const now = new Date(2026, 2, 5, 9, 7, 3);
    expect(cloneTimestamp(now)).toBe('20260305_090703');
    expect(cloneStorageName(' CompanyName ', now)).toBe('CompanyName_20260305_090703');
    expect(cloneStorageName('A'.repeat(50), now)).toBe(`${'A'.repeat(34)}_20260305_090703`);
  });

  it('is at most 50 characters, ends with the timestamp, and starts with a prefix of the trimmed name', () => {
    fc.assert(
      fc.property(fc.oneof(anyText(80), validStorageName), cloneDate, (name, now) => {
        const clone = cloneStorageName(name, now);
        const suffix = `_${expectedTimestamp(now)}`;
        expect(suffix).toMatch(/^_\d{8}_\d{6}$/);
        expect(clone.length).toBeLessThanOrEqual(STORAGE_NAME_MAX_LENGTH);
        expect(clone.endsWith(suffix)).toBe(true);
        const kept = clone.slice(0, clone.length - suffix.length);
        expect(name.trim().startsWith(kept)).toBe(true);
        // As much of the name as fits.
        expect(kept.length).toBe(
          Math.min(name.trim().length, STORAGE_NAME_MAX_LENGTH - suffix.length),
        );
      }),
    );
  });

  it('is a valid storage name for a valid name', () => {
    fc.assert(
      fc.property(whitespace, validStorageName, cloneDate, (space, name, now) => {
        const clone = cloneStorageName(space + name, now);
        expect(validateStorageName(clone)).toBeNull();
        expect(clone.startsWith(name.slice(0, 34))).toBe(true);
      }),
    );
  });
});

describe('cloneDisplayName', () => {
  it("appends ' (Clone)' within the display name's limit", () => {
    expect(cloneDisplayName('Company name')).toBe('Company name (Clone)');
    fc.assert(
      fc.property(anyText(FIELD_DISPLAY_NAME_MAX_LENGTH), (name) => {
        const clone = cloneDisplayName(name);
        expect(clone.length).toBeLessThanOrEqual(FIELD_DISPLAY_NAME_MAX_LENGTH);
        expect(clone.endsWith(CLONE_DISPLAY_NAME_SUFFIX)).toBe(true);
        expect(name.startsWith(clone.slice(0, -CLONE_DISPLAY_NAME_SUFFIX.length))).toBe(true);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Tags through the field schemas (spec part 2, section 5).

const tag = fc.string({
  unit: fc.constantFrom(...'abcXYZ é-_ ', ' ', '\t'),
  maxLength: 12,
});

describe('tags of a field', () => {
  for (const [name, schema] of [
    ['create', formFieldCreateSchema],
    ['update', formFieldUpdateSchema],
  ] as const) {
    it(`are trimmed, lower-cased and deduplicated by the ${name} schema`, () => {
      fc.assert(
        fc.property(fc.array(tag, { maxLength: 50 }), (tags) => {
          const parsed = schema.parse({ ...TEXT_FIELD, tags }).tags;
          expect(parsed).toEqual(normalizeTags(tags));
          // Normalised once, the same again.
          expect(schema.parse({ ...TEXT_FIELD, tags: parsed }).tags).toEqual(parsed);
          expect(new Set(parsed).size).toBe(parsed.length);
          for (const item of parsed) {
            expect(item).toBe(item.trim().toLowerCase());
            expect(item).not.toBe('');
          }
        }),
      );
    });
  }

  it('are an empty list when absent or null, and refused beyond 50', () => {
    expect(formFieldCreateSchema.parse(TEXT_FIELD).tags).toEqual([]);
    expect(formFieldCreateSchema.parse({ ...TEXT_FIELD, tags: null }).tags).toEqual([]);
    const tooMany = Array.from({ length: 51 }, (_, index) => `t${index}`);
    expect(formFieldCreateSchema.safeParse({ ...TEXT_FIELD, tags: tooMany }).success).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Conditional requirements (spec part 2, sections 3 and 5): 'none' is stored with '!'.

/** A trigger value as the dialog keeps it: trimmed, not empty, not starting with '!'. */
const triggerValue = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
  .map((value) => value.trim())
  .filter((value) => value !== '' && !value.startsWith('!') && !value.includes('\u0000'));
const requirementRow: fc.Arbitrary<RequirementRow> = fc.record({
  fieldName: validStorageName,
  type: fc.constantFrom('any' as const, 'none' as const),
  values: fc.array(triggerValue, { minLength: 1, maxLength: 5 }),
  validationMessage: fc.option(
    fc.string({ minLength: 1, maxLength: 30 }).filter((text) => text.trim() === text && !!text),
    { nil: null },
  ),
});

describe('the conditional requirement encoding', () => {
  it("stores 'none' with '!' before every value and 'any' as it is", () => {
    expect(
      encodeConditionalRequirement({ fieldName: 'Country', type: 'none', values: ['344', '784'] }),
    ).toEqual({ fieldName: 'Country', triggerValues: ['!344', '!784'] });
    expect(
      encodeConditionalRequirement({
        fieldName: 'IsPep',
        type: 'any',
        values: ['Yes'],
        validationMessage: 'Describe the person.',
      }),
    ).toEqual({
      fieldName: 'IsPep',
      triggerValues: ['Yes'],
      validationMessage: 'Describe the person.',
    });
  });

  it('decodes what it encodes, for values that do not start with !', () => {
    fc.assert(
      fc.property(requirementRow, (row) => {
        expect(decodeConditionalRequirement(encodeConditionalRequirement(row))).toEqual(row);
      }),
    );
  });

  it("prefixes every value of a 'none' row, and no value of an 'any' row", () => {
    fc.assert(
      fc.property(requirementRow, (row) => {
        const { triggerValues } = encodeConditionalRequirement(row);
        expect(triggerValues).toEqual(
          row.type === 'none' ? row.values.map((value) => `!${value}`) : row.values,
        );
        expect(triggerValues.filter((value) => value.startsWith('!')).length).toBe(
          row.type === 'none' ? triggerValues.length : 0,
        );
      }),
    );
  });

  it('passes the schema as encoded', () => {
    fc.assert(
      fc.property(requirementRow, (row) => {
        const encoded = encodeConditionalRequirement(row);
        const parsed = conditionalRequirementSchema.parse(encoded);
        expect(parsed).toEqual({ validationMessage: null, ...encoded });
      }),
    );
  });

  it("refuses values that mix '!' and plain ones, and a value that is only '!'", () => {
    fc.assert(
      fc.property(
        validStorageName,
        fc.array(triggerValue, { minLength: 1, maxLength: 4 }),
        fc.array(triggerValue, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        (fieldName, plain, negated, at) => {
          const values = [...plain];
          values.splice(at % (values.length + 1), 0, ...negated.map((value) => `!${value}`));
          const result = conditionalRequirementSchema.safeParse({
            fieldName,
            triggerValues: values,
          });
          expect(result.success).toBe(false);
          expect(result.error?.issues).toEqual([
            expect.objectContaining({
              path: ['triggerValues'],
              message: "Either every trigger value starts with '!' (none of them) or none does",
            }),
          ]);
        },
      ),
    );
    expect(
      conditionalRequirementSchema.safeParse({ fieldName: 'Country', triggerValues: ['!'] })
        .success,
    ).toBe(false);
  });

  it("applies 'any' when the watched value is one of the values, 'none' when it is none of them", () => {
    fc.assert(
      fc.property(requirementRow, triggerValue, whitespace, (row, value, space) => {
        const requirement = encodeConditionalRequirement(row);
        const listed = row.values.includes(value);
        expect(requirementApplies(requirement, space + value + space)).toBe(
          row.type === 'any' ? listed : !listed,
        );
        const first = row.values[0] ?? '';
        expect(requirementApplies(requirement, first)).toBe(row.type === 'any');
      }),
    );
  });

  it('keeps the rows of the dialog that have a field name and values, trimmed', () => {
    expect(
      conditionalRequirementsOf([
        { fieldName: ' Country ', type: 'none', triggerValues: ' 344, ,784 ' },
        { fieldName: '', type: 'any', triggerValues: 'Yes' },
        { fieldName: 'IsPep', type: 'any', triggerValues: ' , ' },
        { fieldName: 'IsPep', type: 'any', triggerValues: 'Yes', validationMessage: '  ' },
      ]),
    ).toEqual([
      { fieldName: 'Country', triggerValues: ['!344', '!784'] },
      { fieldName: 'IsPep', triggerValues: ['Yes'] },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Select options and trigger values as typed (spec part 2, section 5).

const line = fc.string({ unit: 'grapheme', maxLength: 15 }).filter((text) => !/[\r\n]/.test(text));
const option = line.map((text) => text.trim()).filter((text) => text !== '');

describe('parseSelectOptions', () => {
  it('takes one option per line, trimmed, empty lines dropped, any line ending', () => {
    expect(parseSelectOptions(' Low \r\n\r\nMedium\rHigh\n  \n')).toEqual([
      'Low',
      'Medium',
      'High',
    ]);
    fc.assert(
      fc.property(fc.array(line), fc.constantFrom('\n', '\r\n', '\r'), (lines, ending) => {
        expect(parseSelectOptions(lines.join(ending))).toEqual(
          lines.map((text) => text.trim()).filter((text) => text !== ''),
        );
      }),
    );
  });

  it('gives back the options it shows, one per line', () => {
    fc.assert(
      fc.property(fc.array(option), (options) => {
        expect(parseSelectOptions(options.join('\n'))).toEqual(options);
      }),
    );
  });
});

describe('parseTriggerValues', () => {
  const value = option.filter((text) => !text.includes(','));

  it('splits on commas, trimmed, empty values dropped', () => {
    expect(parseTriggerValues(' Yes, ,No ,,')).toEqual(['Yes', 'No']);
    fc.assert(
      fc.property(fc.array(fc.oneof(value, fc.constant(' '))), (values) => {
        expect(parseTriggerValues(values.join(','))).toEqual(
          values.map((text) => text.trim()).filter((text) => text !== ''),
        );
      }),
    );
  });

  it('gives back the values it shows, comma-separated', () => {
    fc.assert(
      fc.property(fc.array(value), (values) => {
        expect(parseTriggerValues(values.join(', '))).toEqual(values);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The fields list's order (spec part 2, section 2).

const listed = (uiGroup: string, order: number | null, displayName: string) => ({
  uiGroup,
  order,
  displayName,
});

describe('compareFormFieldsForList', () => {
  it('sorts by UI group, then order with missing orders last, then display name, ignoring case', () => {
    const fields = [
      listed('identity Document', null, 'b'),
      listed('Company', 20, 'Legal form'),
      listed('Identity Document', 5, 'Number'),
      listed('company', null, 'website'),
      listed('Company', null, 'Trading name'),
      listed('Company', 10, 'company name'),
      listed('Company', 10, 'Company Name'),
      listed('Company', -1, 'z'),
    ];
    expect([...fields].sort(compareFormFieldsForList)).toEqual([
      listed('Company', -1, 'z'),
      listed('Company', 10, 'Company Name'),
      listed('Company', 10, 'company name'),
      listed('Company', 20, 'Legal form'),
      listed('Company', null, 'Trading name'),
      listed('company', null, 'website'),
      listed('Identity Document', 5, 'Number'),
      listed('identity Document', null, 'b'),
    ]);
  });

  it('is a total order: antisymmetric, and sorting any permutation gives one result', () => {
    const field = fc.record({
      uiGroup: fc.constantFrom('Company', 'company', 'Contact', 'General'),
      order: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }),
      displayName: fc.constantFrom('a', 'A', 'b', 'Á', 'name'),
    });
    fc.assert(
      fc.property(fc.array(field, { maxLength: 12 }), fc.array(fc.nat()), (fields, keys) => {
        for (const a of fields) {
          for (const b of fields) {
            expect(Math.sign(compareFormFieldsForList(a, b))).toBe(
              -Math.sign(compareFormFieldsForList(b, a)) || 0,
            );
          }
        }
        const shuffled = fields
          .map((item, index) => ({ item, key: keys[index] ?? index }))
          .sort((x, y) => x.key - y.key)
          .map(({ item }) => item);
        const once = [...fields].sort(compareFormFieldsForList);
        const again = shuffled.sort(compareFormFieldsForList);
        expect(again.map((item) => JSON.stringify(item))).toEqual(
          once.map((item) => JSON.stringify(item)),
        );
        for (let index = 1; index < once.length; index++) {
          expect(compareFormFieldsForList(once[index - 1]!, once[index]!)).toBeLessThanOrEqual(0);
        }
      }),
    );
  });
});

describe('isSafePattern', () => {
  it.each([
    '[A-Z]{2}[0-9]{6}',
    '(SC|NI|OC)?[0-9]{6,8}',
    '\\+?[0-9 ()-]{7,20}',
    '[A-Z0-9]{18}[0-9]{2}',
  ])('accepts %s, which repeats no repetition', (pattern) =>
    expect(isSafePattern(pattern)).toBe(true),
  );

  it.each(['(a+)+b', '(x+x+)+y', '([a-z]+)*', '(\\d*)*$'])(
    'refuses %s, a repetition of a repetition',
    (pattern) => {
      expect(isSafePattern(pattern)).toBe(false);
      const result = formFieldCreateSchema.safeParse({
        name: 'Code',
        displayName: 'Code',
        type: 'Text',
        pattern,
      });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([UNSAFE_PATTERN_MESSAGE]);
    },
  );
});
