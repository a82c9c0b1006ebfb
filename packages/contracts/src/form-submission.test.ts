import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeConditionalRequirement,
  FIELD_VALUE_MAX_LENGTH,
  type FormField,
  type FormFieldType,
  type RequirementType,
} from './form-fields.ts';
import {
  canEditField,
  canViewField,
  hasValue,
  isValidDate,
  isValidDateTime,
  isValidPhoneNumber,
  matchesPattern,
  profileKeyOf,
  referencedIds,
  SUBMISSION_MESSAGES as M,
  trimValues,
  validateSubmission,
  type SubmissionContext,
  type SubmissionField,
} from './form-submission.ts';

/** A field of the given type with nothing set but its name, label and type. */
function field(
  name: string,
  type: FormFieldType = 'Text',
  more: Partial<SubmissionField> = {},
): SubmissionField {
  return {
    name,
    displayName: `${name} label`,
    type,
    required: false,
    validationErrorMessage: null,
    maxLength: null,
    pattern: null,
    options: [],
    requireFields: [],
    conditionalRequirements: [],
    aliasFor: null,
    viewPermissions: [],
    editPermissions: [],
    ...more,
  };
}

const context: SubmissionContext = {
  roles: ['staff'],
  countryIds: new Set(['840', '250']),
  documentTypeIds: new Set(['passport']),
};

const validate = (
  fields: SubmissionField[],
  values: Record<string, string>,
  more: Partial<SubmissionContext> = {},
) => validateSubmission(fields, values, { ...context, ...more });

describe('validateSubmission: required', () => {
  const name = field('FirstName', 'Text', { required: true });

  it('refuses a missing, empty or blank value with "{label} is required."', () => {
    for (const values of [{}, { FirstName: '' }, { FirstName: '  \t ' }] as Record<
      string,
      string
    >[]) {
      expect(validate([name], values)).toEqual({
        'FirstName label': ['FirstName label is required.'],
      });
    }
  });

  it("uses the field's validationErrorMessage when it has one", () => {
    const custom = { ...name, validationErrorMessage: 'Tell us your first name.' };
    expect(validate([custom], {})).toEqual({ 'FirstName label': ['Tell us your first name.'] });
  });

  it('accepts a value, and a field that is not required without one', () => {
    expect(validate([name, field('Other')], { FirstName: ' Ada ' })).toEqual({});
  });

  it('requires a required Checkbox to be checked', () => {
    const consent = field('Consent', 'Checkbox', { required: true });
    expect(validate([consent], { Consent: 'false' })).toEqual({
      'Consent label': [M.required('Consent label')],
    });
    expect(validate([consent], { Consent: 'true' })).toEqual({});
  });
});

