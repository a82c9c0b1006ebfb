/**
 * Test support that the contracts, server and web tests share (imported as
 * '@console/contracts/testing', never by product code: index.ts does not export it).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { FormField } from './form-fields.ts';

/**
 * Property check of a list normaliser (tags, namespaces): on any list of up to `maxLength`-grapheme
 * strings it is idempotent and yields each item once, none empty, each trimmed, and each passing
 * `checkItem` (what the normaliser adds, such as lower case).
 */
export function expectNormalizesLists(
  normalize: (items: string[]) => string[],
  maxLength: number,
  checkItem: (item: string) => void = () => {},
): void {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength })), (items) => {
      const normalized = normalize(items);
      expect(normalize(normalized)).toEqual(normalized);
      expect(new Set(normalized).size).toBe(normalized.length);
      for (const item of normalized) {
        expect(item).not.toBe('');
        expect(item).toBe(item.trim());
        checkItem(item);
      }
    }),
  );
}

let nextFormFieldId = 1;

/**
 * A field of the catalogue as the forms service answers it: a Text field in the General group,
 * labelled by its storage name, every other property empty, unless `overrides` says otherwise.
 */
export function aFormField(overrides: Partial<FormField> & Pick<FormField, 'name'>): FormField {
  return {
    id: nextFormFieldId++,
    displayName: overrides.name,
    type: 'Text',
    section: null,
    order: null,
    note: null,
    required: false,
    validationErrorMessage: null,
    maxLength: null,
    pattern: null,
    printLabel: null,
    requireFields: [],
    options: [],
    aliasFor: null,
    print: false,
    printSequence: null,
    viewPermissions: [],
    editPermissions: [],
    uiGroup: 'General',
    apiReferences: {},
    tags: [],
    conditionalRequirements: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
