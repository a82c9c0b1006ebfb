/** Form fields for the screen's tests, and the calls the dialog makes when it opens. */
import type { FormField } from '@console/contracts';

let nextId = 100;

/** A field of the catalogue: a Text field named after its display name, unless overridden. */
export function aField(overrides: Partial<FormField> & Pick<FormField, 'name'>): FormField {
  return {
    id: nextId++,
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
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export const FIELDS_PATH = '/svc/formauthoring/allfields';
export const CREATE_PATH = '/svc/formauthoring/fields';
export const fieldPath = (field: Pick<FormField, 'id'>) => `/svc/formauthoring/fields/${field.id}`;

/** The catalogue and the used names, as the dialog loads them. */
export function fieldRoutes(fields: readonly FormField[]) {
  return {
    [`GET ${FIELDS_PATH}`]: fields,
    'GET /svc/formauthoring/used-tags': ['identity', 'kyc'],
    'GET /svc/formauthoring/used-api-service-names': ['onfido'],
  };
}

/** A server that answers a write with the field it was sent (stamped and given an id). */
export const savedField = (call: { body: unknown }) =>
  ({ ...aField({ name: 'Saved' }), ...(call.body as Partial<FormField>) }) as FormField;
