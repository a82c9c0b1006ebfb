import { sql, type Kysely } from 'kysely';
import { databaseErrorCode, UNDEFINED_TABLE } from './errors.ts';
import type { Database } from './schema.ts';
import type { Migration } from './migrations/migration.ts';
import { migrations as allMigrations } from './migrations/index.ts';

export interface AppliedMigration {
  version: number;
  description: string;
  className: string;
  appliedOn: Date;
}

export interface PendingMigration {
  version: number;
  description: string;
  className: string;
}

export interface MigrationStatus {
  currentVersion: number;
  applied: AppliedMigration[];
  pending: PendingMigration[];
}

// Any constant shared by every instance: the advisory lock that keeps two processes from
// migrating at once.
const MIGRATION_LOCK_KEY = 724_211_031;

async function ensureMigrationsTable(db: Kysely<Database>): Promise<void> {
  await sql`
    create table if not exists schema_migrations (
      version integer primary key,
      description text not null,
      class_name text not null,
      applied_on timestamptz not null default now()
    )
  `.execute(db);
}

export async function migrationStatus(
  db: Kysely<Database>,
  migrations: readonly Migration[] = allMigrations,
): Promise<MigrationStatus> {
  // A read never runs DDL (the status is polled by the screen): a database the migrator never
  // touched has no table yet, which means nothing applied.
  const rows = await db
    .selectFrom('schema_migrations')
    .selectAll()
    .orderBy('version', 'asc')
    .execute()
    .catch((error: unknown) => {
      if (databaseErrorCode(error) === UNDEFINED_TABLE) return [];
      throw error;
    });
  const appliedVersions = new Set(rows.map((row) => row.version));
  return {
    currentVersion: rows.at(-1)?.version ?? 0,
    applied: rows.map((row) => ({
      version: row.version,
      description: row.description,
      className: row.class_name,
      appliedOn: row.applied_on,
    })),
    pending: migrations
      .filter((migration) => !appliedVersions.has(migration.version))
      .map(({ version, description, className }) => ({ version, description, className })),
  };
}

/** What one run of the migrator did: what it applied, and the migration that failed, if one did. */
export interface MigrationRun {
  executed: number[];
  failure?: { version: number; className: string; error: unknown };
}

/**
 * Applies pending migrations in version order, each in its own transaction, up to and including
 * `targetVersion` (all of them when omitted), and stops at the first that fails: its transaction
 * rolls back, so the database stays at the last good version. Safe to call from several
 * processes at once: they queue on an advisory lock and skip what another applied.
 */
export async function applyMigrations(
  db: Kysely<Database>,
  targetVersion?: number,
  migrations: readonly Migration[] = allMigrations,
): Promise<MigrationRun> {
  assertOrdered(migrations);
  if (
    targetVersion !== undefined &&
    targetVersion !== 0 &&
    !migrations.some((m) => m.version === targetVersion)
  ) {
    throw new UnknownMigrationError(targetVersion);
  }
  await ensureMigrationsTable(db);
  const executed: number[] = [];
  for (const migration of migrations) {
    if (targetVersion !== undefined && migration.version > targetVersion) break;
    try {
      if (await applyOne(db, migration)) executed.push(migration.version);
    } catch (error) {
      return {
        executed,
        failure: { version: migration.version, className: migration.className, error },
      };
    }
  }
  return { executed };
}

/** applyMigrations for the command line and the start-up: a failure is thrown. */
export async function migrateTo(
  db: Kysely<Database>,
  targetVersion?: number,
  migrations: readonly Migration[] = allMigrations,
): Promise<number[]> {
  const run = await applyMigrations(db, targetVersion, migrations);
  if (run.failure) throw run.failure.error;
  return run.executed;
}

export class UnknownMigrationError extends Error {
  constructor(readonly version: number) {
    super(`There is no migration with version ${version}`);
    this.name = 'UnknownMigrationError';
  }
}

/** One migration in its own transaction, under the lock; false when another applied it first. */
async function applyOne(db: Kysely<Database>, migration: Migration): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(trx);
    const done = await trx
      .selectFrom('schema_migrations')
      .select('version')
      .where('version', '=', migration.version)
      .executeTakeFirst();
    if (done) return false;
    await migration.up(trx as unknown as Kysely<unknown>);
    await trx
      .insertInto('schema_migrations')
      .values({
        version: migration.version,
        description: migration.description,
        class_name: migration.className,
      })
      .execute();
    return true;
  });
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    const previous = migrations[index - 1];
    if (previous && previous.version >= migration.version) {
      throw new Error(
        `Migrations out of order: ${previous.className} (${previous.version}) before ${migration.className} (${migration.version})`,
      );
    }
  });
}

/**
 * The version that leaves the newest `heldBack` migrations pending (MIGRATE_ON_START_HOLD_BACK);
 * undefined for all of them. Holding back every migration is version 0: nothing applies.
 */
export function versionHoldingBack(
  heldBack: number,
  migrations: readonly Migration[] = allMigrations,
): number | undefined {
  if (heldBack <= 0) return undefined;
  return migrations[migrations.length - 1 - heldBack]?.version ?? 0;
}
