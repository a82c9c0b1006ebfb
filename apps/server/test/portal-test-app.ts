import { signInCallers, type Callers } from './callers.ts';
import { useSuiteFixture } from './suite-fixture.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import type { AppConfig } from '../src/config.ts';
import { seedDemoData, type SeedOptions } from '../src/db/seed/demo.ts';

/**
 * What the tests of tenants, tenant users, entities, entity users and events share: a server on
 * a fresh database with the demo data (Acme Corporation and Globex Limited, their portal users,
 * ~60 entities and ~113 entity users), and a token for each kind of caller.
 */

export const CALLER_EMAILS = {
  staff: 'staff@example.com',
  admin: 'admin@example.com',
  acme: 'portal@acme.example',
  globex: 'portal@globex.example',
  noRole: 'visitor@elsewhere.test',
} as const;

export type Caller = keyof typeof CALLER_EMAILS | 'anonymous';
export const CALLERS: readonly Caller[] = [
  'anonymous',
  'staff',
  'admin',
  'acme',
  'globex',
  'noRole',
];

export interface PortalTestApp extends Pick<
  Callers<keyof typeof CALLER_EMAILS>,
  'call' | 'refreshToken'
> {
  testApp: TestApp;
  /** Ids of the demo tenants. */
  acmeId: number;
  globexId: number;
  close(): Promise<void>;
}

/**
 * `overrides` replaces config values, e.g. `{ smtpUrl, eventPollIntervalMs: 50 }`; `seed` fixes
 * the moment the demo data is relative to (its events of "the last 30 days").
 */
export async function createPortalTestApp(
  overrides: Partial<AppConfig> = {},
  seed: SeedOptions = {},
): Promise<PortalTestApp> {
  const testApp = await createTestApp(overrides);
  const { db } = testApp.database;
  await seedDemoData(db, seed);
  const tenants = await db.selectFrom('tenants').select(['id', 'company_name']).execute();
  const idOf = (name: string) => {
    const tenant = tenants.find((row) => row.company_name === name);
    if (!tenant) throw new Error(`The demo seed has no tenant ${name}`);
    return tenant.id;
  };
  const callers = await signInCallers(testApp, CALLER_EMAILS);
  return {
    testApp,
    acmeId: idOf('Acme Corporation'),
    globexId: idOf('Globex Limited'),
    call: callers.call,
    refreshToken: callers.refreshToken,
    close: () => testApp.close(),
  };
}

/**
 * One PortalTestApp for the whole suite, made in beforeAll and closed in afterAll. Its members
 * read the app the hook made: use them inside hooks and tests only. `overrides` may be a function,
 * for values an earlier beforeAll makes (e.g. the port of an SMTP catcher).
 */
export function usePortalTestApp(
  overrides: Partial<AppConfig> | (() => Partial<AppConfig>) = {},
  seed: SeedOptions = {},
): PortalTestApp {
  const portal = useSuiteFixture(() =>
    createPortalTestApp(typeof overrides === 'function' ? overrides() : overrides, seed),
  );
  return {
    get testApp() {
      return portal().testApp;
    },
    get acmeId() {
      return portal().acmeId;
    },
    get globexId() {
      return portal().globexId;
    },
    call: (...args) => portal().call(...args),
    refreshToken: (caller) => portal().refreshToken(caller),
    close: () => portal().close(),
  };
}
