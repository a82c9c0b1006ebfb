import {
  documentTypeCreateSchema,
  documentTypeIdParamsSchema,
  documentTypeImportSchema,
  documentTypeListSchema,
  documentTypesApi,
  documentTypeSchema,
  documentTypeUpdateSchema,
  importResultSchema,
  usedNamesSchema,
} from '@console/contracts';
import { z } from 'zod';
import type { ConsoleApp } from '../../http/console-app.ts';
import { currentUser } from '../../auth/index.ts';
import { badRequest } from '../../http/errors.ts';
import { errorResponses } from '../errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { listDocumentTypes, usedApiServiceNames, usedTags } from './queries.ts';
import {
  createDocumentType,
  deleteDocumentType,
  importDocumentTypes,
  updateDocumentType,
} from './writes.ts';

/**
 * Document types (spec part 1, section 7): reads, create, update and import for staff, delete for
 * admins.
 */
export function registerDocumentTypeRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;
  const tags = ['document types'];

  app.get(
    documentTypesApi.list.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'List every document type, by sequence then ID',
        response: { 200: documentTypeListSchema, ...errorResponses(401, 403) },
      },
    },
    async () => listDocumentTypes(db),
  );

  app.get(
    documentTypesApi.usedTags.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'Every tag in use by a document type, once, sorted',
        response: { 200: usedNamesSchema, ...errorResponses(401, 403) },
      },
    },
    async () => usedTags(db),
  );

  app.get(
    documentTypesApi.usedApiServiceNames.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'Every API reference service name in use by a document type, once, sorted',
        response: { 200: usedNamesSchema, ...errorResponses(401, 403) },
      },
    },
    async () => usedApiServiceNames(db),
  );

  app.post(
    documentTypesApi.create.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'Create a document type; 409 when the ID is taken',
        body: documentTypeCreateSchema,
        response: { 201: documentTypeSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const created = await createDocumentType(db, currentUser(request), request.body);
      return reply.code(201).send(created);
    },
  );

  app.put(
    documentTypesApi.update.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'Update a document type (every field but the ID)',
        params: documentTypeIdParamsSchema,
        body: documentTypeUpdateSchema,
        response: { 200: documentTypeSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (request.body.id !== undefined && request.body.id !== id) {
        throw badRequest(
          `The ID cannot be changed: the body names ${request.body.id}, the URL ${id}`,
        );
      }
      return updateDocumentType(db, currentUser(request), id, request.body);
    },
  );

  app.delete(
    documentTypesApi.delete.path,
    {
      config: { allow: ['admin'] },
      schema: {
        tags,
        summary: 'Delete a document type (admins); 409 while in use',
        params: documentTypeIdParamsSchema,
        response: {
          204: z.null().describe('Deleted'),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      await deleteDocumentType(db, currentUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    documentTypesApi.import.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'Add or replace document types by ID, all or nothing; count = records written',
        body: documentTypeImportSchema,
        response: { 200: importResultSchema, ...errorResponses(400, 401, 403, 413) },
      },
    },
    async (request) => importDocumentTypes(db, currentUser(request), request.body),
  );
}
