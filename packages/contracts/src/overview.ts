import { z } from 'zod';
import { apiRoute } from './api.ts';
import { RATINGS_IMPORT_STATUSES } from './ratings.ts';

/**
 * The dashboard's overview (docs/operations.md, "The dashboard overview"): one call that says how
 * the console is doing, under the welcome text. Staff see the whole console; a tenant user their
 * own tenant's entities, entity users and events.
 */
export const overviewApi = {
  read: apiRoute('GET', '/api/overview'),
} as const;

/** How often the open dashboard asks again; the server answers from a cache of a few seconds. */
export const OVERVIEW_REFRESH_MS = 10_000;

const count = z.number().int().nonnegative();

export const eventWorkerOverviewSchema = z.object({
  worker: z.string(),
  /** Records neither done nor failed, across every instance. */
  waiting: count,
  failed: count,
  /** Age of the oldest waiting record's event; 0 when none waits. */
  oldestWaitingSeconds: z.number().nonnegative(),
});

export const lastRatingsImportSchema = z.object({
  id: z.number().int(),
  status: z.enum(RATINGS_IMPORT_STATUSES),
  startedAt: z.iso.datetime(),
  records: count,
  imported: count,
});

export const staffOverviewSchema = z.object({
  audience: z.literal('staff'),
  tenants: count,
  entities: count,
  entityUsers: count,
  eventWorkers: z.array(eventWorkerOverviewSchema),
  lastRatingsImport: lastRatingsImportSchema.nullable(),
  /** Mails of the last 24 hours (counted by the hour: the current one and the 24 before it). */
  mails: z.object({ sent: count, failed: count }),
  pendingMigrations: count,
  asOf: z.iso.datetime(),
});

export const tenantOverviewSchema = z.object({
  audience: z.literal('tenant'),
  entities: count,
  entityUsers: count,
  /** The tenant's events still waiting for a worker, and those a worker failed. */
  events: z.object({ waiting: count, failed: count }),
  asOf: z.iso.datetime(),
});

export const overviewSchema = z.discriminatedUnion('audience', [
  staffOverviewSchema,
  tenantOverviewSchema,
]);

export type EventWorkerOverview = z.infer<typeof eventWorkerOverviewSchema>;
export type StaffOverview = z.infer<typeof staffOverviewSchema>;
export type TenantOverview = z.infer<typeof tenantOverviewSchema>;
export type Overview = z.infer<typeof overviewSchema>;
