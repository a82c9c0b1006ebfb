import {
  tenantIdParamsSchema,
  tenantListSchema,
  tenantsApi,
  tenantSchema,
  tenantWriteSchema,
  wholeListExportQuerySchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { listTenants, tenantsExport } from './queries.ts';
import { createTenant, deleteTenant, updateTenant } from './writes.ts';

/** Tenants (spec part 1, section 7): staff read and write; tenant users are refused (403). */
export function registerTenantRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;
  const routes = featureRoutes(app, { tags: ['tenants'], allow: ['staff'] });

  routes.answer(tenantsApi.list, {
    summary: 'List every tenant with its country name and namespaces, by id',
    response: tenantListSchema,
    handle: () => listTenants(db),
  });

  routes.export(tenantsApi.export, {
    summary: 'Every tenant as a CSV or xlsx file',
    querystring: wholeListExportQuerySchema,
    handle: ({ query }) => tenantsExport(db, query.format),
  });

  routes.create(tenantsApi.create, {
    summary:
      'Create a tenant; without namespaces one is generated from the company name. 400 unknown country, 409 namespace taken',
    body: tenantWriteSchema,
    response: tenantSchema,
    errors: [409],
    handle: ({ user, body }) => createTenant(db, user, body),
  });

  routes.answer(tenantsApi.update, {
    summary:
      'Update a tenant; without namespaces it keeps its own. 400 unknown country, 404 unknown tenant, 409 namespace taken',
    params: tenantIdParamsSchema,
    body: tenantWriteSchema,
    response: tenantSchema,
    errors: [404, 409],
    handle: ({ user, params, body }) => updateTenant(db, user, params.id, body),
  });

  routes.delete(tenantsApi.delete, {
    summary: 'Delete a tenant and its namespaces; 409 while it has users or entities',
    params: tenantIdParamsSchema,
    errors: [404, 409],
    handle: ({ user, params }) => deleteTenant(db, user, params.id),
  });
}
