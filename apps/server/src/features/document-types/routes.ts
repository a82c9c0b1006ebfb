import {
  documentTypeChoiceListSchema,
  documentTypeCreateSchema,
  documentTypeIdParamsSchema,
  documentTypeImportSchema,
  documentTypeListSchema,
  documentTypesApi,
  documentTypeSchema,
  documentTypeUpdateSchema,
  importResultSchema,
  wholeListExportQuerySchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { badRequest } from '../../http/errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { registerCatalogueReads } from '../used-names.ts';
import { documentTypesExport, listDocumentTypeChoices, listDocumentTypes } from './queries.ts';
import {
  createDocumentType,
  deleteDocumentType,
  importDocumentTypes,
  updateDocumentType,
} from './writes.ts';

/**
 * Document types (spec part 1, section 7): reads, create, update and import for staff (tenant
 * users get the list as the choices of their profile forms), delete for admins.
 */
export function registerDocumentTypeRoutes(
  app: ConsoleApp,
  { database, referenceCache }: FeatureDependencies,
) {
  const { db } = database;
  const routes = featureRoutes(app, { tags: ['document types'], allow: ['staff'] });

  registerCatalogueReads(routes, referenceCache, {
    table: 'document_types',
    owner: 'a document type',
    variant: 'document-types',
    list: {
      api: documentTypesApi.list,
      summary:
        'List every document type, by sequence then ID: the records to staff, the choices (id, displayName) to tenant users',
      response: documentTypeListSchema,
      read: listDocumentTypes,
      // The DocumentType fields of tenant users' entity profile forms choose from these.
      choices: {
        response: documentTypeChoiceListSchema,
        variant: 'document-type-choices',
        read: listDocumentTypeChoices,
      },
    },
    usedTags: documentTypesApi.usedTags,
    usedApiServiceNames: documentTypesApi.usedApiServiceNames,
  });

  // Staff only: tenant users read the list as their forms' choices, not as the screen's records.
  routes.export(documentTypesApi.export, {
    summary: 'Every document type as a CSV or xlsx file (staff)',
    querystring: wholeListExportQuerySchema,
    handle: ({ query }) => documentTypesExport(db, query.format),
  });

  routes.create(documentTypesApi.create, {
    summary: 'Create a document type; 409 when the ID is taken',
    body: documentTypeCreateSchema,
    response: documentTypeSchema,
    errors: [409],
    handle: ({ user, body }) => createDocumentType(db, user, body),
  });

  routes.answer(documentTypesApi.update, {
    summary: 'Update a document type (every field but the ID)',
    params: documentTypeIdParamsSchema,
    body: documentTypeUpdateSchema,
    response: documentTypeSchema,
    errors: [404],
    handle: async ({ user, params: { id }, body }) => {
      if (body.id !== undefined && body.id !== id) {
        throw badRequest(`The ID cannot be changed: the body names ${body.id}, the URL ${id}`);
      }
      return updateDocumentType(db, user, id, body);
    },
  });

  routes.delete(documentTypesApi.delete, {
    summary: 'Delete a document type (admins); 409 while in use',
    allow: ['admin'],
    params: documentTypeIdParamsSchema,
    errors: [404, 409],
    handle: ({ user, params }) => deleteDocumentType(db, user, params.id),
  });

  routes.answer(documentTypesApi.import, {
    summary: 'Add or replace document types by ID, all or nothing; count = records written',
    body: documentTypeImportSchema,
    response: importResultSchema,
    errors: [413],
    handle: ({ user, body }) => importDocumentTypes(db, user, body),
  });
}
