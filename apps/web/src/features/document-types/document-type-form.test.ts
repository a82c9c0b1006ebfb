import { describe, expect, it } from 'vitest';
import type { DocumentType } from '@console/contracts';
import i18n from '@/lib/i18n';
import {
  canSaveDocumentType,
  documentTypeFormSchema,
  documentTypeFormValues,
  documentTypeRequest,
  emptyDocumentTypeValues,
  type DocumentTypeFormValues,
} from './document-type-form';

const t = i18n.t.bind(i18n);

const passport: DocumentType = {
  id: 'passport',
  displayName: 'Passport',
  tags: ['identity', 'travel'],
  apiReferences: { onfido: 'passport', persona: 'pp' },
  sequence: 10,
  validFrom: '2024-01-01T00:00:00.000Z',
  validTo: null,
  validityPeriod: { years: 10 },
};

function problems(mode: 'create' | 'edit', values: Partial<DocumentTypeFormValues>) {
  const result = documentTypeFormSchema(mode, t).safeParse({
    ...emptyDocumentTypeValues,
    ...values,
  });
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );
}

describe('canSaveDocumentType', () => {
  it.each([
    ['create', 'passport', 'Passport', true],
    ['create', 'passport', '   ', false],
    ['create', '', 'Passport', false],
    ['create', '1passport', 'Passport', false],
    ['create', 'p'.repeat(51), 'Passport', false],
    ['create', 'p'.repeat(50), 'Passport', true],
    ['edit', 'Legacy-ID', 'Passport', true],
    ['edit', 'passport', '', false],
  ] as const)('%s, ID %j, display name %j: %s', (mode, id, displayName, expected) => {
    expect(canSaveDocumentType(mode, { id, displayName })).toBe(expected);
  });
});

describe('documentTypeFormSchema', () => {
  const valid = { id: 'passport', displayName: 'Passport' };

  it('gives each ID message of the spec in create mode, none in edit mode', () => {
    expect(problems('create', { ...valid, id: '' }).id).toBe('ID is required');
    expect(problems('create', { ...valid, id: 'a'.repeat(51) }).id).toBe(
      'ID must be 50 characters or less',
    );
    expect(problems('create', { ...valid, id: '_passport' }).id).toBe(
      'ID must start with a lowercase letter',
    );
    expect(problems('create', { ...valid, id: 'pass-port' }).id).toBe(
      'ID can only contain lowercase letters, numbers, and underscores',
    );
    expect(problems('edit', { ...valid, id: 'Legacy-ID' })).toEqual({});
  });

  it.each([
    [{ years: '0', months: '0', days: '0' }, {}],
    [{ years: '99', months: '11', days: '30' }, {}],
    [{ years: '', months: '', days: '' }, {}],
    [{ years: '-1' }, { years: 'Years must be a whole number of 0 or more' }],
    [{ years: '1.5' }, { years: 'Years must be a whole number of 0 or more' }],
    [{ months: '12' }, { months: 'Months must be a whole number from 0 to 11' }],
    [{ months: '-1' }, { months: 'Months must be a whole number from 0 to 11' }],
    [{ days: '31' }, { days: 'Days must be a whole number from 0 to 30' }],
    [{ days: 'x' }, { days: 'Days must be a whole number from 0 to 30' }],
  ])('validity period %j', (period, expected) => {
    expect(problems('create', { ...valid, ...period })).toEqual(expected);
  });

  it('takes an empty or whole-number sequence only', () => {
    expect(problems('create', { ...valid, sequence: '' })).toEqual({});
    expect(problems('create', { ...valid, sequence: '-5' })).toEqual({});
    expect(problems('create', { ...valid, sequence: '2.5' })).toEqual({
      sequence: 'Sequence must be a whole number',
    });
    expect(problems('create', { ...valid, sequence: '99999999999' })).toEqual({
      sequence: 'Sequence must be a whole number',
    });
  });

  it('checks API reference rows, ignoring blank ones', () => {
    expect(
      problems('create', {
        ...valid,
        apiReferences: [
          { service: 'onfido', value: 'passport' },
          { service: '  ', value: '' },
          { service: ' onfido ', value: 'x' },
          { service: '', value: 'pp' },
          { service: 'persona', value: ' ' },
        ],
      }),
    ).toEqual({
      'apiReferences.2.service': 'Service name onfido is given twice',
      'apiReferences.3.service': 'Service name is required',
      'apiReferences.4.value': 'Reference value is required',
    });
  });
});

describe('documentTypeRequest', () => {
  it('normalises tags, trims, drops blank rows and empty numbers; no period is null', () => {
    expect(
      documentTypeRequest({
        ...emptyDocumentTypeValues,
        id: 'residence_permit',
        displayName: '  Residence permit ',
        tags: ['Identity', ' identity', 'PHOTO'],
        apiReferences: [
          { service: ' onfido ', value: ' residence_permit ' },
          { service: '', value: '' },
        ],
      }),
    ).toEqual({
      id: 'residence_permit',
      displayName: 'Residence permit',
      tags: ['identity', 'photo'],
      apiReferences: { onfido: 'residence_permit' },
      sequence: null,
      validityPeriod: null,
      validFrom: null,
      validTo: null,
    });
  });

  it('keeps only the period parts given, and an edit keeps the stored validity dates', () => {
    const values = { ...documentTypeFormValues(passport), years: '', months: '6', sequence: '20' };
    expect(documentTypeRequest(values, passport)).toMatchObject({
      sequence: 20,
      validityPeriod: { months: 6 },
      validFrom: '2024-01-01T00:00:00.000Z',
      validTo: null,
    });
  });

  it('round-trips a stored document type unchanged', () => {
    const { id, displayName, tags, apiReferences, sequence, validityPeriod } = passport;
    expect(documentTypeRequest(documentTypeFormValues(passport), passport)).toEqual({
      id,
      displayName,
      tags,
      apiReferences,
      sequence,
      validityPeriod,
      validFrom: passport.validFrom,
      validTo: passport.validTo,
    });
  });
});
