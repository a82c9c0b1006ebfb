import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDependencies, ConsoleApp } from '../http/console-app.ts';
import { ReferenceCache } from '../http/reference-cache.ts';
import { invalidRequestHandler } from './errors.ts';
import { registerCountryRoutes } from './countries/routes.ts';
import { registerDocumentTypeRoutes } from './document-types/routes.ts';
import { registerFormFieldRoutes } from './form-fields/routes.ts';
import { registerFormRoutes } from './forms/routes.ts';
import { registerFormUsageRoutes } from './form-usage/routes.ts';
import { registerTenantRoutes } from './tenants/routes.ts';
import { registerTenantUserRoutes } from './tenant-users/routes.ts';
import { registerEntityRoutes } from './entities/routes.ts';
import { registerEntityUserRoutes } from './entity-users/routes.ts';
import { registerEventRoutes } from './events/routes.ts';
import { registerMigrationRoutes } from './migrations/routes.ts';
import { registerDatabaseScriptRoutes } from './database-scripts/routes.ts';
import { registerRatingsImportRoutes } from './ratings-import/routes.ts';
import { registerEmailTemplateRoutes } from './email-templates/routes.ts';
import { registerOverviewRoutes } from './overview/routes.ts';
import { registerAuditRoutes } from './audit/routes.ts';

export interface FeatureDependencies extends AppDependencies {
  /** The cached reference lists (countries, document types, forms, form fields) of this instance. */
  referenceCache: ReferenceCache;
}

/**
 * The /api and /svc routes of every feature. Call it after registerAuth: the guard applies to
 * routes registered after it. The features share one error handler for invalid requests (below);
 * every other error goes on to the app's handler.
 */
export async function registerFeatures(app: ConsoleApp, appDeps: AppDependencies): Promise<void> {
  const referenceCache = appDeps.referenceCache ?? new ReferenceCache(appDeps.database.db);
  const deps: FeatureDependencies = { ...appDeps, referenceCache };
  app.addHook('onReady', async () => {
    referenceCache.listen(appDeps.database.connectionString, app.log);
  });
  app.addHook('onClose', async () => referenceCache.close());
  await app.register(async (scope) => {
    const features = scope.withTypeProvider<ZodTypeProvider>();
    features.setErrorHandler(invalidRequestHandler);
    // A write answered here is committed before its answer leaves: this instance's next read of a
    // reference list checks the version again instead of waiting for the notification.
    features.addHook('onSend', async (request) => {
      if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method)) referenceCache.expireAll();
    });
    registerCountryRoutes(features, deps);
    registerDocumentTypeRoutes(features, deps);
    registerFormFieldRoutes(features, deps);
    registerFormRoutes(features, deps);
    registerFormUsageRoutes(features, deps);
    registerTenantRoutes(features, deps);
    registerTenantUserRoutes(features, deps);
    registerEntityRoutes(features, deps);
    registerEntityUserRoutes(features, deps);
    registerEventRoutes(features, deps);
    registerMigrationRoutes(features, deps);
    registerDatabaseScriptRoutes(features, deps);
    registerRatingsImportRoutes(features, deps);
    registerEmailTemplateRoutes(features, deps);
    registerOverviewRoutes(features, deps);
    registerAuditRoutes(features, deps);
  });
}
