import type { DestinationStream } from 'pino';
import { buildApp } from '../src/app.ts';
import type { AppDependencies, ConsoleApp } from '../src/http/console-app.ts';
import {
  AccessTokens,
  resolveRoles,
  SigningKeyStore,
  type AuthenticatedUser,
} from '../src/auth/index.ts';
import { displayNameFor } from '../src/auth/demo-accounts.ts';
import { loadConfig, type AppConfig } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/connection.ts';
import { ReferenceCache } from '../src/http/reference-cache.ts';
import { freePort } from '../src/net/free-port.ts';
import { createTestDatabase } from './test-database.ts';

export interface TestApp {
  /** The whole server, listening on 127.0.0.1 at `config.publicUrl` (use `app.inject` or fetch). */
  app: ConsoleApp;
  /** A fresh, fully migrated database of its own (test/test-database.ts). */
  database: DatabaseHandle;
  config: AppConfig;
  /**
   * The app's cached reference lists. A test that writes them straight into the database calls
   * `expireAll()`, as the app does after a write it answers; otherwise the app may still answer
   * the list before the write until the write's notification arrives (one second at most).
   */
  referenceCache: ReferenceCache;
  /**
   * An access token for `email`, with the roles the server would give it now: admin@example.com
   * (admin, staff), any @example.com address (staff), a tenant_users row (tenant). An address
   * with no role gets a token with `roles: []`, which every route refuses with 403. `claims`
   * overrides what the token says (e.g. `{ roles: ['tenant'], tenantId: 1 }`).
   */
  tokenFor(email: string, claims?: Partial<AuthenticatedUser>): Promise<string>;
  /** Stops the server and drops the database (unless it was passed in). */
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Share a database with another test app (it is then not closed by close()). */
  database?: DatabaseHandle;
  /** Adds routes before the server starts, e.g. a test route with `config: { allow: ['staff'] }`. */
  routes?: (app: ConsoleApp) => void;
  /** Receives the log lines (set `logLevel` in the overrides to see them). */
  logStream?: DestinationStream;
  /** Other migrations or scripts than the build's (AppDependencies.maintenance). */
  maintenance?: AppDependencies['maintenance'];
}

/**
 * A server for endpoint tests, with the embedded identity provider. Example:
 *
 *   const testApp = await createTestApp();
 *   const token = await testApp.tokenFor('staff@example.com');
 *   const response = await testApp.app.inject({
 *     method: 'GET', url: '/api/countries', headers: { authorization: `Bearer ${token}` },
 *   });
 *   await testApp.close();
 *
 * `overrides` replaces config values, e.g. `{ signInRateLimitPerMinute: 2 }`. Logs are silent
 * unless TEST_LOG_LEVEL is set.
 */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const ownsDatabase = options.database === undefined;
  const database = options.database ?? (await createTestDatabase());
  try {
    const referenceCache = new ReferenceCache(database.db);
    const { app, config } = await listenOnFreePort(database, overrides, {
      ...options,
      referenceCache,
    });
    const accessTokens = new AccessTokens(new SigningKeyStore(database.db, config), config);
    return {
      app,
      database,
      config,
      referenceCache,
      async tokenFor(email, claims = {}) {
        const address = email.toLowerCase();
        const { roles, tenantId } = await resolveRoles(database.db, config, address);
        return accessTokens.mint({
          subject: address,
          email: address,
          name: displayNameFor(address),
          roles,
          ...(tenantId === undefined ? {} : { tenantId }),
          ...claims,
        });
      },
      async close() {
        await app.close();
        if (ownsDatabase) await database.close();
      },
    };
  } catch (error) {
    if (ownsDatabase) await database.close();
    throw error;
  }
}

/** PUBLIC_URL must name the port before the app is built: pick a free one, then listen on it. */
async function listenOnFreePort(
  database: DatabaseHandle,
  overrides: Partial<AppConfig>,
  {
    routes,
    logStream,
    maintenance,
    referenceCache,
  }: TestAppOptions & Pick<AppDependencies, 'referenceCache'>,
): Promise<{ app: ConsoleApp; config: AppConfig }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const config: AppConfig = {
      ...loadConfig({
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      }),
      ...overrides,
    };
    const app = await buildApp({
      config,
      database,
      ...(logStream ? { logStream } : {}),
      ...(maintenance ? { maintenance } : {}),
      ...(referenceCache ? { referenceCache } : {}),
    });
    try {
      routes?.(app);
      await app.listen({ host: '127.0.0.1', port });
      return { app, config };
    } catch (error) {
      await app.close();
      // Another process took the port between picking and listening: try another one.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 3) throw error;
    }
  }
}
