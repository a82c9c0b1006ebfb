import fastifyRateLimit from '@fastify/rate-limit';
import type { ConsoleApp } from '../http/console-app.ts';
import type { AppConfig } from '../config.ts';
import type { DatabaseHandle } from '../db/connection.ts';
import { AccessTokens } from './access-token.ts';
import { mountEmbeddedIdentityProvider, EMBEDDED_SCOPES } from './embedded-provider.ts';
import { registerGuard } from './guard.ts';
import { deleteExpiredRateLimitCounters, postgresRateLimitStore } from './rate-limit-store.ts';
import { RelyingParty, type RelyingPartySettings } from './relying-party.ts';
import { registerAuthRoutes } from './routes.ts';
import { Sessions } from './sessions.ts';
import { deleteRetiredSigningKeys, SigningKeyStore } from './signing-keys.ts';

export type { AuthenticatedUser } from './access-token.ts';
export { AccessTokens, InvalidAccessTokenError } from './access-token.ts';
export { anyRole, bearerToken, currentUser } from './guard.ts';
export { holdsRole, resolveRoles, ROLES, type Role } from './roles.ts';
export { SESSION_COOKIE } from './sessions.ts';
export { rotateSigningKey, SigningKeyStore } from './signing-keys.ts';

export interface AuthDependencies {
  config: AppConfig;
  database: DatabaseHandle;
}

/**
 * Expired sessions, abandoned sign-in attempts, ended rate-limit windows and signing keys that no
 * longer verify are deleted this often.
 */
const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Sign-in and access control: the guard of /api and /svc, the session routes, the OIDC relying
 * party, and the embedded identity provider when no issuer is configured. Call it before any
 * route is registered: the guard and the rate limiter see only routes added after them.
 */
export async function registerAuth(app: ConsoleApp, deps: AuthDependencies): Promise<void> {
  const { config, database } = deps;
  const accessTokens = new AccessTokens(new SigningKeyStore(database.db, config), config);
  const sessions = new Sessions(database.db, config);

  // Counted in PostgreSQL, so that a limit holds across every instance.
  await app.register(fastifyRateLimit, {
    global: false,
    store: postgresRateLimitStore(database.db),
  });
  registerGuard(app, accessTokens);
  const relyingParty = new RelyingParty(database.db, await relyingPartySettings(app, config));
  registerAuthRoutes(app, { config, db: database.db, sessions, accessTokens, relyingParty });
  scheduleCleanup(app, async () => {
    await sessions.deleteExpired();
    await relyingParty.deleteExpiredAttempts();
    await deleteExpiredRateLimitCounters(database.db);
    await deleteRetiredSigningKeys(database.db, config);
  });
}

async function relyingPartySettings(
  app: ConsoleApp,
  config: AppConfig,
): Promise<RelyingPartySettings> {
  const redirectUri = `${config.publicUrl}/auth/callback`;
  const postLogoutRedirectUri = `${config.publicUrl}/login`;
  if (config.oidc.kind === 'external') {
    const { issuer, clientId, clientSecret, scopes, prompt, allowedTenantIds } = config.oidc;
    return {
      issuer,
      clientId,
      clientSecret,
      scopes,
      redirectUri,
      postLogoutRedirectUri,
      ...(prompt ? { authorizationParams: { prompt } } : {}),
      allowedTenantIds,
      // config.ts admits http only for a provider on this machine.
      allowHttp: issuer.startsWith('http://'),
    };
  }
  const embedded = await mountEmbeddedIdentityProvider(app, {
    config,
    rateLimitPerMinute: config.signInRateLimitPerMinute,
  });
  return {
    issuer: embedded.issuer,
    clientId: embedded.clientId,
    clientSecret: embedded.clientSecret,
    scopes: EMBEDDED_SCOPES,
    redirectUri,
    postLogoutRedirectUri,
    // Always show the account page, so that after signing out one can pick another account.
    authorizationParams: { prompt: 'login' },
    allowHttp: embedded.issuer.startsWith('http://'),
    fetch: embedded.fetch,
  };
}

/** Periodic cleanup that never keeps the process alive and stops when the app closes. */
function scheduleCleanup(app: ConsoleApp, cleanup: () => Promise<void>): void {
  const timer = setInterval(() => {
    cleanup().catch((error: unknown) => {
      app.log.warn(
        { err: error },
        'Cleanup of expired sessions, sign-in attempts, rate-limit counters or signing keys failed',
      );
    });
  }, CLEANUP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
