import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { expectRefusal } from '../../../test/expectations.ts';
import { auditRowOf, eventsAfter, lastEventId } from '../../../test/recorded-events.ts';
import { useReferenceDataTestApp, type Caller } from '../../../test/reference-data.ts';
import { openDatabase } from '../../db/connection.ts';
import { applyMigrations } from '../../db/migrator.ts';
import type { Migration } from '../../db/migrations/migration.ts';
import { migrations as buildMigrations } from '../../db/migrations/index.ts';

/**
 * The test database is fully migrated; four test migrations after the build's give the apply
 * calls something to do: two good ones, one that fails half-way, one after it.
 */
const createTable = (version: number, className: string, table: string): Migration => ({
  version,
  description: `Create ${table}`,
  className,
  async up(db) {
    await sql`create table ${sql.table(table)} (id integer)`.execute(db);
  },
});
const TEST_MIGRATIONS: Migration[] = [
  createTable(1001, 'TestWidgets', 'test_widgets'),
  createTable(1002, 'TestGadgets', 'test_gadgets'),
  {
    version: 1003,
    description: 'Fails after creating a table',
    className: 'TestBroken',
    async up(db) {
      await sql`create table test_broken (id integer)`.execute(db);
      await sql`select 1 / 0`.execute(db);
    },
  },
  createTable(1004, 'TestAfterBroken', 'test_after_broken'),
];
const MIGRATIONS = [...buildMigrations, ...TEST_MIGRATIONS];
const BUILD_VERSION = buildMigrations.at(-1)?.version ?? 0;

const suite = useReferenceDataTestApp(undefined, {}, { maintenance: { migrations: MIGRATIONS } });
const db = () => suite.testApp.database.db;
const status = (caller: Caller = 'admin') => suite.call(caller, 'GET', '/svc/migrations/status');
const apply = (version: number | string, caller: Caller = 'admin') =>
  suite.call(caller, 'POST', `/svc/migrations/apply/${version}`);

async function tableExists(name: string): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`
    select to_regclass(${name})::text as found`.execute(db());
  return rows[0]?.found !== null;
}

// The tests below run in order: each starts where the one before left the database.
describe('Database migrations over the real migrator', () => {
  it('reports the applied (newest first) and pending (oldest first) migrations', async () => {
    const response = await status();
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.currentVersion).toBe(BUILD_VERSION);
    expect(body.connectionStatus).toBe('connected');
    const url = new URL(suite.testApp.database.connectionString);
    expect(body.databaseName).toBe(url.pathname.slice(1));
    expect(body.serverVersion).toMatch(/^\d+(\.\d+)*$/);
    expect(body.embedded).toBe(false);
    expect(body.appliedMigrations.map((m: { version: number }) => m.version)).toEqual(
      buildMigrations.map((m) => m.version).reverse(),
    );
    expect(body.appliedMigrations[0]).toEqual({
      version: BUILD_VERSION,
      description: buildMigrations.at(-1)?.description,
      appliedOn: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(body.lastMigrationDate).toBe(body.appliedMigrations[0].appliedOn);
    expect(body.pendingMigrations).toEqual(
      TEST_MIGRATIONS.map(({ version, description, className }) => ({
        version,
        description,
        className,
      })),
    );
    expect(body.isUserAuthorizedForMigrations).toBe(true);
    expect(body.canUpgrade).toBe(true);
  });

  it('names the database without its host, port or files (every staff member reads it)', async () => {
    const response = await status('staff');
    const url = new URL(suite.testApp.database.connectionString);
    const text = response.body;
    // No host, port, password or data directory (the embedded cluster's lies under data/).
    for (const secret of [url.hostname, 'localhost', url.password, '/data']) {
      if (secret) expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(new RegExp(`(?<!\\d)${url.port || '5432'}(?!\\d)`));
    expect(Object.keys(response.json()).sort()).toEqual([
      'appliedMigrations',
      'canUpgrade',
      'connectionStatus',
      'currentVersion',
      'databaseName',
      'embedded',
      'isUserAuthorizedForMigrations',
      'lastMigrationDate',
      'pendingMigrations',
      'serverVersion',
    ]);
  });

  it('tells staff they may read but not migrate', async () => {
    const body = (await status('staff')).json();
    expect(body.isUserAuthorizedForMigrations).toBe(false);
    expect(body.canUpgrade).toBe(false);
    expect(body.pendingMigrations).toHaveLength(4);
  });

  it('applies up to a middle version only, and records the event', async () => {
    const mark = await lastEventId(db());
    const response = await apply(1001);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Successfully applied 1 migration(s)',
      executedMigrations: [1001],
      errorDetails: null,
    });
    expect(await tableExists('test_widgets')).toBe(true);
    expect(await tableExists('test_gadgets')).toBe(false);
    const after = (await status()).json();
    expect(after.currentVersion).toBe(1001);
    expect(after.appliedMigrations[0].version).toBe(1001);
    expect(after.pendingMigrations.map((m: { version: number }) => m.version)).toEqual([
      1002, 1003, 1004,
    ]);
    const events = await eventsAfter(db(), mark);
    expect(events.map((event) => event.eventName)).toEqual(['MigrationsApplied']);
    expect(events[0]?.metadata).toMatchObject({
      actor: suite.emails.admin,
      targetVersion: 1001,
      executedMigrations: [1001],
    });
    expect(await auditRowOf(db(), events[0]?.id ?? 0)).toMatchObject({
      actor: suite.emails.admin,
      action: 'migrate',
      target_type: 'Migration',
      target_id: '1001',
      after: { success: true, executedMigrations: [1001] },
    });
  });

  it('applies a migration once when two connections apply it at the same moment', async () => {
    const other = openDatabase(suite.testApp.database.connectionString);
    try {
      const [viaHttp, viaOtherPool] = await Promise.all([
        apply(1002),
        applyMigrations(other.db, 1002, MIGRATIONS),
      ]);
      expect(viaHttp.json().success).toBe(true);
      expect(viaOtherPool.failure).toBeUndefined();
      // Exactly one of them ran it (the other found it applied under the lock).
      expect([...viaHttp.json().executedMigrations, ...viaOtherPool.executed]).toEqual([1002]);
    } finally {
      await other.close();
    }
    const { rows } = await sql<{ count: number }>`
      select count(*)::int as count from schema_migrations where version = 1002`.execute(db());
    expect(rows[0]?.count).toBe(1);
  });

  it('stops at a failing migration, leaves the last good version and says why', async () => {
    const mark = await lastEventId(db());
    const response = await apply(1004);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: false,
      message: 'Migration failed',
      executedMigrations: [],
      errorDetails: 'Migration 1003 (TestBroken) failed: division by zero',
    });
    expect(await tableExists('test_broken')).toBe(false);
    expect(await tableExists('test_after_broken')).toBe(false);
    const after = (await status()).json();
    expect(after.currentVersion).toBe(1002);
    expect(after.pendingMigrations.map((m: { version: number }) => m.version)).toEqual([
      1003, 1004,
    ]);
    const events = await eventsAfter(db(), mark);
    expect(events.map((event) => event.eventName)).toEqual(['MigrationsFailed']);
    expect(events[0]?.metadata).toMatchObject({ failedVersion: 1003, executedMigrations: [] });
    expect(await auditRowOf(db(), events[0]?.id ?? 0)).toMatchObject({
      action: 'migrate',
      target_id: '1004',
      after: { success: false, executedMigrations: [] },
      metadata: expect.objectContaining({ failedVersion: 1003 }),
    });
  });

  it('answers an applied version with nothing to do, an unknown one with 404', async () => {
    expect((await apply(BUILD_VERSION)).json()).toEqual({
      success: true,
      message: 'Successfully applied 0 migration(s)',
      executedMigrations: [],
      errorDetails: null,
    });
    expectRefusal(await apply(999_999), 404, 'There is no migration with version 999999');
  });

  it.each(['01', 'abc', '0', '-1', '1.5', '1e3', ' 1', '99999999999'])(
    'refuses the version %j with a 400 naming it',
    async (version) => {
      const response = await apply(encodeURIComponent(version));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('version');
    },
  );
});

