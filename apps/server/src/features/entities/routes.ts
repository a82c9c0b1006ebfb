import {
  entitiesApi,
  entityExportQuerySchema,
  entityListQuerySchema,
  entityPageSchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { readableTenant } from '../../http/tenant-scope.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { entitiesExport, listEntities } from './queries.ts';

/**
 * Entities of the tenant portal (spec part 1, section 7): staff read every tenant's, a tenant user
 * only its own tenant's.
 */
export function registerEntityRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const routes = featureRoutes(app, { tags: ['entities'], allow: ['staff', 'tenant'] });

  routes.answerJsonText(entitiesApi.list, {
    summary:
      "One page of entities by partyEntityId: staff see every tenant's (or tenantId's), a tenant user its own tenant's",
    querystring: entityListQuerySchema,
    response: entityPageSchema,
    errors: [404],
    handle: ({ user, query }) =>
      listEntities(database.db, readableTenant(user, query.tenantId), query),
  });

  routes.export(entitiesApi.export, {
    summary:
      "Every entity as a CSV or xlsx file, by partyEntityId: staff every tenant's (or tenantId's), a tenant user its own tenant's",
    querystring: entityExportQuerySchema,
    errors: [404],
    handle: ({ user, query }) =>
      entitiesExport(database.db, readableTenant(user, query.tenantId), query),
  });
}
