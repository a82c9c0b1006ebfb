import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_TYPE_ID_MAX_LENGTH,
  documentTypeIdSchema,
  expectedFormName,
  normalizeTags,
  normalizeValidityPeriod,
  sanitizeDocumentTypeIdInput,
  validateDocumentTypeId,
  validityPeriodSchema,
} from './document-types.ts';
import { PROTOTYPE_KEYS } from './keys.ts';
import { expectNormalizesLists } from './testing.ts';
import {
  apiReferencesSchema,
  documentTypeCreateSchema,
  documentTypeImportSchema,
  documentTypeSchema,
  documentTypeTagsSchema,
  documentTypeUpdateSchema,
} from './document-types.ts';

const REQUIRED = 'ID is required';
const TOO_LONG = 'ID must be 50 characters or less';
const START = 'ID must start with a lowercase letter';
const CHARACTERS = 'ID can only contain lowercase letters, numbers, and underscores';

const lowercase = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
const idCharacter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_');
const validId = fc
  .tuple(lowercase, fc.string({ unit: idCharacter, maxLength: DOCUMENT_TYPE_ID_MAX_LENGTH - 1 }))
  .map(([first, rest]) => first + rest);

describe('validateDocumentTypeId', () => {
  it('gives the spec messages', () => {
    expect(DOCUMENT_TYPE_ID_MAX_LENGTH).toBe(50);
    expect(validateDocumentTypeId('')).toBe(REQUIRED);
    expect(validateDocumentTypeId('a'.repeat(51))).toBe(TOO_LONG);
    expect(validateDocumentTypeId('a'.repeat(50))).toBeNull();
    expect(validateDocumentTypeId('1passport')).toBe(START);
    expect(validateDocumentTypeId('_passport')).toBe(START);
    expect(validateDocumentTypeId('Passport')).toBe(START);
    expect(validateDocumentTypeId('pass-port')).toBe(CHARACTERS);
    expect(validateDocumentTypeId('passPort')).toBe(CHARACTERS);
    expect(validateDocumentTypeId('passport ')).toBe(CHARACTERS);
    expect(validateDocumentTypeId('driving_licence_2')).toBeNull();
  });

  it('accepts every well-formed ID', () => {
    fc.assert(
      fc.property(validId, (id) => {
        expect(validateDocumentTypeId(id)).toBeNull();
      }),
    );
  });

  it('checks length before the first character and the characters', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 51, maxLength: 120 }), (id) => {
        expect(validateDocumentTypeId(id)).toBe(TOO_LONG);
      }),
    );
  });

  it('checks the first character before the others', () => {
    fc.assert(
      fc.property(
        fc
          .string({ unit: 'binary', minLength: 1, maxLength: 50 })
          .filter((id) => id.length <= 50 && !/^[a-z]/.test(id)),
        (id) => {
          expect(validateDocumentTypeId(id)).toBe(START);
        },
      ),
    );
  });

  it('rejects any other character after a valid start', () => {
    fc.assert(
      fc.property(
        validId,
        fc
          .string({ unit: 'binary', minLength: 1, maxLength: 1 })
          .filter((c) => !/^[a-z0-9_]$/.test(c)),
        fc.nat(),
        (id, bad, at) => {
          const position = 1 + (at % id.length);
          const candidate = (id.slice(0, position) + bad + id.slice(position)).slice(0, 50);
          fc.pre(candidate.length <= 50 && /[^a-z0-9_]/.test(candidate));
          expect(validateDocumentTypeId(candidate)).toBe(CHARACTERS);
        },
      ),
    );
  });

  it('returns exactly one of the four messages or null, for any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (id) => {
        expect([null, REQUIRED, TOO_LONG, START, CHARACTERS]).toContain(validateDocumentTypeId(id));
      }),
    );
  });

  it('agrees with the schema', () => {
    fc.assert(
      fc.property(fc.oneof(validId, fc.string({ maxLength: 60 })), (id) => {
        const message = validateDocumentTypeId(id);
        const result = documentTypeIdSchema.safeParse(id);
        expect(result.success).toBe(message === null);
        if (!result.success) expect(result.error.issues.map((i) => i.message)).toEqual([message]);
      }),
    );
  });
});

