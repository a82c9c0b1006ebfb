import { describe, expect, it } from 'vitest';
import i18n from '@/lib/i18n';
import {
  formDefinitionRequest,
  formDefinitionResolver,
  formDefinitionValues,
  groupOrderOf,
  type FormDefinitionValues,
} from './form-definition-values';
import {
  BIRTH_DATE,
  CATALOGUE,
  CITY,
  FIRST_NAME,
  LAST_NAME,
  STREET,
  catalogueField,
  definition,
  formItem,
} from './forms-test-data';

const fieldsById = new Map(CATALOGUE.map((field) => [field.id, field]));
const values = (more: Partial<FormDefinitionValues>): FormDefinitionValues => ({
  name: 'Kyc',
  description: '',
  fields: [],
  uiGroupOrder: [],
  colSpanOverride: '0',
  ...more,
});

describe('form definition values', () => {
  it('start an edit from the stored order, without groups no field has, and a clone as _Copy', () => {
    const stored = definition(formItem(3, 'Kyc'), [STREET.id, FIRST_NAME.id], {
      uiGroupOrder: ['Gone', 'Personal'],
      colSpanOverride: 4,
    });
    expect(formDefinitionValues(stored, 'edit')).toEqual({
      name: 'Kyc',
      description: 'About Kyc',
      fields: [STREET.id, FIRST_NAME.id],
      uiGroupOrder: ['Personal', 'Address'],
      colSpanOverride: '4',
    });
    expect(formDefinitionValues(stored, 'clone').name).toBe('Kyc_Copy');
  });

  it('keep the groups of the selected fields: kept order first, new groups after', () => {
    expect(
      groupOrderOf(
        values({ fields: [FIRST_NAME.id, CITY.id, 99], uiGroupOrder: ['Address', 'Gone'] }),
        fieldsById,
      ),
    ).toEqual(['Address', 'Personal']);
  });

  it('save the fields by group order, then field order, then display name; missing ones last', () => {
    const zed = catalogueField(20, 'Zed', 'zed', 'Personal', 1);
    const anna = catalogueField(21, 'Anna', 'Anna', 'Personal', 1);
    const known = new Map([...fieldsById, [zed.id, zed], [anna.id, anna]]);
    const request = formDefinitionRequest(
      values({
        fields: [BIRTH_DATE.id, 77, zed.id, CITY.id, LAST_NAME.id, anna.id, STREET.id],
        uiGroupOrder: ['Address'],
        colSpanOverride: ' ',
      }),
      known,
      3,
    );
    expect(request).toEqual({
      id: 3,
      name: 'Kyc',
      description: '',
      fields: [STREET.id, CITY.id, anna.id, zed.id, LAST_NAME.id, BIRTH_DATE.id, 77],
      uiGroupOrder: ['Address', 'Personal'],
      colSpanOverride: null,
    });
  });

  it("refuse a missing name in the key validation.nameRequired's words, a taken one when new", async () => {
    const rules = { fieldsById, takenNames: new Set(['kyc']), t: i18n.t };
    const check = (mode: 'create' | 'edit' | 'clone', name: string) =>
      formDefinitionResolver({ ...rules, mode, id: mode === 'edit' ? 3 : undefined })(
        values({ name }),
        undefined,
        { fields: {}, shouldUseNativeValidation: false },
      );
    expect(i18n.t('validation.nameRequired')).toBe('Name is required.');
    expect((await check('create', '  ')).errors.name?.message).toBe('Name is required.');
    expect((await check('clone', 'KYC')).errors.name?.message).toBe(
      'A form named KYC already exists.',
    );
    expect((await check('edit', 'Kyc')).errors).toEqual({});
    expect((await check('create', 'Other')).values).toMatchObject({ name: 'Other' });
  });
});
