import {
  countriesApi,
  countryIdParamsSchema,
  countryImportSchema,
  countryListSchema,
  importResultSchema,
} from '@console/contracts';
import { z } from 'zod';
import type { ConsoleApp } from '../../http/console-app.ts';
import { currentUser } from '../../auth/index.ts';
import { errorResponses } from '../errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { listCountries } from './queries.ts';
import { deleteCountry, importCountries } from './writes.ts';

/** Countries (spec part 1, section 7): list for staff, import for staff, delete for admins. */
export function registerCountryRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;

  app.get(
    countriesApi.list.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags: ['countries'],
        summary: 'List every country, by sequence then ISO numeric code',
        response: { 200: countryListSchema, ...errorResponses(401, 403) },
      },
    },
    async () => listCountries(db),
  );

  app.delete(
    countriesApi.delete.path,
    {
      config: { allow: ['admin'] },
      schema: {
        tags: ['countries'],
        summary: 'Delete a country (admins); 409 while a tenant is domiciled there',
        params: countryIdParamsSchema,
        response: {
          204: z.null().describe('Deleted'),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      await deleteCountry(db, currentUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    countriesApi.import.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags: ['countries'],
        summary: 'Add or update countries by id, all or nothing; count = records written',
        body: countryImportSchema,
        response: { 200: importResultSchema, ...errorResponses(400, 401, 403, 409, 413) },
      },
    },
    async (request) => importCountries(db, currentUser(request), request.body),
  );
}