describe('validateSubmission: length and pattern', () => {
  it('refuses a value over maxLength, counted after trimming', () => {
    const code = field('Code', 'Text', { maxLength: 5 });
    expect(validate([code], { Code: ' abcde ' })).toEqual({});
    expect(validate([code], { Code: 'abcdef' })).toEqual({
      'Code label': ['Code label must be 5 characters or less.'],
    });
  });

  it('holds every value to FIELD_VALUE_MAX_LENGTH, and ignores maxLength where it means nothing', () => {
    const select = field('Choice', 'Select', { maxLength: 1, options: ['Long option'] });
    expect(validate([select], { Choice: 'Long option' })).toEqual({});
    const text = field('Free');
    expect(validate([text], { Free: 'x'.repeat(FIELD_VALUE_MAX_LENGTH + 1) })).toEqual({
      'Free label': [M.tooLong('Free label', FIELD_VALUE_MAX_LENGTH)],
    });
  });

  it('applies maxLength to PartyList, Email and PhoneNumber too', () => {
    const parties = field('Parties', 'PartyList', { maxLength: 3 });
    expect(validate([parties], { Parties: 'a\nbc' })).toEqual({
      'Parties label': [M.tooLong('Parties label', 3)],
    });
  });

  it('matches a pattern against the whole value, like an HTML pattern attribute', () => {
    const zip = field('Zip', 'Text', { pattern: '[0-9]{5}' });
    expect(validate([zip], { Zip: '12345' })).toEqual({});
    for (const value of ['1234', '123456', 'a12345', '12345a']) {
      expect(validate([zip], { Zip: value })).toEqual({ 'Zip label': [M.pattern('Zip label')] });
    }
    const either = field('Either', 'Text', { pattern: 'a|b' });
    expect(validate([either], { Either: 'ab' })).toEqual({
      'Either label': [M.pattern('Either label')],
    });
  });

  it("says the field's validationErrorMessage when the pattern fails", () => {
    const zip = field('Zip', 'Text', {
      pattern: '[0-9]{5}',
      validationErrorMessage: 'Five digits, please.',
    });
    expect(validate([zip], { Zip: 'abc' })).toEqual({ 'Zip label': ['Five digits, please.'] });
  });

  it("compiles patterns with the 'v' flag (set operations) and ignores one that does not compile", () => {
    const consonant = field('C', 'Text', { pattern: '[[a-z]--[aeiou]]' });
    expect(validate([consonant], { C: 'b' })).toEqual({});
    expect(validate([consonant], { C: 'a' })).toEqual({ 'C label': [M.pattern('C label')] });
    const broken = field('B', 'Text', { pattern: '(' });
    expect(validate([broken], { B: 'anything' })).toEqual({});
  });

  it('does not check the pattern of an empty value that is not required', () => {
    const zip = field('Zip', 'Text', { pattern: '[0-9]{5}' });
    expect(validate([zip], { Zip: '' })).toEqual({});
  });

  it('applies the pattern to Email and PhoneNumber, not to other types', () => {
    const email = field('Mail', 'Email', { pattern: '.*@example\\.com' });
    expect(validate([email], { Mail: 'ada@elsewhere.org' })).toEqual({
      'Mail label': [M.pattern('Mail label')],
    });
    const date = field('Day', 'Date', { pattern: 'x' });
    expect(validate([date], { Day: '2024-02-29' })).toEqual({});
  });
});

describe('validateSubmission: types', () => {
  const cases: [FormFieldType, Partial<SubmissionField>, string[], string[], string][] = [
    [
      'Email',
      {},
      ['ada@example.com', 'a.b+c@mail.example.org'],
      ['ada', 'ada@', '@x.org', 'a b@x.org'],
      M.email('X label'),
    ],
    [
      'PhoneNumber',
      {},
      ['+44 20 7946 0958', '(020) 7946-0958', '0123456'],
      ['12345', 'call me', '+1 234 567 890 123 456', '++441234567'],
      M.phone('X label'),
    ],
    [
      'Date',
      {},
      ['2024-02-29', '0001-01-01', '9999-12-31'],
      ['2023-02-29', '2024-13-01', '2024-1-1', '24-01-01', '2024-01-01T00:00'],
      M.date('X label'),
    ],
    [
      'DateTime',
      {},
      ['2024-02-29T23:59', '2024-01-01T00:00:59'],
      [
        '2024-01-01',
        '2024-01-01T24:00',
        '2024-01-01T10:60',
        '2024-01-01 10:00',
        '2024-02-30T10:00',
      ],
      M.dateTime('X label'),
    ],
    [
      'Select',
      { options: ['Low', 'High'] },
      ['Low', ' High '],
      ['low', 'Medium'],
      M.option('X label'),
    ],
    ['DropdownYesNo', {}, ['Yes', 'No'], ['yes', 'Maybe', 'true'], M.yesNo('X label')],
    ['Checkbox', {}, ['true', 'false'], ['on', 'yes', '1'], M.checkbox('X label')],
    ['Country', {}, ['840', ' 250 '], ['999', '0840', 'US', '84O'], M.country('X label')],
    ['DocumentType', {}, ['passport'], ['Passport', 'visa'], M.documentType('X label')],
  ];

  it.each(cases)('%s: accepts its values and refuses others', (type, more, good, bad, message) => {
    const subject = field('X', type, more);
    for (const value of good) expect(validate([subject], { X: value }), value).toEqual({});
    for (const value of bad) {
      expect(validate([subject], { X: value }), value).toEqual({ 'X label': [message] });
    }
  });

  it('takes any text for Text, PartyList and FileUpload', () => {
    for (const type of ['Text', 'PartyList', 'FileUpload'] as const) {
      expect(validate([field('X', type)], { X: 'one\ntwo <b>' })).toEqual({});
    }
  });
});

