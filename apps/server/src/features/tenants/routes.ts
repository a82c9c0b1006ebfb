import {
  tenantIdParamsSchema,
  tenantListSchema,
  tenantsApi,
  tenantSchema,
  tenantWriteSchema,
} from '@console/contracts';
import { z } from 'zod';
import type { ConsoleApp } from '../../http/console-app.ts';
import { currentUser } from '../../auth/index.ts';
import { errorResponses } from '../errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { listTenants } from './queries.ts';
import { createTenant, deleteTenant, updateTenant } from './writes.ts';

/** Tenants (spec part 1, section 7): staff read and write; tenant users are refused (403). */
export function registerTenantRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;
  const tags = ['tenants'];

  app.get(
    tenantsApi.list.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'List every tenant with its country name and namespaces, by id',
        response: { 200: tenantListSchema, ...errorResponses(401, 403) },
      },
    },
    async () => listTenants(db),
  );

  app.post(
    tenantsApi.create.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary:
          'Create a tenant; without namespaces one is generated from the company name. 400 unknown country, 409 namespace taken',
        body: tenantWriteSchema,
        response: { 201: tenantSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const created = await createTenant(db, currentUser(request), request.body);
      return reply.code(201).send(created);
    },
  );

  app.put(
    tenantsApi.update.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary:
          'Update a tenant; without namespaces it keeps its own. 400 unknown country, 404 unknown tenant, 409 namespace taken',
        params: tenantIdParamsSchema,
        body: tenantWriteSchema,
        response: { 200: tenantSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateTenant(db, currentUser(request), request.params.id, request.body),
  );

  app.delete(
    tenantsApi.delete.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'Delete a tenant and its namespaces; 409 while it has users or entities',
        params: tenantIdParamsSchema,
        response: {
          204: z.null().describe('Deleted'),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      await deleteTenant(db, currentUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
