import {
  formFieldCreateSchema,
  formFieldIdParamsSchema,
  formFieldListSchema,
  formFieldSchema,
  formFieldsApi,
  formFieldUpdateSchema,
  wholeListExportQuerySchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { badRequest } from '../../http/errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { registerCatalogueReads } from '../used-names.ts';
import { formFieldsExport, listFormFields } from './queries.ts';
import { createFormField, deleteFormField, updateFormField } from './writes.ts';

/**
 * The field catalogue of the forms service (spec part 2, section 7, "Form fields"): staff read
 * and write (admins are staff); only an admin renames a valid storage name (writes.ts).
 */
export function registerFormFieldRoutes(
  app: ConsoleApp,
  { database, referenceCache }: FeatureDependencies,
) {
  const { db } = database;
  const routes = featureRoutes(app, { tags: ['form fields'], allow: ['staff'] });

  registerCatalogueReads(routes, referenceCache, {
    table: 'form_fields',
    owner: 'a form field',
    variant: 'form-fields',
    list: {
      api: formFieldsApi.list,
      summary: 'List every field of the catalogue, by id',
      response: formFieldListSchema,
      read: listFormFields,
    },
    usedTags: formFieldsApi.usedTags,
    usedApiServiceNames: formFieldsApi.usedApiServiceNames,
  });

  routes.export(formFieldsApi.export, {
    summary: 'Every field of the catalogue as a CSV or xlsx file',
    querystring: wholeListExportQuerySchema,
    handle: ({ query }) => formFieldsExport(db, query.format),
  });

  routes.create(formFieldsApi.create, {
    summary: 'Create a field (no id: a clone drops it); 409 when the storage name is taken',
    body: formFieldCreateSchema,
    response: formFieldSchema,
    errors: [409],
    handle: ({ user, body: { id: _none, ...field } }) => createFormField(db, user, field),
  });

  routes.answer(formFieldsApi.update, {
    summary:
      'Replace a field; a valid storage name changes only for an admin (403); 409 when taken',
    params: formFieldIdParamsSchema,
    body: formFieldUpdateSchema,
    response: formFieldSchema,
    errors: [404, 409],
    handle: ({ user, params: { id }, body: { id: bodyId, ...field } }) => {
      if (bodyId !== undefined && bodyId !== id) {
        throw badRequest(`The id cannot be changed: the body names ${bodyId}, the URL ${id}`);
      }
      return updateFormField(db, user, id, field);
    },
  });

  routes.delete(formFieldsApi.delete, {
    summary: 'Delete a field; forms that list it keep its id (a missing reference)',
    params: formFieldIdParamsSchema,
    errors: [404],
    handle: ({ user, params }) => deleteFormField(db, user, params.id),
  });
}
