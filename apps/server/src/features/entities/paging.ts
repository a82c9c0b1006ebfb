import type { Page } from '@console/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';

/**
 * Server-side paging of the portal's lists (entities, entity users), fast at a million rows:
 *
 * - Rows are ordered by their primary key, so a page is a walk along an index (index-only: the
 *   ids of the page are found in the index, and only those rows are read, a "deferred join").
 * - `totalCount` is an index-only count over the narrow tenant_id index (migration 6).
 * - The count and the page come from one snapshot (REPEATABLE READ), so they agree; knowing the
 *   total, a page past the middle is read from the other end in the opposite order, so no page
 *   skips more than half of the index.
 *
 * Measured figures are in docs/tenants.md.
 */

/** How to read one page: skip `offset` rows, take `limit`, in the list's order or reversed. */
export interface PagePlan {
  offset: number;
  limit: number;
  /** Read from the end in the opposite order; the rows are put back in the list's order. */
  reversed: boolean;
}

/**
 * The cheaper way to read rows [offset, offset + limit) of a list of `total` rows: from the start,
 * or from the end when that skips fewer rows. Null when the page holds no row.
 */
export function planPage(total: number, offset: number, limit: number): PagePlan | null {
  const rows = Math.min(limit, total - offset);
  if (rows <= 0) return null;
  const fromEnd = total - offset - rows;
  return fromEnd < offset
    ? { offset: fromEnd, limit: rows, reversed: true }
    : { offset, limit: rows, reversed: false };
}

export interface PageRequest<T> {
  /** The tenant the list is limited to: 404 when it does not exist. */
  tenantId: number | undefined;
  offset: number;
  limit: number;
  /** Rows of the whole list (with its filters). */
  count(trx: Kysely<Database>): Promise<number>;
  /** The rows of a plan, in the plan's order. */
  read(trx: Kysely<Database>, plan: PagePlan): Promise<T[]>;
}

/** One page `{data, totalCount, offset, limit}`, read in one snapshot. */
export async function readPage<T>(db: Kysely<Database>, request: PageRequest<T>): Promise<Page<T>> {
  const { tenantId, offset, limit } = request;
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      if (tenantId !== undefined) {
        const tenant = await trx
          .selectFrom('tenants')
          .select('id')
          .where('id', '=', tenantId)
          .executeTakeFirst();
        if (!tenant) throw notFound(`Tenant ${tenantId} not found.`);
      }
      const totalCount = await request.count(trx);
      const plan = planPage(totalCount, offset, limit);
      const data = plan ? await request.read(trx, plan) : [];
      if (plan?.reversed) data.reverse();
      return { data, totalCount, offset, limit };
    });
}

/** Direction of the index walk: the list's own, turned around for a reversed plan. */
export function walkDirection(descending: boolean, plan: PagePlan): 'asc' | 'desc' {
  return descending !== plan.reversed ? 'desc' : 'asc';
}

/** Only the string values of a JSON object (rows written by the platform may hold anything). */
export function stringEntries(value: unknown): [string, string][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).filter((entry): entry is [string, string] => {
    return typeof entry[1] === 'string';
  });
}
