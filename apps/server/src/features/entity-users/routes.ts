import {
  entityUserExportQuerySchema,
  entityUserKeyParamsSchema,
  entityUserListQuerySchema,
  entityUserPageSchema,
  entityUsersApi,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { readableTenant } from '../../http/tenant-scope.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { entityUsersExport, listEntityUsers } from './queries.ts';
import { deleteEntityUserKey } from './writes.ts';

/**
 * Entity users of the tenant portal (spec part 1, section 7): staff read every tenant's, a tenant
 * user only its own tenant's; only admins delete keys (spec 6).
 */
export function registerEntityUserRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;
  const routes = featureRoutes(app, { tags: ['entity users'], allow: ['staff', 'tenant'] });

  routes.answerJsonText(entityUsersApi.list, {
    summary:
      "One page of entity users by partyUserId, with their keys: staff see every tenant's (or tenantId's), a tenant user its own tenant's",
    querystring: entityUserListQuerySchema,
    response: entityUserPageSchema,
    errors: [404],
    handle: ({ user, query }) => listEntityUsers(db, readableTenant(user, query.tenantId), query),
  });

  routes.export(entityUsersApi.export, {
    summary:
      "Every entity user as a CSV or xlsx file, by partyUserId: staff every tenant's (or tenantId's), a tenant user its own tenant's",
    querystring: entityUserExportQuerySchema,
    errors: [404],
    handle: ({ user, query }) => entityUsersExport(db, readableTenant(user, query.tenantId), query),
  });

  const deleteKey = {
    summary:
      'Delete one key of an entity user (admins); the key name is URL-encoded. 404 "Key no longer exists"',
    allow: ['admin'],
    params: entityUserKeyParamsSchema,
    errors: [404],
  } as const;

  routes.delete(entityUsersApi.deleteKey, {
    ...deleteKey,
    handle: ({ user, params }) => deleteEntityUserKey(db, user, params.userId, params.keyName),
  });

  // Without a key name the path ends at /keys (or /keys/): the params schema answers 400 with the
  // spec's message instead of the router's 404.
  routes.delete(entityUsersApi.deleteKeys, {
    ...deleteKey,
    hide: true,
    handle: async () => {
      throw new Error('Unreachable: the params schema refuses a missing key name');
    },
  });
}
