import type { Kysely } from 'kysely';
import type { AppConfig } from '../src/config.ts';
import type { Database } from '../src/db/schema.ts';
import { signInCallers, stamp, type Callers } from './callers.ts';
import { useSuiteFixture } from './suite-fixture.ts';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.ts';

/**
 * What the tests of the reference data (countries, document types, forms) share: a server on a
 * fresh database with one country, the tenant user of a tenant domiciled in it, and a token for
 * staff, an admin, that tenant user and a caller with no role.
 */

/** The callers of the reference-data suites: staff, an admin, a tenant user and a stranger. */
export const REFERENCE_DATA_CALLERS = {
  staff: 'staff@example.com',
  admin: 'admin@example.com',
  tenant: 'portal@acme.example',
  noRole: 'visitor@elsewhere.test',
} as const;
export type Caller = keyof typeof REFERENCE_DATA_CALLERS | 'anonymous';

/** Which caller each kind of reference-data call admits, and what it answers the others. */
export const STATUSES = {
  /** Staff and admins may read; no token is 401, no staff role 403. */
  read: [
    ['anonymous', 401],
    ['tenant', 403],
    ['noRole', 403],
    ['staff', 200],
    ['admin', 200],
  ],
  /**
   * The countries and document types lists: tenant users read them too, as the choices of their
   * profile forms; no token is 401, no role 403.
   */
  readByTenantsToo: [
    ['anonymous', 401],
    ['tenant', 200],
    ['noRole', 403],
    ['staff', 200],
    ['admin', 200],
  ],
  /** The callers refused whatever the call does (all but staff and admins). */
  notStaff: [
    ['anonymous', 401],
    ['tenant', 403],
    ['noRole', 403],
  ],
  /** The callers a delete refuses: only an admin may delete. */
  notAdmin: [
    ['anonymous', 401],
    ['staff', 403],
    ['tenant', 403],
    ['noRole', 403],
  ],
} as const;

/**
 * The fields of each answer of the countries and document types lists, sorted: the records
 * (spec part 1, section 3) that staff read, the choices (spec part 2, section 3) that tenant
 * users read (docs/reference-data.md, "Who reads what").
 */
export const LIST_KEYS = {
  countryRecord: [
    'alpha2Code',
    'alpha3Code',
    'cachedRisk',
    'cachedRiskAt',
    'countryName',
    'id',
    'sequence',
    'validFrom',
    'validTo',
  ],
  countryChoice: ['countryName', 'id'],
  documentTypeRecord: [
    'apiReferences',
    'displayName',
    'id',
    'sequence',
    'tags',
    'validFrom',
    'validTo',
    'validityPeriod',
  ],
  documentTypeChoice: ['displayName', 'id'],
} as const;

/** A tenant 'Acme' domiciled in `countryId`, with the tenant user of REFERENCE_DATA_CALLERS. */
async function addAcmeTenantUser(db: Kysely<Database>, countryId: number): Promise<void> {
  const tenant = await db
    .insertInto('tenants')
    .values({ company_name: 'Acme', domicile_country_id: countryId, ...stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('tenant_users')
    .values({ email: REFERENCE_DATA_CALLERS.tenant, tenant_id: tenant.id, ...stamp })
    .execute();
}

/** The country a reference-data suite domiciles its tenant Acme in. */
export interface FixtureCountry {
  id: number;
  alpha2: string;
  alpha3: string;
  name: string;
}

const UNITED_STATES: FixtureCountry = {
  id: 840,
  alpha2: 'US',
  alpha3: 'USA',
  name: 'United States',
};

export interface ReferenceDataTestApp extends Callers<keyof typeof REFERENCE_DATA_CALLERS> {
  readonly testApp: TestApp;
  /** The addresses of the callers, e.g. for the audit columns of what they wrote. */
  readonly emails: typeof REFERENCE_DATA_CALLERS;
}

/**
 * The set-up of the reference-data suites, as beforeAll/afterAll hooks: a server (configured
 * with `overrides`, built with `options`) on a fresh database with `country`, the tenant Acme
 * domiciled in it with its tenant user, and the REFERENCE_DATA_CALLERS signed in. Its calls see
 * the reference data as it is in the database at the time of the call. Its members read what the hook made: use them in hooks and
 * tests only.
 */
export function useReferenceDataTestApp(
  country = UNITED_STATES,
  overrides: Partial<AppConfig> = {},
  options: TestAppOptions = {},
): ReferenceDataTestApp {
  const fixture = useSuiteFixture(async () => {
    const testApp = await createTestApp(overrides, options);
    try {
      const { db } = testApp.database;
      await db
        .insertInto('countries')
        .values({ ...country, ...stamp })
        .execute();
      await addAcmeTenantUser(db, country.id);
      const callers = await signInCallers(testApp, REFERENCE_DATA_CALLERS);
      return { testApp, callers, close: () => testApp.close() };
    } catch (error) {
      await testApp.close();
      throw error;
    }
  });
  return {
    get testApp() {
      return fixture().testApp;
    },
    emails: REFERENCE_DATA_CALLERS,
    // The suites write reference data straight into the database between calls: as far as the
    // app's cache goes, those are this instance's writes (TestApp.referenceCache).
    call: (...args) => {
      fixture().testApp.referenceCache.expireAll();
      return fixture().callers.call(...args);
    },
    tokenOf: (caller) => fixture().callers.tokenOf(caller),
    refreshToken: (caller) => fixture().callers.refreshToken(caller),
  };
}
