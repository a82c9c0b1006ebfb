import { z } from 'zod';
import { apiRoute } from './api.ts';
import { pathIdSchema } from './ids.ts';

/** Database Migrations (spec part 2, sections 2, 3 and 7). */

export const migrationsApi = {
  status: apiRoute('GET', '/svc/migrations/status'),
  apply: apiRoute('POST', '/svc/migrations/apply/:version'),
  seed: apiRoute('POST', '/svc/migrations/seed'),
} as const;

export const appliedMigrationSchema = z.object({
  version: z.number().int(),
  description: z.string(),
  appliedOn: z.iso.datetime(),
});
export type AppliedMigration = z.infer<typeof appliedMigrationSchema>;

export const pendingMigrationSchema = z.object({
  version: z.number().int(),
  description: z.string(),
  className: z.string(),
});
export type PendingMigration = z.infer<typeof pendingMigrationSchema>;

export const migrationStatusSchema = z.object({
  currentVersion: z.number().int().describe('Highest applied version; 0 when none'),
  databaseName: z.string().describe('The database name only: no host, port or file path'),
  serverVersion: z
    .string()
    .nullable()
    .describe("PostgreSQL's version (e.g. 18.4); null while the database cannot be reached"),
  embedded: z.boolean().describe('The embedded PostgreSQL that the server started itself'),
  connectionStatus: z.string().describe('"connected", or "error: …" when the database failed'),
  lastMigrationDate: z.iso.datetime().nullable(),
  /** Newest first (spec: sorted descending). */
  appliedMigrations: z.array(appliedMigrationSchema),
  /** Oldest first (spec: sorted ascending). */
  pendingMigrations: z.array(pendingMigrationSchema),
  isUserAuthorizedForMigrations: z.boolean(),
  canUpgrade: z.boolean().describe('Authorized and something is pending'),
});
export type MigrationStatus = z.infer<typeof migrationStatusSchema>;

/** A migration version in a path: a canonical whole number (contracts/ids.ts). */
export const migrationVersionParamsSchema = z.object({ version: pathIdSchema('version') });

export const migrationResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  /** The versions this call applied, in order (another instance may have applied the others). */
  executedMigrations: z.array(z.number().int()),
  errorDetails: z.string().nullable(),
});
export type MigrationResult = z.infer<typeof migrationResultSchema>;

export const seedResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  errorDetails: z.string().nullable(),
});
export type SeedResult = z.infer<typeof seedResultSchema>;

/** The spec's texts (section 8). */
export const migrationMessages = {
  applied: (count: number) => `Successfully applied ${count} migration(s)`,
  migrationFailed: 'Migration failed',
  seedApplied: 'Seed data applied successfully',
  seedFailed: 'Seed data application failed',
  restricted: 'Migration operations are restricted to authorized administrators only.',
  fetchFailed: (status: number | string) => `Failed to fetch migration status: ${status}`,
} as const;