describe('sanitizeDocumentTypeIdInput', () => {
  it('keeps only lowercase letters, digits and underscores', () => {
    expect(sanitizeDocumentTypeIdInput('Driving Licence-2!')).toBe('rivingicence2');
    expect(sanitizeDocumentTypeIdInput('national_id_card')).toBe('national_id_card');
  });

  it('always passes the character rule, and changes nothing already clean', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (raw) => {
        const clean = sanitizeDocumentTypeIdInput(raw);
        expect(clean).toMatch(/^[a-z0-9_]*$/);
        expect(validateDocumentTypeId(clean)).not.toBe(CHARACTERS);
        expect(sanitizeDocumentTypeIdInput(clean)).toBe(clean);
      }),
    );
  });
});

describe('normalizeTags', () => {
  it('trims, lower-cases, drops empties and keeps the first occurrence', () => {
    expect(normalizeTags([' Identity ', 'photo', 'IDENTITY', '', '  ', 'Travel', 'photo'])).toEqual(
      ['identity', 'photo', 'travel'],
    );
  });

  it('is idempotent and yields trimmed, lower-case, unique, non-empty tags', () => {
    expectNormalizesLists(normalizeTags, 12, (tag) => expect(tag).toBe(tag.toLowerCase()));
  });

  it('loses no tag', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 8 })), (tags) => {
        const normalized = new Set(normalizeTags(tags));
        for (const tag of tags) {
          const expected = tag.toLowerCase().trim();
          if (expected) expect(normalized.has(expected)).toBe(true);
        }
      }),
    );
  });
});

describe('expectedFormName', () => {
  it('prefixes EditIndividualId_ to the alphanumerics of the ID, lower-cased', () => {
    expect(expectedFormName('passport')).toBe('EditIndividualId_passport');
    expect(expectedFormName('driving_licence')).toBe('EditIndividualId_drivinglicence');
    expect(expectedFormName('National-ID 2')).toBe('EditIndividualId_nationalid2');
  });
});

