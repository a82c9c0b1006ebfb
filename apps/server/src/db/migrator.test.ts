import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database.ts';
import type { DatabaseHandle } from './connection.ts';
import { migrateTo, migrationStatus, versionHoldingBack } from './migrator.ts';
import { migrations } from './migrations/index.ts';

describe('migrator', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
  });
  afterAll(async () => {
    await database.close();
  });

  it('lists every migration as pending on an empty database', async () => {
    const status = await migrationStatus(database.db);
    expect(status.currentVersion).toBe(0);
    expect(status.applied).toEqual([]);
    expect(status.pending.map((m) => m.version)).toEqual(migrations.map((m) => m.version));
    expect(status.pending[0]).toEqual({
      version: 1,
      description: 'Signing keys, sign-in attempts and sessions',
      className: 'SignInAndSessions',
    });
  });

  it('migrates up to a given version, then the rest', async () => {
    const before = Date.now();
    expect(await migrateTo(database.db, 2)).toEqual([1, 2]);
    let status = await migrationStatus(database.db);
    expect(status.currentVersion).toBe(2);
    expect(status.applied.map((m) => m.version)).toEqual([1, 2]);
    expect(status.applied[0]?.appliedOn.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    const rest = migrations.map((m) => m.version).filter((version) => version > 2);
    expect(status.pending.map((m) => m.version)).toEqual(rest);

    expect(await migrateTo(database.db)).toEqual(rest);
    status = await migrationStatus(database.db);
    expect(status.pending).toEqual([]);
    expect(await migrateTo(database.db)).toEqual([]);
  });

  it('created the tables', async () => {
    const result = await sql<{ count: number }>`
      select count(*)::int as count from information_schema.tables
      where table_name in ('countries', 'tenants', 'events', 'sessions')
    `.execute(database.db);
    expect(result.rows[0]?.count).toBe(4);
  });

  it('rejects an unknown target version', async () => {
    await expect(migrateTo(database.db, 999)).rejects.toThrow(
      'There is no migration with version 999',
    );
  });

  it('keeps a failed migration from being recorded', async () => {
    const broken = [
      ...migrations,
      {
        version: 1000,
        description: 'Broken',
        className: 'Broken',
        up: async (db: Parameters<(typeof migrations)[number]['up']>[0]) => {
          await sql`create table half_done (id int)`.execute(db);
          await sql`select * from no_such_table`.execute(db);
        },
      },
    ];
    await expect(migrateTo(database.db, undefined, broken)).rejects.toThrow();
    const status = await migrationStatus(database.db, broken);
    expect(status.pending.map((m) => m.version)).toEqual([1000]);
    const leftover = await sql<{ count: number }>`
      select count(*)::int as count from information_schema.tables where table_name = 'half_done'
    `.execute(database.db);
    expect(leftover.rows[0]?.count).toBe(0);
  });
});

describe('versionHoldingBack (MIGRATE_ON_START_HOLD_BACK)', () => {
  it('leaves the newest N migrations pending', () => {
    const versions = migrations.map((migration) => migration.version);
    expect(versionHoldingBack(0)).toBeUndefined();
    expect(versionHoldingBack(1)).toBe(versions.at(-2));
    expect(versionHoldingBack(2)).toBe(versions.at(-3));
    expect(versionHoldingBack(migrations.length)).toBe(0);
  });
});