describe('validateSubmission: conditional requirements', () => {
  const risk = field('Risk', 'Select', { options: ['Low', 'Medium', 'High'] });
  const reason = (type: RequirementType, values: string[], validationMessage?: string) =>
    field('Reason', 'Text', {
      conditionalRequirements: [
        encodeConditionalRequirement({ fieldName: 'Risk', type, values, validationMessage }),
      ],
    });

  it("'any': requires the field when the watched value is one of the trigger values", () => {
    const fields = [risk, reason('any', ['High', 'Medium'])];
    expect(validate(fields, { Risk: 'High' })).toEqual({
      'Reason label': ["Reason label is required when Risk label is 'High' or 'Medium'."],
    });
    expect(validate(fields, { Risk: 'Low' })).toEqual({});
    expect(validate(fields, { Risk: 'High', Reason: 'Sanctions hit' })).toEqual({});
  });

  it("'none' ('!'): requires the field when the watched value is none of the trigger values", () => {
    const fields = [risk, reason('none', ['Low'])];
    expect(fields[1]!.conditionalRequirements[0]!.triggerValues).toEqual(['!Low']);
    expect(validate(fields, { Risk: 'High' })).toEqual({
      'Reason label': ["Reason label is required when Risk label is not 'Low'."],
    });
    expect(validate(fields, { Risk: 'Low' })).toEqual({});
    // An empty watched value is none of the trigger values.
    expect(validate(fields, {})).toEqual({
      'Reason label': ["Reason label is required when Risk label is not 'Low'."],
    });
  });

  it("says the requirement's own message when it has one", () => {
    const fields = [risk, reason('any', ['High'], 'Explain the high risk.')];
    expect(validate(fields, { Risk: 'High' })).toEqual({
      'Reason label': ['Explain the high risk.'],
    });
  });

  it('describes one, two and more trigger values in words', () => {
    const message = (type: RequirementType, values: string[]) =>
      M.requiredWhen('R', 'W', encodeConditionalRequirement({ fieldName: 'W', type, values }));
    expect(message('any', ['A'])).toBe("R is required when W is 'A'.");
    expect(message('any', ['A', 'B', 'C'])).toBe("R is required when W is one of 'A', 'B', 'C'.");
    expect(message('none', ['A', 'B'])).toBe("R is required when W is neither 'A' nor 'B'.");
    expect(message('none', ['A', 'B', 'C'])).toBe("R is required when W is none of 'A', 'B', 'C'.");
  });

  it('reads a watched field that is not on the form from the stored values, by its name', () => {
    const fields = [
      field('Reason', 'Text', {
        conditionalRequirements: [{ fieldName: 'Segment', triggerValues: ['Bank'] }],
      }),
    ];
    expect(validate(fields, {}, { stored: { Segment: 'Bank' } })).toEqual({
      'Reason label': ["Reason label is required when Segment is 'Bank'."],
    });
    expect(validate(fields, {}, { stored: { Segment: 'Shop' } })).toEqual({});
  });

  it('property: the field is required exactly when requirementApplies, for any encoding', () => {
    const triggerValue = fc
      .string({ minLength: 1, maxLength: 8 })
      .filter((value) => value.trim() === value && value !== '' && !value.startsWith('!'));
    fc.assert(
      fc.property(
        fc.constantFrom<RequirementType>('any', 'none'),
        fc.uniqueArray(triggerValue, { minLength: 1, maxLength: 4 }),
        fc.oneof(fc.string({ maxLength: 8 }), triggerValue),
        fc.boolean(),
        (type, values, watched, pad) => {
          const dependent = field('Dependent', 'Text', {
            conditionalRequirements: [
              encodeConditionalRequirement({ fieldName: 'Watched', type, values }),
            ],
          });
          const sent = pad ? ` ${watched} ` : watched;
          const errors = validate([field('Watched'), dependent], { Watched: sent });
          const matches = values.includes(watched.trim());
          const required = type === 'any' ? matches : !matches;
          expect('Dependent label' in errors).toBe(required);
        },
      ),
    );
  });
});

