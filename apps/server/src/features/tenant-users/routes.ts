import {
  tenantUserCreateSchema,
  tenantUserIdParamsSchema,
  tenantUserListSchema,
  tenantUsersApi,
  tenantUserSchema,
  wholeListExportQuerySchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { listTenantUsers, tenantUsersExport } from './queries.ts';
import { createTenantUser, deleteTenantUser } from './writes.ts';

/** Tenant users (spec part 1, section 7): staff read and write; tenant users are refused (403). */
export function registerTenantUserRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;
  const routes = featureRoutes(app, { tags: ['tenant users'], allow: ['staff'] });

  routes.answer(tenantUsersApi.list, {
    summary: "List every tenant user with its tenant's company name, by id",
    response: tenantUserListSchema,
    handle: () => listTenantUsers(db),
  });

  routes.export(tenantUsersApi.export, {
    summary: 'Every tenant user as a CSV or xlsx file',
    querystring: wholeListExportQuerySchema,
    handle: ({ query }) => tenantUsersExport(db, query.format),
  });

  routes.create(tenantUsersApi.create, {
    summary:
      'Register an email as a user of a tenant (stored lower-cased); 400 unknown tenant, 409 email already registered',
    body: tenantUserCreateSchema,
    response: tenantUserSchema,
    errors: [409],
    handle: ({ user, body }) => createTenantUser(db, user, body),
  });

  routes.delete(tenantUsersApi.delete, {
    summary: 'Delete a tenant user: its next access token has no tenant role',
    params: tenantUserIdParamsSchema,
    errors: [404],
    handle: ({ user, params }) => deleteTenantUser(db, user, params.id),
  });
}
