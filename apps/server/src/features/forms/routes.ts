import {
  formDefinitionCreateSchema,
  formDefinitionSchema,
  formDefinitionUpdateSchema,
  formListSchema,
  formNameParamsSchema,
  formSavedSchema,
  formsApi,
  wholeListExportQuerySchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { findFormDefinition, formsExport, listForms } from './queries.ts';
import { createForm, deleteForm, formNotFound, updateForm } from './writes.ts';

/**
 * The form definitions of the forms service (spec part 2, section 7, "Forms service"): the list,
 * one definition, create, update and delete, for staff (admins are staff). The form's HTML, its
 * field groups and the test submission are features/form-usage's.
 *
 * The static paths (`list`, `allfields`, `used-tags`, `fields/...`) sit beside `{name}`: the
 * router matches a static segment before a parameter, and no form can take those names (the
 * form-name rule reserves them, in any letter case, and refuses '-').
 */
export function registerFormRoutes(
  app: ConsoleApp,
  { database, referenceCache }: FeatureDependencies,
) {
  const { db } = database;
  const routes = featureRoutes(app, { tags: ['forms'], allow: ['staff'] });

  routes.cachedList(formsApi.list, {
    summary: 'List the forms (id, name, createdAt, updatedAt), by name',
    response: formListSchema,
    cache: referenceCache,
    list: 'forms',
    variant: 'forms',
    read: listForms,
  });

  routes.export(formsApi.export, {
    summary: 'Every form as a CSV or xlsx file',
    querystring: wholeListExportQuerySchema,
    handle: ({ query }) => formsExport(db, query.format),
  });

  routes.answer(formsApi.definition, {
    summary: 'The definition of a form (name in any letter case), with the fields that exist',
    params: formNameParamsSchema,
    response: formDefinitionSchema,
    errors: [404],
    handle: async ({ params: { name } }) => {
      // The form and its fields in one snapshot.
      const definition = await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute((trx) => findFormDefinition(trx, { name }));
      if (!definition) throw formNotFound(name);
      return definition;
    },
  });

  routes.create(formsApi.create, {
    summary: 'Create a form (no id: a clone drops it); 409 when the name is taken',
    body: formDefinitionCreateSchema,
    response: formSavedSchema,
    errors: [409],
    handle: ({ user, body: { id: _none, ...definition } }) => createForm(db, user, definition),
  });

  routes.answer(formsApi.update, {
    summary: 'Replace the definition of a form; its name cannot change',
    params: formNameParamsSchema,
    body: formDefinitionUpdateSchema,
    response: formSavedSchema,
    errors: [404],
    handle: ({ user, params: { name }, body }) => updateForm(db, user, name, body),
  });

  routes.delete(formsApi.delete, {
    summary: 'Delete a form; its fields stay in the catalogue',
    params: formNameParamsSchema,
    errors: [404],
    handle: ({ user, params: { name } }) => deleteForm(db, user, name),
  });
}
