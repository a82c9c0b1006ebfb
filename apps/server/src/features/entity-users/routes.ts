import {
  entityUserKeyParamsSchema,
  entityUserListQuerySchema,
  entityUserPageSchema,
  entityUsersApi,
} from '@console/contracts';
import { z } from 'zod';
import type { ConsoleApp } from '../../http/console-app.ts';
import { currentUser } from '../../auth/index.ts';
import { readableTenant } from '../../http/tenant-scope.ts';
import { errorResponses } from '../errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { listEntityUsers } from './queries.ts';
import { deleteEntityUserKey } from './writes.ts';

/**
 * Entity users of the tenant portal (spec part 1, section 7): staff read every tenant's, a tenant
 * user only its own tenant's; only admins delete keys (spec 6).
 */
export function registerEntityUserRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;
  const tags = ['entity users'];

  app.get(
    entityUsersApi.list.path,
    {
      config: { allow: ['staff', 'tenant'] },
      schema: {
        tags,
        summary:
          "One page of entity users by partyUserId, with their keys: staff see every tenant's (or tenantId's), a tenant user its own tenant's",
        querystring: entityUserListQuerySchema,
        response: { 200: entityUserPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const tenantId = readableTenant(currentUser(request), request.query.tenantId);
      return listEntityUsers(db, tenantId, request.query);
    },
  );

  const deleteKeySchema = {
    tags,
    summary:
      'Delete one key of an entity user (admins); the key name is URL-encoded. 404 "Key no longer exists"',
    params: entityUserKeyParamsSchema,
    response: { 204: z.null().describe('Deleted'), ...errorResponses(400, 401, 403, 404) },
  };

  app.delete(
    entityUsersApi.deleteKey.path,
    { config: { allow: ['admin'] }, schema: deleteKeySchema },
    async (request, reply) => {
      const { userId, keyName } = request.params;
      await deleteEntityUserKey(db, currentUser(request), userId, keyName);
      return reply.code(204).send(null);
    },
  );

  // Without a key name the path ends at /keys (or /keys/): the params schema answers 400 with the
  // spec's message instead of the router's 404.
  app.delete(
    entityUsersApi.deleteKeys.path,
    { config: { allow: ['admin'] }, schema: { ...deleteKeySchema, hide: true } },
    async () => {
      throw new Error('Unreachable: the params schema refuses a missing key name');
    },
  );
}