describe('validity period', () => {
  it('accepts the spec ranges and rejects the rest', () => {
    expect(validityPeriodSchema.safeParse({ years: 10, months: 11, days: 30 }).success).toBe(true);
    expect(validityPeriodSchema.safeParse({}).success).toBe(true);
    expect(validityPeriodSchema.safeParse({ years: null }).success).toBe(true);
    expect(validityPeriodSchema.safeParse({ years: -1 }).success).toBe(false);
    expect(validityPeriodSchema.safeParse({ months: 12 }).success).toBe(false);
    expect(validityPeriodSchema.safeParse({ days: 31 }).success).toBe(false);
    expect(validityPeriodSchema.safeParse({ days: 1.5 }).success).toBe(false);
  });

  it('is null when no part is given', () => {
    expect(normalizeValidityPeriod(null)).toBeNull();
    expect(normalizeValidityPeriod({})).toBeNull();
    expect(normalizeValidityPeriod({ years: null, months: undefined, days: null })).toBeNull();
    expect(normalizeValidityPeriod({ years: 10, months: null })).toEqual({ years: 10 });
    expect(normalizeValidityPeriod({ years: 0, months: 6, days: 0 })).toEqual({
      years: 0,
      months: 6,
      days: 0,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// API shapes of the document types calls.

function issuesOf(result: {
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}): { path: PropertyKey[]; message: string }[] {
  return (result.error?.issues ?? []).map((issue) => ({
    path: issue.path,
    message: issue.message,
  }));
}

const displayName = fc
  .string({ minLength: 1, maxLength: 30 })
  .filter((value) => value.trim().length > 0 && !value.includes('\u0000'));
const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const periodPart = (max: number) => fc.option(fc.integer({ min: 0, max }), { nil: undefined });
const validPeriod = fc.record(
  { years: periodPart(200), months: periodPart(11), days: periodPart(30) },
  { requiredKeys: [] },
);

describe('documentTypeCreateSchema', () => {
  it('refuses an ID with exactly the message of validateDocumentTypeId', () => {
    fc.assert(
      fc.property(fc.oneof(validId, fc.string({ unit: 'binary', maxLength: 60 })), (id) => {
        const message = validateDocumentTypeId(id);
        const result = documentTypeCreateSchema.safeParse({ id, displayName: 'Name' });
        expect(result.success).toBe(message === null);
        if (message) expect(issuesOf(result)).toEqual([{ path: ['id'], message }]);
      }),
    );
  });

  it("says 'ID is required' for a missing or null ID", () => {
    for (const body of [{ displayName: 'Name' }, { id: null, displayName: 'Name' }]) {
      expect(issuesOf(documentTypeCreateSchema.safeParse(body))).toEqual([
        { path: ['id'], message: REQUIRED },
      ]);
    }
  });

  it('accepts every well-formed document type and normalises it', () => {
    fc.assert(
      fc.property(
        validId,
        displayName,
        fc.array(
          fc.string({ maxLength: 10 }).filter((tag) => !tag.includes('\u0000')),
          {
            maxLength: 8,
          },
        ),
        fc.option(int32, { nil: null }),
        validPeriod,
        (id, name, tags, sequence, period) => {
          const parsed = documentTypeCreateSchema.parse({
            id,
            displayName: name,
            tags,
            sequence,
            validityPeriod: period,
          });
          expect(parsed).toEqual({
            id,
            displayName: name.trim(),
            tags: normalizeTags(tags),
            apiReferences: {},
            sequence,
            validFrom: null,
            validTo: null,
            validityPeriod: normalizeValidityPeriod(period),
          });
        },
      ),
    );
  });

  it('makes a validity period with no part null', () => {
    for (const validityPeriod of [undefined, null, {}, { years: null, months: null, days: null }]) {
      expect(
        documentTypeCreateSchema.parse({ id: 'visa', displayName: 'Visa', validityPeriod })
          .validityPeriod,
      ).toBeNull();
    }
  });

  it('refuses validity parts out of range', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('years', 'months', 'days'),
        fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: 0, max: 1000 }), fc.double()),
        (part, value) => {
          const limit = { years: Infinity, months: 11, days: 30 }[part];
          const ok = Number.isSafeInteger(value) && value >= 0 && value <= limit;
          const result = documentTypeCreateSchema.safeParse({
            id: 'visa',
            displayName: 'Visa',
            validityPeriod: { [part]: value },
          });
          expect(result.success).toBe(ok);
          for (const issue of issuesOf(result))
            expect(issue.path).toEqual(['validityPeriod', part]);
        },
      ),
    );
  });

  it('takes the sequence as an optional integer', () => {
    fc.assert(
      fc.property(fc.oneof(int32, fc.double(), fc.string()), (sequence) => {
        const result = documentTypeCreateSchema.safeParse({
          id: 'visa',
          displayName: 'V',
          sequence,
        });
        const isInt32 =
          typeof sequence === 'number' &&
          Number.isInteger(sequence) &&
          sequence >= -(2 ** 31) &&
          sequence < 2 ** 31;
        expect(result.success).toBe(isInt32);
      }),
    );
    expect(documentTypeCreateSchema.parse({ id: 'visa', displayName: 'V' }).sequence).toBeNull();
  });

  it('refuses a blank display name', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\s*$/), (blank) => {
        expect(
          issuesOf(documentTypeCreateSchema.safeParse({ id: 'visa', displayName: blank })),
        ).toEqual([{ path: ['displayName'], message: 'displayName is required' }]);
      }),
    );
  });

  it('reads validity dates as dates or zoned date-times, in UTC, in order', () => {
    const parsed = documentTypeCreateSchema.parse({
      id: 'visa',
      displayName: 'Visa',
      validFrom: '2024-02-29',
      validTo: '2024-03-01T01:30:00+02:00',
    });
    expect(parsed.validFrom).toBe('2024-02-29T00:00:00.000Z');
    expect(parsed.validTo).toBe('2024-02-29T23:30:00.000Z');
    for (const validFrom of ['2023-02-29', '2024-01-01T10:00:00', 'tomorrow', 20240101]) {
      expect(
        documentTypeCreateSchema.safeParse({ id: 'visa', displayName: 'Visa', validFrom }).success,
      ).toBe(false);
    }
    expect(
      issuesOf(
        documentTypeCreateSchema.safeParse({
          id: 'visa',
          displayName: 'Visa',
          validFrom: '2024-01-02',
          validTo: '2024-01-01',
        }),
      ),
    ).toEqual([{ path: ['validTo'], message: 'validTo must not be before validFrom' }]);
  });
});

