import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * What the limiter passes to `child` for a route: its types say the route's options, but it
 * passes the merged limit options, the route being in `routeInfo`.
 */
type RouteLimit = Parameters<FastifyRateLimitStore['child']>[0] & {
  routeInfo?: { method?: string | string[]; url?: string };
};

/**
 * A @fastify/rate-limit store counting in PostgreSQL (table rate_limit_counters), so that every
 * instance sees every hit: one fixed window per limit and client, opened by the first hit and
 * counted by an atomic upsert. Each rate-limited route counts apart (scope = method and path).
 */
export function postgresRateLimitStore(db: Kysely<Database>): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly scope: string;

    // The limiter builds the root store with its options (no scope), and route stores in child().
    constructor(scope: unknown) {
      this.scope = typeof scope === 'string' ? scope : 'global';
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow?: number,
    ): void {
      countHit(db, this.scope, key, timeWindow ?? 60_000).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: RouteLimit): FastifyRateLimitStore {
      const { method, url } = routeOptions.routeInfo ?? {};
      const methods = Array.isArray(method) ? method.join(',') : (method ?? '');
      return new PostgresRateLimitStore(`${methods} ${url ?? ''}`.trim() || 'global');
    }
  }
  return PostgresRateLimitStore;
}

async function countHit(
  db: Kysely<Database>,
  scope: string,
  clientKey: string,
  windowMs: number,
): Promise<{ current: number; ttl: number }> {
  const window = sql`make_interval(secs => ${windowMs / 1000}::double precision)`;
  const result = await sql<{ hits: number; ttl_ms: number }>`
    insert into rate_limit_counters as counter (scope, client_key, hits, resets_at)
    values (${scope}, ${clientKey}, 1, now() + ${window})
    on conflict (scope, client_key) do update set
      hits = case when counter.resets_at <= now() then 1 else counter.hits + 1 end,
      resets_at = case when counter.resets_at <= now() then now() + ${window}
        else counter.resets_at end
    returning hits,
      greatest(0, ceil(extract(epoch from resets_at - now()) * 1000))::int as ttl_ms
  `.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error('The rate-limit counter was not written');
  return { current: row.hits, ttl: row.ttl_ms };
}

/** Deletes the counters whose window has ended (they would restart at 1 anyway). */
export async function deleteExpiredRateLimitCounters(db: Kysely<Database>): Promise<void> {
  await db
    .deleteFrom('rate_limit_counters')
    .where('resets_at', '<=', sql<Date>`now()`)
    .execute();
}
