import { entitiesApi, entityListQuerySchema, entityPageSchema } from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { currentUser } from '../../auth/index.ts';
import { errorResponses } from '../errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { listEntities } from './queries.ts';
import { readableTenant } from '../../http/tenant-scope.ts';

/**
 * Entities of the tenant portal (spec part 1, section 7): staff read every tenant's, a tenant user
 * only its own tenant's.
 */
export function registerEntityRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  app.get(
    entitiesApi.list.path,
    {
      config: { allow: ['staff', 'tenant'] },
      schema: {
        tags: ['entities'],
        summary:
          "One page of entities by partyEntityId: staff see every tenant's (or tenantId's), a tenant user its own tenant's",
        querystring: entityListQuerySchema,
        response: { 200: entityPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const tenantId = readableTenant(currentUser(request), request.query.tenantId);
      return listEntities(database.db, tenantId, request.query);
    },
  );
}