describe('tags and API references', () => {
  it('stores tags normalised', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 8 }).filter((t) => !t.includes('\u0000'))),
        (tags) => {
          expect(documentTypeTagsSchema.parse(tags)).toEqual(normalizeTags(tags));
        },
      ),
    );
    expect(documentTypeTagsSchema.safeParse(['a', 1]).success).toBe(false);
    expect(documentTypeTagsSchema.safeParse('a').success).toBe(false);
  });

  it('trims service names and references, and refuses empty or repeated ones', () => {
    expect(apiReferencesSchema.parse({ ' onfido ': ' PASSPORT ', jumio: 'P' })).toEqual({
      onfido: 'PASSPORT',
      jumio: 'P',
    });
    expect(issuesOf(apiReferencesSchema.safeParse({ onfido: 'a', ' onfido': 'b' }))).toEqual([
      { path: [' onfido'], message: "Service name 'onfido' is given twice" },
    ]);
    expect(issuesOf(apiReferencesSchema.safeParse({ '': 'a' }))).toEqual([
      { path: [''], message: 'A service name must not be empty' },
    ]);
    expect(issuesOf(apiReferencesSchema.safeParse({ onfido: 5 }))[0]?.path).toEqual(['onfido']);
    expect(apiReferencesSchema.safeParse(['onfido']).success).toBe(false);
  });

  it('refuses a service name JavaScript objects reserve, once trimmed, naming the key sent', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROTOTYPE_KEYS),
        fc.constantFrom('', ' ', '\t'),
        (key, space) => {
          const sent = `${space}${key}${space}`;
          // zod's records drop an own `__proto__` key before any check sees it: a JSON body is
          // refused for it first (findJsonProblem), and the dialog refuses the row (web).
          fc.pre(sent !== '__proto__');
          expect(issuesOf(apiReferencesSchema.safeParse({ onfido: 'a', [sent]: 'b' }))).toEqual([
            {
              path: [sent],
              message: `A service name must not be ${key}: JavaScript objects reserve that name`,
            },
          ]);
        },
      ),
    );
    expect(apiReferencesSchema.parse({ Constructor: 'a' })).toEqual({ Constructor: 'a' });
  });

  it('keeps any non-empty service name and reference', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 10 }).map((key) => `k${key.trim()}`),
          fc.string({ minLength: 1, maxLength: 10 }).map((value) => `v${value}`),
        ),
        (references) => {
          fc.pre(Object.entries(references).every(([k, v]) => !`${k}${v}`.includes('\u0000')));
          expect(apiReferencesSchema.parse(references)).toEqual(
            Object.fromEntries(Object.entries(references).map(([k, v]) => [k, v.trim()])),
          );
        },
      ),
    );
  });
});

describe('documentTypeUpdateSchema', () => {
  it('takes the same fields, with an optional ID', () => {
    expect(documentTypeUpdateSchema.parse({ displayName: 'Visa' })).toMatchObject({
      displayName: 'Visa',
      tags: [],
    });
    expect(documentTypeUpdateSchema.parse({ id: 'visa', displayName: 'Visa' }).id).toBe('visa');
  });
});

describe('documentTypeImportSchema', () => {
  const record = (id: string) => ({ id, displayName: id, tags: [], apiReferences: {} });

  it('accepts files of distinct, valid IDs', () => {
    fc.assert(
      fc.property(fc.uniqueArray(validId, { maxLength: 20 }), (ids) => {
        expect(documentTypeImportSchema.parse(ids.map(record)).map((r) => r.id)).toEqual(ids);
      }),
    );
  });

  it('refuses a repeated ID at the repeating record', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(validId, { minLength: 1, maxLength: 10 }),
        fc.nat(),
        (ids, pick) => {
          const first = pick % ids.length;
          const result = documentTypeImportSchema.safeParse([...ids, ids[first]!].map(record));
          expect(issuesOf(result)).toEqual([
            {
              path: [ids.length, 'id'],
              message: `Duplicate id ${ids[first]} (already at index ${first})`,
            },
          ]);
        },
      ),
    );
  });

  it('requires the tags array and the apiReferences object of every record', () => {
    expect(
      issuesOf(documentTypeImportSchema.safeParse([{ id: 'visa', displayName: 'Visa' }])),
    ).toEqual([
      { path: [0, 'tags'], message: 'Required' },
      { path: [0, 'apiReferences'], message: 'Required' },
    ]);
    expect(issuesOf(documentTypeImportSchema.safeParse({}))).toEqual([
      { path: [], message: 'Expected an array of document types' },
    ]);
  });
});

describe('response schemas', () => {
  it('describe a document type', () => {
    const documentType = {
      id: 'passport',
      displayName: 'Passport',
      tags: ['identity'],
      apiReferences: { onfido: 'passport' },
      sequence: null,
      validFrom: null,
      validTo: '2030-01-01T00:00:00.000Z',
      validityPeriod: { years: 10 },
    };
    expect(documentTypeSchema.parse(documentType)).toEqual(documentType);
  });
});
