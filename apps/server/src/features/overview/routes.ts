import { overviewApi, overviewSchema, type Overview } from '@console/contracts';
import { holdsRole, type AuthenticatedUser } from '../../auth/index.ts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { forbidden } from '../../http/errors.ts';
import { migrations as buildMigrations } from '../../db/migrations/index.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { readStaffOverview, readTenantOverview } from './queries.ts';

/** How long an instance answers the same overview again: the dashboard asks every 10 s. */
export const OVERVIEW_CACHE_MS = 5_000;

/**
 * GET /api/overview: the dashboard's figures, for staff the whole console's, for a tenant user its
 * own tenant's (a person who is both gets the staff overview).
 */
export function registerOverviewRoutes(
  app: ConsoleApp,
  { database, maintenance }: FeatureDependencies,
) {
  const { db } = database;
  const migrations = maintenance?.migrations ?? buildMigrations;
  const cache = new ShortCache<Overview>(OVERVIEW_CACHE_MS);
  const routes = featureRoutes(app, { tags: ['overview'], allow: ['staff', 'tenant'] });

  routes.answer(overviewApi.read, {
    summary: "The dashboard's figures: the whole console's for staff, a tenant user's own",
    response: overviewSchema,
    handle: ({ user }) => {
      if (holdsRole(user.roles, 'staff')) {
        return cache.read('staff', () => readStaffOverview(db, migrations));
      }
      const tenantId = tenantOf(user);
      return cache.read(`tenant:${tenantId}`, () => readTenantOverview(db, tenantId));
    },
  });
}

/** The tenant of a tenant user: the guard admitted staff and tenant users only. */
function tenantOf(user: AuthenticatedUser): number {
  if (user.tenantId === undefined) throw forbidden();
  return user.tenantId;
}

/**
 * Answers kept for `ttlMs`, shared by the calls that arrive meanwhile (one read per key at a time);
 * a failed read is not kept.
 */
export class ShortCache<T> {
  private readonly entries = new Map<string, { expiresAt: number; value: Promise<T> }>();

  constructor(private readonly ttlMs: number) {}

  read(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const kept = this.entries.get(key);
    if (kept && kept.expiresAt > now) return kept.value;
    this.dropExpired(now);
    const value = load();
    this.entries.set(key, { expiresAt: now + this.ttlMs, value });
    value.catch(() => this.entries.delete(key));
    return value;
  }

  private dropExpired(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
