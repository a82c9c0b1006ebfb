import type { MigrationStatus } from '@console/contracts';
import type { Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import { migrationStatus } from '../../db/migrator.ts';
import type { Migration } from '../../db/migrations/migration.ts';
import type { Database } from '../../db/schema.ts';

/** Only admins migrate or seed (spec part 2, section 6: isUserAuthorizedForMigrations). */
export const isMigrationAdmin = (user: AuthenticatedUser) => user.roles.includes('admin');

/**
 * GET svc/migrations/status: what the real migrator reports, shaped for the screen (applied
 * newest first, pending oldest first). A database that cannot be reached is reported in
 * `connectionStatus` ("error: …", shown red) rather than as a failed call, so the screen still
 * says which database it is about.
 */
export async function readMigrationStatus(
  db: Kysely<Database>,
  databaseName: string,
  user: AuthenticatedUser,
  migrations: readonly Migration[],
): Promise<MigrationStatus> {
  const authorized = isMigrationAdmin(user);
  try {
    const status = await migrationStatus(db, migrations);
    const newest = status.applied.at(-1);
    return {
      currentVersion: status.currentVersion,
      databaseName,
      connectionStatus: 'connected',
      lastMigrationDate: newest ? newest.appliedOn.toISOString() : null,
      appliedMigrations: status.applied
        .map(({ version, description, appliedOn }) => ({
          version,
          description,
          appliedOn: appliedOn.toISOString(),
        }))
        .reverse(),
      pendingMigrations: status.pending,
      isUserAuthorizedForMigrations: authorized,
      canUpgrade: authorized && status.pending.length > 0,
    };
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    return {
      currentVersion: 0,
      databaseName,
      connectionStatus: 'error: the database is not available',
      lastMigrationDate: null,
      appliedMigrations: [],
      pendingMigrations: [],
      isUserAuthorizedForMigrations: authorized,
      canUpgrade: false,
    };
  }
}