describe('Database migrations: who may do what', () => {
  it.each([
    ['anonymous', 401],
    ['noRole', 403],
    ['tenant', 403],
    ['staff', 200],
    ['admin', 200],
  ] as const)('status as %s answers %i', async (caller, code) => {
    expect((await status(caller)).statusCode).toBe(code);
  });

  it.each([
    ['anonymous', 401],
    ['noRole', 403],
    ['tenant', 403],
    ['staff', 403],
  ] as const)('apply and seed as %s answer %i and change nothing', async (caller, code) => {
    const before = (await status()).json().currentVersion;
    expect((await apply(1004, caller)).statusCode).toBe(code);
    expect((await suite.call(caller, 'POST', '/svc/migrations/seed')).statusCode).toBe(code);
    expect((await status()).json().currentVersion).toBe(before);
  });
});

describe('POST /svc/migrations/seed', () => {
  const rowCounts = async () => {
    const { rows } = await sql<Record<string, number>>`
      select (select count(*)::int from countries) as countries,
             (select count(*)::int from document_types) as document_types,
             (select count(*)::int from tenants) as tenants,
             (select count(*)::int from entities) as entities,
             (select count(*)::int from entity_users) as entity_users`.execute(db());
    return rows[0];
  };

  /**
   * What the audit row of the seed after `mark` says it inserted, per table (a first seed also
   * writes the demo's own events).
   */
  const auditedInserts = async (mark: number) => {
    const seeds = (await eventsAfter(db(), mark)).filter(
      (event) => event.eventName === 'SeedDataApplied',
    );
    expect(seeds).toHaveLength(1);
    const row = await auditRowOf(db(), seeds[0]?.id ?? 0);
    expect(row).toMatchObject({ actor: suite.emails.admin, action: 'seed', target_id: 'seed' });
    return (row.after as { inserted: Record<string, number> }).inserted;
  };

  it('applies the reference seed, and a second time changes nothing', async () => {
    const before = await rowCounts();
    const firstMark = await lastEventId(db());
    const first = await suite.call('admin', 'POST', '/svc/migrations/seed');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      success: true,
      message: 'Seed data applied successfully',
      errorDetails: null,
    });
    const seeded = await rowCounts();
    expect(seeded?.countries).toBeGreaterThan(200);
    // The audit row says how many rows each table got: what the tables grew by.
    const grown = (table: string) => (seeded?.[table] ?? 0) - (before?.[table] ?? 0);
    expect(await auditedInserts(firstMark)).toMatchObject({
      countries: grown('countries'),
      documentTypes: grown('document_types'),
      tenants: grown('tenants'),
      entities: grown('entities'),
      entityUsers: grown('entity_users'),
    });

    const mark = await lastEventId(db());
    const second = await suite.call('admin', 'POST', '/svc/migrations/seed');
    expect(second.json().success).toBe(true);
    expect(await rowCounts()).toEqual(seeded);
    expect((await eventsAfter(db(), mark)).map((event) => event.eventName)).toEqual([
      'SeedDataApplied',
    ]);
    const inserted = await auditedInserts(mark);
    expect(Object.values(inserted).every((count) => count === 0)).toBe(true);
    expect(Object.keys(inserted)).toContain('entityUsers');
  });
});