describe('validateSubmission: requireFields', () => {
  const passport = field('PassportNumber', 'Text', { requireFields: ['Expiry', 'Issuer'] });
  const expiry = field('Expiry', 'Date');
  const issuer = field('Issuer', 'Country');

  it('requires each listed field when this one has a value', () => {
    expect(validate([passport, expiry, issuer], { PassportNumber: 'X123' })).toEqual({
      'Expiry label': ['Expiry label is required when PassportNumber label is filled in.'],
      'Issuer label': ['Issuer label is required when PassportNumber label is filled in.'],
    });
    expect(
      validate([passport, expiry, issuer], {
        PassportNumber: 'X123',
        Expiry: '2030-01-01',
        Issuer: '840',
      }),
    ).toEqual({});
  });

  it('requires nothing when this one is empty, or an unchecked Checkbox', () => {
    expect(validate([passport, expiry, issuer], { PassportNumber: ' ' })).toEqual({});
    const box = field('Box', 'Checkbox', { requireFields: ['Expiry'] });
    expect(validate([box, expiry], { Box: 'false' })).toEqual({});
    expect(validate([box, expiry], { Box: 'true' })).toEqual({
      'Expiry label': [M.requiredWith('Expiry label', 'Box label')],
    });
  });

  it('ignores listed names that are not fields of the form', () => {
    expect(validate([passport], { PassportNumber: 'X123' })).toEqual({});
  });

  it('gives a field one missing message: required before conditional before requireFields', () => {
    const both = field('Expiry', 'Date', {
      required: true,
      conditionalRequirements: [{ fieldName: 'PassportNumber', triggerValues: ['!'.concat('x')] }],
    });
    expect(validate([passport, both], { PassportNumber: 'X' })).toEqual({
      'Expiry label': ['Expiry label is required.'],
    });
  });
});

describe('validateSubmission: unknown keys and permissions', () => {
  it('refuses a key that is no field of the form, under the key itself', () => {
    expect(validate([field('A')], { A: 'x', Nope: 'y' })).toEqual({
      Nope: ['Not a field of this form.'],
    });
    // Names are exact: the DataObject keys are the storage names as rendered.
    expect(validate([field('A')], { a: 'x' })).toEqual({ a: [M.unknownField] });
  });

  it('keeps a field the caller may not edit, refusing a different value for it', () => {
    const locked = field('Rating', 'Text', { editPermissions: ['admin'], required: true });
    expect(validate([locked], {}, { roles: ['staff'] })).toEqual({});
    expect(validate([locked], { Rating: 'A' }, { roles: ['staff'] })).toEqual({
      'Rating label': ['Rating label cannot be changed by your account.'],
    });
    // The stored value sent back as it is changes nothing.
    expect(
      validate([locked], { Rating: ' A ' }, { roles: ['staff'], stored: { Rating: 'A' } }),
    ).toEqual({});
    expect(validate([locked], { Rating: 'A' }, { roles: ['admin', 'staff'] })).toEqual({});
  });

  it('treats a field the caller may not view as one it may not edit', () => {
    const hidden = field('Internal', 'Text', { viewPermissions: ['staff'] });
    expect(validate([hidden], { Internal: 'x' }, { roles: ['tenant'] })).toEqual({
      'Internal label': [M.notEditable('Internal label')],
    });
  });

  it('compares an unchecked Checkbox with an empty stored value as the same', () => {
    const box = field('Box', 'Checkbox', { editPermissions: ['admin'] });
    expect(validate([box], { Box: 'false' }, { roles: ['tenant'] })).toEqual({});
  });

  it('uses the stored value under aliasFor for a locked field watched by another', () => {
    const locked = field('Tier', 'Text', { aliasFor: 'RiskTier', editPermissions: ['admin'] });
    const dependent = field('Why', 'Text', {
      conditionalRequirements: [{ fieldName: 'Tier', triggerValues: ['3'] }],
    });
    expect(
      validate([locked, dependent], {}, { roles: ['tenant'], stored: { RiskTier: '3' } }),
    ).toEqual({ 'Why label': ["Why label is required when Tier label is '3'."] });
  });
});

