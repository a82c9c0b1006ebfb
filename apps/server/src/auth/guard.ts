import type { FastifyRequest } from 'fastify';
import type { ConsoleApp } from '../http/console-app.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import {
  InvalidAccessTokenError,
  type AccessTokens,
  type AuthenticatedUser,
} from './access-token.ts';
import { holdsRole, ROLES, type Role } from './roles.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The roles that may call this route; every /api and /svc route must declare it (deny by
     * default): `app.get('/api/countries', { config: { allow: ['staff'] } }, handler)`.
     * 'admin' implies 'staff'. Use `anyRole` for every signed-in user.
     */
    allow?: readonly Role[];
  }
  interface FastifyRequest {
    /** The verified caller of a guarded route (/api, /svc, or any route declaring `allow`). */
    user: AuthenticatedUser | null;
  }
}

/** `config: { allow: anyRole }`: any signed-in user with a role, whatever it is. */
export const anyRole: readonly Role[] = ROLES;

const GUARDED_PATH = /^\/(api|svc)(\/|\?|$)/i;

/** True for paths every request to which needs a bearer token. */
export function isGuardedPath(path: string): boolean {
  return GUARDED_PATH.test(path);
}

/** The verified caller; throws 401 when the route was not guarded (a programming error). */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/**
 * Authentication and authorization of /api and /svc: a valid bearer access token, then a role
 * among the route's `allow` list. A route without `allow` answers 403 (deny by default).
 * Must be registered before the routes it protects.
 */
export function registerGuard(app: ConsoleApp, accessTokens: AccessTokens): void {
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route) => {
    if (isGuardedPath(route.url) && route.config?.allow === undefined) {
      app.log.error(
        { route: `${String(route.method)} ${route.url}` },
        'Route declares no allowed roles (config.allow): every call to it will be refused with 403',
      );
    }
  });

  app.addHook('onRequest', async (request) => {
    const allow = request.routeOptions.config.allow;
    // The matched route's own URL counts too: the router decodes %-escapes the raw URL may carry.
    const guarded =
      allow !== undefined ||
      isGuardedPath(request.url) ||
      isGuardedPath(request.routeOptions.url ?? '');
    if (!guarded) return;

    request.user = await authenticate(request, accessTokens);
    // An unknown /api path stays a 404 for a signed-in caller.
    if (request.is404) return;
    if (allow === undefined) {
      request.log.error(
        { route: `${request.method} ${request.routeOptions.url}` },
        'Refused: route declares no allowed roles (config.allow)',
      );
      throw forbidden();
    }
    if (!allow.some((role) => holdsRole(request.user?.roles ?? [], role))) throw forbidden();
  });
}

/** The token of an `Authorization: Bearer <token>` header, or undefined for any other header. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
}

async function authenticate(
  request: FastifyRequest,
  accessTokens: AccessTokens,
): Promise<AuthenticatedUser> {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('Authentication required: send Authorization: Bearer <token>');
  const token = bearerToken(header);
  if (!token) throw unauthorized('The Authorization header must be Bearer <token>');
  try {
    return await accessTokens.verify(token);
  } catch (error) {
    if (error instanceof InvalidAccessTokenError) throw unauthorized(error.message);
    throw error;
  }
}
