/** Form fields for the screen's tests, and the calls the dialog makes when it opens. */
import type { FormField } from '@console/contracts';
import { aFormField } from '@console/contracts/testing';

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
  ({ ...aFormField({ name: 'Saved' }), ...(call.body as Partial<FormField>) }) as FormField;
