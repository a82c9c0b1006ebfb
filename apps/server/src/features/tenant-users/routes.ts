import {
  tenantUserCreateSchema,
  tenantUserIdParamsSchema,
  tenantUserListSchema,
  tenantUsersApi,
  tenantUserSchema,
} from '@console/contracts';
import { z } from 'zod';
import type { ConsoleApp } from '../../http/console-app.ts';
import { currentUser } from '../../auth/index.ts';
import { errorResponses } from '../errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { listTenantUsers } from './queries.ts';
import { createTenantUser, deleteTenantUser } from './writes.ts';

/** Tenant users (spec part 1, section 7): staff read and write; tenant users are refused (403). */
export function registerTenantUserRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;
  const tags = ['tenant users'];

  app.get(
    tenantUsersApi.list.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: "List every tenant user with its tenant's company name, by id",
        response: { 200: tenantUserListSchema, ...errorResponses(401, 403) },
      },
    },
    async () => listTenantUsers(db),
  );

  app.post(
    tenantUsersApi.create.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary:
          'Register an email as a user of a tenant (stored lower-cased); 400 unknown tenant, 409 email already registered',
        body: tenantUserCreateSchema,
        response: { 201: tenantUserSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const created = await createTenantUser(db, currentUser(request), request.body);
      return reply.code(201).send(created);
    },
  );

  app.delete(
    tenantUsersApi.delete.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'Delete a tenant user: its next access token has no tenant role',
        params: tenantUserIdParamsSchema,
        response: {
          204: z.null().describe('Deleted'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      await deleteTenantUser(db, currentUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
