import type { MigrationStatus } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import { migrationStatus } from '../../db/migrator.ts';
import type { Migration } from '../../db/migrations/migration.ts';
import type { Database } from '../../db/schema.ts';

/** Only admins migrate or seed (spec part 2, section 6: isUserAuthorizedForMigrations). */
export const isMigrationAdmin = (user: AuthenticatedUser) => user.roles.includes('admin');

/** What the Database card says of the database: never a host, port or file path. */
export interface DatabaseIdentity {
  databaseName: string;
  embedded: boolean;
}

/**
 * GET svc/migrations/status: what the real migrator reports, shaped for the screen (applied
 * newest first, pending oldest first). A database that cannot be reached is reported in
 * `connectionStatus` ("error: …", shown red) rather than as a failed call, so the screen still
 * says which database it is about. Where the database lives (host, port, data directory) is in
 * the server's log, not in the answer: every staff member reads it.
 */
export async function readMigrationStatus(
  db: Kysely<Database>,
  identity: DatabaseIdentity,
  user: AuthenticatedUser,
  migrations: readonly Migration[],
): Promise<MigrationStatus> {
  const authorized = isMigrationAdmin(user);
  try {
    const [status, server] = await Promise.all([
      migrationStatus(db, migrations),
      serverIdentity(db),
    ]);
    const newest = status.applied.at(-1);
    return {
      currentVersion: status.currentVersion,
      databaseName: server.name,
      serverVersion: server.version,
      embedded: identity.embedded,
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
      databaseName: identity.databaseName,
      serverVersion: null,
      embedded: identity.embedded,
      connectionStatus: 'error: the database is not available',
      lastMigrationDate: null,
      appliedMigrations: [],
      pendingMigrations: [],
      isUserAuthorizedForMigrations: authorized,
      canUpgrade: false,
    };
  }
}

/**
 * The database's name and PostgreSQL's version number as the server reports them; a packager's
 * suffix ("16.4 (Debian 16.4-1.pgdg120+1)") is dropped.
 */
async function serverIdentity(db: Kysely<Database>): Promise<{ name: string; version: string }> {
  const { rows } = await sql<{ name: string; version: string }>`
    select current_database() as name, current_setting('server_version') as version
  `.execute(db);
  const row = rows[0];
  if (!row) throw new Error('PostgreSQL answered no row for current_database()');
  return { name: row.name, version: row.version.split(' ')[0] ?? row.version };
}
