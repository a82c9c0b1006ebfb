import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cloneFormName,
  compareFormsForList,
  defaultUiGroupOrder,
  effectiveGroupOrder,
  FORM_CLONE_SUFFIX,
  FORM_NAME_MAX_LENGTH,
  FORM_NAME_MESSAGES,
  formListSchema,
  formNameOrIdParamsSchema,
  formNameSchema,
  missingFieldIds,
  RESERVED_FORM_NAMES,
  sortFieldsForSave,
  validateFormName,
  type FormDefinition,
} from './forms.ts';
import { INT4_ID_MAX } from './ids.ts';

describe('formListSchema', () => {
  const form = {
    id: 1,
    name: 'EditIndividualId_passport',
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
  };

  it('describes the forms list (id, name, createdAt, updatedAt)', () => {
    expect(formListSchema.parse([form])).toEqual([form]);
  });

  it('refuses a form without an ISO creation time', () => {
    expect(formListSchema.safeParse([{ ...form, createdAt: 'yesterday' }]).success).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Form name (spec part 2, section 5) and the name-or-id of a submission.

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const letter = fc.constantFrom(...LETTERS);
const nameCharacter = fc.constantFrom(...`${LETTERS}0123456789_`);
const validFormName = fc
  .tuple(letter, fc.string({ unit: nameCharacter, maxLength: FORM_NAME_MAX_LENGTH - 1 }))
  .map(([first, rest]) => first + rest)
  .filter((name) => !(RESERVED_FORM_NAMES as readonly string[]).includes(name.toLowerCase()));
const textCharacter = fc.oneof(
  nameCharacter,
  fc.constantFrom(' ', '\t', '\u0000', '\ud800', '-', '.', '/', 'é', '\u{1F600}'),
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }),
);
const anyText = (maxLength: number) => fc.string({ unit: textCharacter, maxLength });
/** The reserved names in any letter case. */
const reservedName = fc
  .tuple(fc.constantFrom(...RESERVED_FORM_NAMES), fc.array(fc.boolean(), { maxLength: 10 }))
  .map(([name, upper]) =>
    [...name].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(''),
  );

describe('validateFormName and formNameSchema', () => {
  it('give their messages in order: required, length, characters, reserved', () => {
    expect(validateFormName('')).toBe(FORM_NAME_MESSAGES.required);
    expect(validateFormName('   ')).toBe(FORM_NAME_MESSAGES.required);
    expect(validateFormName(`A${'b'.repeat(100)}`)).toBe(FORM_NAME_MESSAGES.tooLong);
    expect(validateFormName(`A${'b'.repeat(99)}`)).toBeNull();
    expect(validateFormName('1Form')).toBe(FORM_NAME_MESSAGES.invalid);
    expect(validateFormName('_Form')).toBe(FORM_NAME_MESSAGES.invalid);
    expect(validateFormName('used-tags')).toBe(FORM_NAME_MESSAGES.invalid);
    expect(validateFormName('My form')).toBe(FORM_NAME_MESSAGES.invalid);
    expect(validateFormName('List')).toBe(FORM_NAME_MESSAGES.reserved);
    expect(validateFormName(' EditTenantProfile ')).toBeNull();
    expect(validateFormName('EditIndividualId_drivinglicence')).toBeNull();
    expect(FORM_NAME_MESSAGES.required).toBe('Name is required.');
  });

  it('accept every well-formed name that is not reserved, trimmed', () => {
    fc.assert(
      fc.property(validFormName, fc.constantFrom('', ' ', '\t '), (name, space) => {
        expect(validateFormName(space + name + space)).toBeNull();
        expect(formNameSchema.parse(space + name + space)).toBe(name);
      }),
    );
  });

  it('refuse the paths of the forms service as names, in any letter case', () => {
    fc.assert(
      fc.property(reservedName, (name) => {
        expect(validateFormName(name)).toBe(FORM_NAME_MESSAGES.reserved);
        expect(formNameSchema.safeParse(name).error?.issues[0]?.message).toBe(
          FORM_NAME_MESSAGES.reserved,
        );
      }),
    );
  });

  it('agree on every text', () => {
    fc.assert(
      fc.property(fc.oneof(anyText(110), validFormName, reservedName), (raw) => {
        const message = validateFormName(raw);
        const parsed = formNameSchema.safeParse(raw);
        expect(parsed.success).toBe(message === null);
        if (!parsed.success) {
          expect(parsed.error.issues.map((issue) => issue.message)).toEqual([message]);
        }
      }),
    );
    expect(formNameSchema.safeParse(undefined).error?.issues[0]?.message).toBe(
      FORM_NAME_MESSAGES.required,
    );
  });
});

describe('cloneFormName', () => {
  it("appends '_Copy' within the name's limit, and stays a valid name", () => {
    expect(cloneFormName('EditTenantProfile')).toBe('EditTenantProfile_Copy');
    fc.assert(
      fc.property(validFormName, (name) => {
        const clone = cloneFormName(name);
        expect(clone.length).toBeLessThanOrEqual(FORM_NAME_MAX_LENGTH);
        expect(clone.endsWith(FORM_CLONE_SUFFIX)).toBe(true);
        expect(name.startsWith(clone.slice(0, -FORM_CLONE_SUFFIX.length))).toBe(true);
        expect(validateFormName(clone)).toBeNull();
      }),
    );
  });
});

describe('formNameOrIdParamsSchema', () => {
  const parse = (nameOrId: string) => formNameOrIdParamsSchema.safeParse({ nameOrId });

  it('reads plain digits as an id and anything else as a name', () => {
    expect(parse('42').data).toEqual({ nameOrId: { id: 42 } });
    expect(parse(String(INT4_ID_MAX)).data).toEqual({ nameOrId: { id: INT4_ID_MAX } });
    expect(parse('EditTenantProfile').data).toEqual({ nameOrId: { name: 'EditTenantProfile' } });
    for (const bad of ['0', '007', String(INT4_ID_MAX + 1), '99999999999999999999']) {
      expect(parse(bad).error?.issues[0]?.message, bad).toBe(
        `nameOrId must be a form name or a whole number from 1 to ${INT4_ID_MAX}, in plain digits`,
      );
    }
    expect(parse('1Form').error?.issues[0]?.message).toBe(FORM_NAME_MESSAGES.invalid);
    expect(parse('list').error?.issues[0]?.message).toBe(FORM_NAME_MESSAGES.reserved);
    expect(parse('a'.repeat(101)).error?.issues[0]?.message).toBe(FORM_NAME_MESSAGES.tooLong);
  });

  it('answers every id from 1 to the column maximum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: INT4_ID_MAX }), (id) => {
        expect(parse(String(id)).data).toEqual({ nameOrId: { id } });
      }),
    );
  });

  it('answers every valid name as that name', () => {
    fc.assert(
      fc.property(validFormName, (name) => {
        expect(parse(name).data).toEqual({ nameOrId: { name } });
      }),
    );
  });

  it('accepts a text exactly when it is a canonical id or a valid name', () => {
    fc.assert(
      fc.property(fc.oneof(anyText(110), fc.stringMatching(/^[0-9]{0,12}$/)), (raw) => {
        const isId = /^[1-9][0-9]*$/.test(raw) && Number(raw) <= INT4_ID_MAX;
        const isName = !/^[0-9]+$/.test(raw) && validateFormName(raw) === null;
        expect(parse(raw).success).toBe(isId || isName);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Groups and field order (spec part 2, "Form-definition dialog"), the list order, missing fields.

const field = (displayName: string, uiGroup: string, order: number | null = null) => ({
  displayName,
  uiGroup,
  order,
});

describe('defaultUiGroupOrder', () => {
  it('is the groups of the selected fields in order of first appearance', () => {
    expect(defaultUiGroupOrder([])).toEqual([]);
    expect(
      defaultUiGroupOrder([
        field('a', 'Contact'),
        field('b', 'Company'),
        field('c', 'Contact'),
        field('d', 'General'),
        field('e', 'Company'),
      ]),
    ).toEqual(['Contact', 'Company', 'General']);
  });
});

describe('effectiveGroupOrder', () => {
  const fields = [field('a', 'Contact'), field('b', 'Company'), field('c', 'Compliance')];

  it('keeps the listed groups that hold a field, then the others in order of first appearance', () => {
    expect(effectiveGroupOrder(['Compliance', 'Gone', 'Contact'], fields)).toEqual([
      'Compliance',
      'Contact',
      'Company',
    ]);
    expect(effectiveGroupOrder([], fields)).toEqual(['Contact', 'Company', 'Compliance']);
    expect(effectiveGroupOrder(['Company', 'Company'], fields)).toEqual([
      'Company',
      'Contact',
      'Compliance',
    ]);
    expect(effectiveGroupOrder(['Company'], [])).toEqual([]);
  });

  it('holds every group of the fields once, and nothing else', () => {
    const group = fc.constantFrom('A', 'B', 'C', 'D', 'a');
    fc.assert(
      fc.property(fc.array(group), fc.array(group), (order, groups) => {
        const result = effectiveGroupOrder(
          order,
          groups.map((uiGroup) => ({ uiGroup })),
        );
        expect(new Set(result)).toEqual(new Set(groups));
        expect(result).toHaveLength(new Set(groups).size);
        // The listed ones first, in the listed order.
        const listed = [...new Set(order.filter((g) => groups.includes(g)))];
        expect(result.slice(0, listed.length)).toEqual(listed);
      }),
    );
  });
});

describe('sortFieldsForSave', () => {
  it('sorts by group order, then field order (missing last), then display name ignoring case', () => {
    const fields = [
      field('Website', 'Company'),
      field('Email', 'Contact', 2),
      field('name', 'Company', 1),
      field('Phone', 'Contact', 1),
      field('Name', 'Company', 1),
      field('Notes', 'Other'),
      field('Legal form', 'Company', 2),
      field('age', 'Company', 1),
    ];
    expect(sortFieldsForSave(fields, ['Contact', 'Company'])).toEqual([
      field('Phone', 'Contact', 1),
      field('Email', 'Contact', 2),
      field('age', 'Company', 1),
      field('Name', 'Company', 1),
      field('name', 'Company', 1),
      field('Legal form', 'Company', 2),
      field('Website', 'Company'),
      field('Notes', 'Other'),
    ]);
  });

  it('puts the groups the order does not name last, in order of first appearance, and keeps ties stable', () => {
    const first = { ...field('Same', 'B', 1), id: 1 };
    const second = { ...field('Same', 'B', 1), id: 2 };
    expect(sortFieldsForSave([field('x', 'C'), first, field('y', 'A'), second], ['A'])).toEqual([
      field('y', 'A'),
      field('x', 'C'),
      first,
      second,
    ]);
  });

  it('is a permutation whose groups follow effectiveGroupOrder, and sorting again changes nothing', () => {
    const sortable = fc.record({
      uiGroup: fc.constantFrom('Company', 'Contact', 'Compliance'),
      order: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
      displayName: fc.constantFrom('a', 'B', 'b', 'c'),
    });
    fc.assert(
      fc.property(
        fc.array(sortable, { maxLength: 15 }),
        fc.array(fc.constantFrom('Company', 'Contact', 'Compliance', 'Gone')),
        (fields, order) => {
          const sorted = sortFieldsForSave(fields, order);
          expect([...sorted].sort(byJson)).toEqual([...fields].sort(byJson));
          const groups = effectiveGroupOrder(order, fields);
          const positions = sorted.map((item) => groups.indexOf(item.uiGroup));
          expect(positions).toEqual([...positions].sort((a, b) => a - b));
          expect(sortFieldsForSave(sorted, order)).toEqual(sorted);
          expect(sortFieldsForSave(sorted, defaultUiGroupOrder(sorted))).toEqual(sorted);
        },
      ),
    );
  });
});

const byJson = (a: unknown, b: unknown) => {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

describe('compareFormsForList', () => {
  it('sorts by name ignoring case, then the latest update first', () => {
    const form = (name: string, updatedAt: string) => ({ name, updatedAt });
    const forms = [
      form('EditTenantProfile', '2024-01-01T00:00:00.000Z'),
      form('editEntityProfile', '2024-01-01T00:00:00.000Z'),
      form('editTenantProfile', '2024-06-01T00:00:00.000Z'),
      form('Another', '2023-01-01T00:00:00.000Z'),
      form('EditTenantProfile', '2024-06-01T00:00:00.000Z'),
    ];
    expect([...forms].sort(compareFormsForList)).toEqual([
      form('Another', '2023-01-01T00:00:00.000Z'),
      form('editEntityProfile', '2024-01-01T00:00:00.000Z'),
      form('EditTenantProfile', '2024-06-01T00:00:00.000Z'),
      form('editTenantProfile', '2024-06-01T00:00:00.000Z'),
      form('EditTenantProfile', '2024-01-01T00:00:00.000Z'),
    ]);
  });

  it('orders case variants of one name by their update, whatever the order they come in', () => {
    // Code points would put 'FORM' first.
    const older = { name: 'FORM', updatedAt: '2024-01-01T00:00:00.000Z' };
    const newer = { name: 'Form', updatedAt: '2025-01-01T00:00:00.000Z' };
    expect([older, newer].sort(compareFormsForList)).toEqual([newer, older]);
    expect([newer, older].sort(compareFormsForList)).toEqual([newer, older]);
  });
});

describe('missingFieldIds', () => {
  it('lists the ids without a definition, in the form order', () => {
    const definition = (id: number) =>
      ({ id }) as unknown as FormDefinition['field_definitions'][number];
    expect(
      missingFieldIds({ fields: [4, 1, 9, 2], field_definitions: [definition(1), definition(2)] }),
    ).toEqual([4, 9]);
    expect(missingFieldIds({ fields: [], field_definitions: [] })).toEqual([]);
    expect(missingFieldIds({ fields: [3], field_definitions: [definition(3)] })).toEqual([]);
  });
});
