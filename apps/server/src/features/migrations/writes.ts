import { migrationMessages, type MigrationResult, type SeedResult } from '@console/contracts';
import type { Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import { applyMigrations, UnknownMigrationError } from '../../db/migrator.ts';
import type { Migration } from '../../db/migrations/migration.ts';
import type { Database } from '../../db/schema.ts';
import { seedDemoData } from '../../db/seed/demo.ts';
import { notFound } from '../../http/errors.ts';
import { recordEventIfPossible } from '../../outbox/index.ts';

/**
 * POST svc/migrations/apply/{version}: the real migrator up to `version` (db/migrator.ts: one
 * transaction per migration under an advisory lock, so two clicks or two instances never apply
 * one twice). A failing migration is an answer, not an error: success false, the versions that
 * did apply, and why the next one failed; the database stays at the last good version.
 */
export async function applyMigrationsTo(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  version: number,
  migrations: readonly Migration[],
): Promise<MigrationResult> {
  let run;
  try {
    run = await applyMigrations(db, version, migrations);
  } catch (error) {
    if (error instanceof UnknownMigrationError) throw notFound(error.message);
    throw error;
  }
  const { executed, failure } = run;
  const result: MigrationResult = failure
    ? {
        success: false,
        message: migrationMessages.migrationFailed,
        executedMigrations: executed,
        errorDetails: `Migration ${failure.version} (${failure.className}) failed: ${errorText(failure.error)}`,
      }
    : {
        success: true,
        message: migrationMessages.applied(executed.length),
        executedMigrations: executed,
        errorDetails: null,
      };
  // Each migration commits on its own, so the event follows in a transaction of its own.
  await recordEventIfPossible(db, {
    eventName: failure ? 'MigrationsFailed' : 'MigrationsApplied',
    metadata: {
      actor: actor.email,
      action: 'migrate',
      targetVersion: version,
      target: { type: 'Migration', id: String(version), name: `Migrate to version ${version}` },
      after: { success: !failure, executedMigrations: executed },
      executedMigrations: executed,
      ...(failure ? { failedVersion: failure.version } : {}),
    },
  });
  return result;
}

/** POST svc/migrations/seed: the reference seed (db/seed/demo.ts), which only adds what is missing. */
export async function applySeed(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
): Promise<SeedResult> {
  let inserted;
  try {
    inserted = await seedDemoData(db);
  } catch (error) {
    // A database that is down is a 503 like everywhere; anything else (a schema not migrated
    // far enough) is the seed's failure, told to the admin.
    if (isDatabaseUnavailable(error)) throw error;
    return {
      success: false,
      message: migrationMessages.seedFailed,
      errorDetails: errorText(error),
    };
  }
  await recordEventIfPossible(db, {
    eventName: 'SeedDataApplied',
    metadata: {
      actor: actor.email,
      action: 'seed',
      inserted: { ...inserted },
      target: { type: 'Migration', id: 'seed', name: 'Demo seed data' },
      after: { inserted: { ...inserted } },
    },
  });
  return { success: true, message: migrationMessages.seedApplied, errorDetails: null };
}

/** The database's own words for a failed migration (admins only see them). */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