describe('validateSubmission: answers', () => {
  it('lists the messages of one label together, in order, without repeating one', () => {
    const twice = [
      field('A', 'Email', { displayName: 'Same', pattern: 'z.*' }),
      field('B', 'Text', { displayName: 'Same', required: true }),
    ];
    expect(validate(twice, { A: 'bad' })).toEqual({
      Same: [M.pattern('Same'), M.email('Same'), M.required('Same')],
    });
  });

  it('reads only own values: storage names such as constructor or __proto__ are fields like any', () => {
    const names = ['constructor', 'toString', 'hasOwnProperty', '__proto__'];
    const fields = names.map((name) => field(name, 'Text', { required: true }));
    expect(validate(fields, {})).toEqual(
      Object.fromEntries(names.map((name) => [`${name} label`, [M.required(`${name} label`)]])),
    );
    const values = Object.fromEntries(names.map((name) => [name, ' x ']));
    expect(validate(fields, values)).toEqual({});
    const locked = names.map((name) => field(name, 'Text', { editPermissions: ['admin'] }));
    expect(validate(locked, {}, { roles: ['tenant'], stored: {} })).toEqual({});
    expect(trimValues(values)).toEqual(Object.fromEntries(names.map((name) => [name, 'x'])));
  });

  it('keeps hostile labels as plain keys, __proto__ included', () => {
    const errors = validate([field('A', 'Text', { displayName: '__proto__', required: true })], {});
    expect(Object.keys(errors)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
  });
});

describe('helpers', () => {
  it('trimValues trims every value', () => {
    expect(trimValues({ a: ' x ', b: '\ny\t' })).toEqual({ a: 'x', b: 'y' });
  });

  it('hasValue: a checked Checkbox, or any non-empty value', () => {
    expect(hasValue({ type: 'Checkbox' }, 'false')).toBe(false);
    expect(hasValue({ type: 'Checkbox' }, 'true')).toBe(true);
    expect(hasValue({ type: 'Text' }, '')).toBe(false);
    expect(hasValue({ type: 'Text' }, 'false')).toBe(true);
  });

  it('profileKeyOf is aliasFor when set, else the storage name', () => {
    expect(profileKeyOf({ name: 'A', aliasFor: null })).toBe('A');
    expect(profileKeyOf({ name: 'A', aliasFor: 'B' })).toBe('B');
  });

  it('canViewField / canEditField follow the permission lists (empty = everyone)', () => {
    const open = { viewPermissions: [], editPermissions: [] } as Pick<
      FormField,
      'viewPermissions' | 'editPermissions'
    >;
    expect(canEditField(open, ['tenant'])).toBe(true);
    expect(canViewField({ viewPermissions: ['admin'] }, ['staff'])).toBe(false);
    expect(canEditField({ viewPermissions: [], editPermissions: ['staff'] }, ['tenant'])).toBe(
      false,
    );
    expect(canEditField({ viewPermissions: ['admin'], editPermissions: [] }, ['staff'])).toBe(
      false,
    );
  });

  it('referencedIds lists the well-formed country and document type ids a submission names', () => {
    const fields = [
      field('C1', 'Country'),
      field('C2', 'Country'),
      field('C3', 'Country'),
      field('D', 'DocumentType'),
      field('T', 'Text'),
    ];
    expect(
      referencedIds(fields, { C1: ' 840 ', C2: '0840', C3: '840', D: 'passport', T: '250' }),
    ).toEqual({ countryIds: [840], documentTypeIds: ['passport'] });
  });
});

describe('properties of the value rules', () => {
  it('maxLength: refused exactly when the trimmed value is longer', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (value, max) => {
        const errors = validate([field('T', 'Text', { maxLength: max })], { T: value });
        expect('T label' in errors).toBe(value.trim().length > max);
      }),
    );
  });

  it('pattern: an escaped literal matches itself and nothing longer or shorter', () => {
    // Outside a class, the 'v' flag allows escaping the syntax characters and '/' only.
    const escape = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }),
        fc.string({ minLength: 1, maxLength: 4 }),
        (literal, extra) => {
          const pattern = escape(literal);
          expect(() => new RegExp(pattern, 'v')).not.toThrow();
          expect(matchesPattern(pattern, literal)).toBe(true);
          expect(matchesPattern(pattern, literal + extra)).toBe(false);
          expect(matchesPattern(pattern, extra + literal)).toBe(false);
        },
      ),
    );
  });

  it('date: valid exactly when the day exists (checked against Date.UTC)', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (year, month, day) => {
          const text = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}`;
          const date = new Date(0);
          date.setUTCFullYear(year, month - 1, day);
          const exists =
            month >= 1 &&
            month <= 12 &&
            date.getUTCFullYear() === year &&
            date.getUTCMonth() === month - 1 &&
            date.getUTCDate() === day;
          expect(isValidDate(text)).toBe(exists);
        },
      ),
    );
  });

  it('date: any real day in yyyy-MM-dd passes, any other shape fails', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        (date) => {
          const iso = date.toISOString();
          expect(isValidDate(iso.slice(0, 10))).toBe(true);
          expect(isValidDateTime(iso.slice(0, 16))).toBe(true);
          expect(isValidDateTime(iso.slice(0, 19))).toBe(true);
          expect(isValidDate(iso)).toBe(false);
          expect(isValidDateTime(iso)).toBe(false);
        },
      ),
    );
  });

  it('date-time: hours 00-23, minutes and seconds 00-59', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 70 }),
        fc.option(fc.integer({ min: 0, max: 70 })),
        (hours, minutes, seconds) => {
          const text = `2024-06-30T${two(hours)}:${two(minutes)}${seconds === null ? '' : `:${two(seconds)}`}`;
          const valid = hours <= 23 && minutes <= 59 && (seconds ?? 0) <= 59;
          expect(isValidDateTime(text)).toBe(valid);
        },
      ),
    );
  });

  it('phone: 7 to 15 digits with the usual separators', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom('', ' ', '-', '.', '(', ')')),
          { minLength: 1, maxLength: 20 },
        ),
        (plus, parts) => {
          const text = (plus ? '+' : '') + parts.map(([digit, sep]) => `${digit}${sep}`).join('');
          expect(isValidPhoneNumber(text)).toBe(parts.length >= 7 && parts.length <= 15);
        },
      ),
    );
  });

  it('never throws and answers only string lists, whatever the values', () => {
    const fields = [
      field('A', 'Email', { required: true }),
      field('B', 'Select', { options: ['x'] }),
      field('C', 'Date', { requireFields: ['A'] }),
      field('D', 'Text', { pattern: '[a-z]+', maxLength: 5 }),
    ];
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('A', 'B', 'C', 'D', 'E'), fc.string()),
        (values) => {
          const errors = validate(fields, values);
          for (const messages of Object.values(errors)) {
            expect(messages.length).toBeGreaterThan(0);
            for (const message of messages) expect(typeof message).toBe('string');
          }
        },
      ),
    );
  });
});
