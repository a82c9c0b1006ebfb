import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataObjectSchema } from './forms.ts';
import { isPrototypeKey, PROTOTYPE_KEYS } from './keys.ts';
import { profileFormDataSchema, profileSubmitPartsSchema } from './form-usage.ts';

const problems = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

describe('profileSubmitPartsSchema', () => {
  const formData = JSON.stringify({ 'DataObject.LegalName': 'Acme', 'DataObject.Segment': 'Bank' });

  it('reads a Tenant and an Entity submission into their target, id and values', () => {
    expect(
      profileSubmitPartsSchema.parse({ Target: 'Tenant', TenantId: '12', FormData: formData }),
    ).toEqual({ target: 'Tenant', tenantId: 12, values: { LegalName: 'Acme', Segment: 'Bank' } });
    expect(
      profileSubmitPartsSchema.parse({
        Target: 'Entity',
        EntityId: 'e-1',
        TenantId: '',
        FormData: '{}',
      }),
    ).toEqual({ target: 'Entity', entityId: 'e-1', values: {} });
  });

  it.each([
    [{ FormData: '{}' }, 'Target', 'Target is required (Tenant or Entity).'],
    [
      { Target: 'tenant', TenantId: '1', FormData: '{}' },
      'Target',
      'Target must be Tenant or Entity.',
    ],
    [
      { Target: 'Tenant', FormData: '{}' },
      'TenantId',
      'TenantId is required for a Tenant profile.',
    ],
    [
      { Target: 'Entity', TenantId: '1', FormData: '{}' },
      'EntityId',
      'EntityId is required for an Entity profile.',
    ],
    [
      { Target: 'Tenant', TenantId: '0x1', FormData: '{}' },
      'TenantId',
      'TenantId must be a whole number from 1 to 2147483647, in plain digits.',
    ],
    [{ Target: 'Tenant', TenantId: '1' }, 'FormData', 'FormData is required.'],
    [{ Target: 'Tenant', TenantId: '1', FormData: '{' }, 'FormData', 'FormData must be JSON.'],
    [
      { Target: 'Tenant', TenantId: '1', FormData: '[1]' },
      'FormData',
      'FormData must be a JSON object of input name to value',
    ],
    [
      { Target: 'Tenant', TenantId: '1', FormData: '{"Name":"x"}' },
      'FormData.Name',
      'FormData input Name does not start with DataObject.',
    ],
    [
      { Target: 'Tenant', TenantId: '1', FormData: '{"DataObject.A":1}' },
      'FormData.DataObject.A',
      'Each FormData value must be a string',
    ],
    [
      { Target: 'Tenant', TenantId: '1', FormData: '{"DataObject.A":"a\\u0000"}' },
      'FormData.DataObject.A',
      'A FormData value must not contain the NUL character',
    ],
    [
      { Target: 'Entity', EntityId: 'a\ud800', FormData: '{}' },
      'EntityId',
      'EntityId must not contain a lone surrogate (half of a UTF-16 pair, not valid Unicode)',
    ],
  ])('%j: %s', (parts, path, message) => {
    expect(problems(profileSubmitPartsSchema.safeParse(parts))).toContainEqual([path, message]);
  });
});

describe('FormData keys JavaScript objects reserve', () => {
  const formDataProblems = (formData: string) =>
    problems(
      profileSubmitPartsSchema.safeParse({ Target: 'Entity', EntityId: 'e', FormData: formData }),
    );
  const reserve = (name: string, key: string) =>
    `${name} must not be ${key}: JavaScript objects reserve that name`;

  it('are refused as an input name, a bare key or a nested one, naming the path', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROTOTYPE_KEYS), (key) => {
        const input = `DataObject.${key}`;
        expect(formDataProblems(`{"DataObject.A":"a",${JSON.stringify(input)}:"b"}`)).toEqual([
          [`FormData.${input}`, reserve(`The field name of ${input}`, key)],
        ]);
        expect(formDataProblems(`{${JSON.stringify(key)}:"b"}`)).toEqual([
          [`FormData.${key}`, reserve('A key of FormData', key)],
        ]);
        expect(formDataProblems(`{"DataObject.A":{${JSON.stringify(key)}:{}}}`)).toEqual([
          [`FormData.DataObject.A.${key}`, reserve('A key of DataObject.A', key)],
        ]);
      }),
    );
  });

  it('leave any other field name a value of its own', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), (key) => {
        fc.pre(!isPrototypeKey(key) && !key.includes('\u0000'));
        const parsed = profileFormDataSchema.safeParse({ [`DataObject.${key}`]: 'v' });
        fc.pre(parsed.success);
        expect(Object.entries(parsed.data!)).toEqual([[key, 'v']]);
      }),
    );
  });
});

describe('record keys say what is wrong with them', () => {
  it('DataObject and FormData name the rule a key breaks', () => {
    expect(problems(dataObjectSchema.safeParse({ ['x'.repeat(51)]: 'v' }))).toEqual([
      ['x'.repeat(51), 'A field name must be 50 characters or less'],
    ]);
    expect(problems(profileFormDataSchema.safeParse({ 'a\u0000': 'v' }))).toEqual([
      ['a\u0000', 'A FormData input name must not contain the NUL character'],
    ]);
    expect(problems(dataObjectSchema.safeParse(5))).toEqual([
      ['', 'DataObject must be an object of field name to value'],
    ]);
  });
});
