import { aFormField } from '@console/contracts/testing';
import { describe, expect, it } from 'vitest';
import { formFieldCreateSchema } from '@console/contracts';
import { emptyFieldValues, fieldFormValues, type FieldFormValues } from './field-form';
import { fieldRequestOf, missesRequiredProperties } from './field-request';

const values = (overrides: Partial<FieldFormValues>): FieldFormValues => ({
  ...emptyFieldValues,
  name: 'Consent',
  displayName: 'Consent',
  type: 'Checkbox',
  ...overrides,
});

describe('fieldFormValues', () => {
  const stored = aFormField({
    name: 'Employer',
    displayName: 'Employer',
    order: 3,
    maxLength: null,
    options: ['A', 'B'],
    apiReferences: { persona: 'employer', onfido: 'company' },
    conditionalRequirements: [
      { fieldName: 'Employed', triggerValues: ['Yes', 'Self'], validationMessage: 'Who pays you?' },
      { fieldName: 'Country', triggerValues: ['!US'] },
    ],
  });

  it('shows a stored field as typed: numbers as text, options a line each, requirements decoded', () => {
    expect(fieldFormValues(stored, 'edit')).toMatchObject({
      name: 'Employer',
      order: '3',
      maxLength: '',
      options: 'A\nB',
      apiReferences: [
        { service: 'onfido', value: 'company' },
        { service: 'persona', value: 'employer' },
      ],
      conditionalRequirements: [
        {
          fieldName: 'Employed',
          type: 'any',
          triggerValues: 'Yes, Self',
          validationMessage: 'Who pays you?',
        },
        { fieldName: 'Country', type: 'none', triggerValues: 'US', validationMessage: '' },
      ],
    });
  });

  it('gives a clone the timestamped name and the (Clone) display name', () => {
    const clone = fieldFormValues(stored, 'clone', new Date(2025, 0, 2, 3, 4, 5));
    expect(clone.name).toBe('Employer_20250102_030405');
    expect(clone.displayName).toBe('Employer (Clone)');
  });

  it('round-trips a stored field through the contract unchanged', () => {
    const request = formFieldCreateSchema.parse(fieldRequestOf(fieldFormValues(stored, 'edit')));
    expect(request.conditionalRequirements).toEqual([
      { fieldName: 'Employed', triggerValues: ['Yes', 'Self'], validationMessage: 'Who pays you?' },
      { fieldName: 'Country', triggerValues: ['!US'], validationMessage: null },
    ]);
    expect(request.apiReferences).toEqual(stored.apiReferences);
  });
});

describe('fieldRequestOf', () => {
  it('sends options for a Select field only, one per line, trimmed, empty lines dropped', () => {
    expect(fieldRequestOf(values({ type: 'Select', options: ' A \r\n\nB\n' })).options).toEqual([
      'A',
      'B',
    ]);
    expect(fieldRequestOf(values({ type: 'Text', options: 'A' })).options).toEqual([]);
  });

  it('sends empty numbers as null, others as numbers (the contract refuses a fraction)', () => {
    const request = fieldRequestOf(values({ order: '', maxLength: ' 40 ', printSequence: '1.5' }));
    expect(request).toMatchObject({ order: null, maxLength: 40, printSequence: 1.5 });
    expect(formFieldCreateSchema.safeParse(request).error?.issues[0]?.message).toBe(
      'printSequence must be a whole number',
    );
  });

  it('normalises tags and leaves out incomplete requirement rows and blank reference rows', () => {
    const request = fieldRequestOf(
      values({
        tags: ['KYC', ' kyc'],
        apiReferences: [{ service: ' ', value: '' }],
        conditionalRequirements: [
          { fieldName: 'Country', type: 'none', triggerValues: 'US, GB', validationMessage: '' },
          { fieldName: '', type: 'any', triggerValues: 'x', validationMessage: '' },
          { fieldName: 'Employed', type: 'any', triggerValues: ' , ', validationMessage: 'm' },
        ],
      }),
    );
    expect(request).toMatchObject({
      tags: ['kyc'],
      apiReferences: {},
      conditionalRequirements: [{ fieldName: 'Country', triggerValues: ['!US', '!GB'] }],
    });
  });
});

describe('missesRequiredProperties', () => {
  it.each([
    [{ name: ' ', displayName: 'A', type: 'Text' }, true],
    [{ name: 'A', displayName: ' ', type: 'Text' }, true],
    [{ name: 'A', displayName: 'A', type: '' }, true],
    [{ name: 'A', displayName: 'A', type: 'Text' }, false],
  ] as const)('%j: %s', (properties, expected) => {
    expect(missesRequiredProperties(properties)).toBe(expected);
  });
});
