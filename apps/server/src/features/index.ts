import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDependencies, ConsoleApp } from '../http/console-app.ts';
import { invalidRequestHandler } from './errors.ts';
import { registerCountryRoutes } from './countries/routes.ts';
import { registerDocumentTypeRoutes } from './document-types/routes.ts';
import { registerFormRoutes } from './forms/routes.ts';
import { registerTenantRoutes } from './tenants/routes.ts';
import { registerTenantUserRoutes } from './tenant-users/routes.ts';
import { registerEntityRoutes } from './entities/routes.ts';
import { registerEntityUserRoutes } from './entity-users/routes.ts';
import { registerEventRoutes } from './events/routes.ts';

export type FeatureDependencies = AppDependencies;

/**
 * The /api and /svc routes of every feature. Call it after registerAuth: the guard applies to
 * routes registered after it. The features share one error handler for invalid requests (below);
 * every other error goes on to the app's handler.
 */
export async function registerFeatures(app: ConsoleApp, deps: FeatureDependencies): Promise<void> {
  await app.register(async (scope) => {
    const features = scope.withTypeProvider<ZodTypeProvider>();
    features.setErrorHandler(invalidRequestHandler);
    registerCountryRoutes(features, deps);
    registerDocumentTypeRoutes(features, deps);
    registerFormRoutes(features, deps);
    registerTenantRoutes(features, deps);
    registerTenantUserRoutes(features, deps);
    registerEntityRoutes(features, deps);
    registerEntityUserRoutes(features, deps);
    registerEventRoutes(features, deps);
  });
}
