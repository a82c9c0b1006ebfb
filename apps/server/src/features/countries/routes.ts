import {
  countriesApi,
  countryChoiceListSchema,
  countryIdParamsSchema,
  countryImportSchema,
  countryListSchema,
  importResultSchema,
  wholeListExportQuerySchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { countriesExport, listCountries, listCountryChoices } from './queries.ts';
import { deleteCountry, importCountries } from './writes.ts';

/**
 * Countries (spec part 1, section 7): list for staff (tenant users get the choices of their
 * profile forms), import for staff, delete for admins.
 */
export function registerCountryRoutes(
  app: ConsoleApp,
  { database, referenceCache }: FeatureDependencies,
) {
  const { db } = database;
  const routes = featureRoutes(app, { tags: ['countries'], allow: ['staff'] });

  routes.cachedList(countriesApi.list, {
    summary:
      'List every country, by sequence then ISO numeric code: the records to staff, the choices (id, countryName) to tenant users',
    response: countryListSchema,
    cache: referenceCache,
    list: 'countries',
    variant: 'countries',
    read: listCountries,
    // The Country fields of tenant users' entity profile forms choose from these.
    choices: {
      response: countryChoiceListSchema,
      variant: 'country-choices',
      read: listCountryChoices,
    },
  });

  // Staff only: tenant users read the list as their forms' choices, not as the screen's records.
  routes.export(countriesApi.export, {
    summary: 'Every country as a CSV or xlsx file (staff)',
    querystring: wholeListExportQuerySchema,
    handle: ({ query }) => countriesExport(db, query.format),
  });

  routes.delete(countriesApi.delete, {
    summary: 'Delete a country (admins); 409 while a tenant is domiciled there',
    allow: ['admin'],
    params: countryIdParamsSchema,
    errors: [404, 409],
    handle: ({ user, params }) => deleteCountry(db, user, params.id),
  });

  routes.answer(countriesApi.import, {
    summary: 'Add or update countries by id, all or nothing; count = records written',
    body: countryImportSchema,
    response: importResultSchema,
    errors: [409, 413],
    handle: ({ user, body }) => importCountries(db, user, body),
  });
}
