import {
  migrationResultSchema,
  migrationsApi,
  migrationStatusSchema,
  migrationVersionParamsSchema,
  seedResultSchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { migrations as buildMigrations } from '../../db/migrations/index.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { readMigrationStatus } from './queries.ts';
import { applyMigrationsTo, applySeed } from './writes.ts';

/**
 * Database Migrations (spec part 2, section 7): staff read the status (the screen then shows the
 * restricted message); only admins apply migrations or the seed.
 */
export function registerMigrationRoutes(
  app: ConsoleApp,
  { database, maintenance }: FeatureDependencies,
) {
  const { db } = database;
  const migrations = maintenance?.migrations ?? buildMigrations;
  const routes = featureRoutes(app, { tags: ['migrations'], allow: ['staff'] });

  routes.answer(migrationsApi.status, {
    summary: 'Current version, applied (newest first) and pending (oldest first) migrations',
    response: migrationStatusSchema,
    handle: ({ user }) =>
      readMigrationStatus(
        db,
        { databaseName: database.databaseName, embedded: database.embedded },
        user,
        migrations,
      ),
  });

  routes.answer(migrationsApi.apply, {
    summary:
      'Apply pending migrations up to a version (admins); a failing one answers success false',
    allow: ['admin'],
    params: migrationVersionParamsSchema,
    response: migrationResultSchema,
    errors: [404],
    handle: ({ user, params }) => applyMigrationsTo(db, user, params.version, migrations),
  });

  routes.answer(migrationsApi.seed, {
    summary: 'Insert the reference seed data that is missing (admins); idempotent',
    allow: ['admin'],
    response: seedResultSchema,
    handle: ({ user }) => applySeed(db, user),
  });
}
