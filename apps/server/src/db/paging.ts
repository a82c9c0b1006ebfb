import { EXACT_TOTAL_MAX, type Page } from '@console/contracts';
import { sql, type Compilable, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The one server-side paging of lists (entities, entity users, events), fast at a million rows:
 *
 * - `totalCount` and the page come from one snapshot (REPEATABLE READ), so they agree. The count
 *   is the list's own: exact, and read from a kept count where the list has one (list_counts,
 *   migration 8) instead of counting rows. The page-numbered logs (events, audit log), which
 *   have filters and 10^7 rows, count up to a threshold and estimate beyond (`pageNumberTotal`).
 * - A page is a walk along an index in the list's order; knowing the total, a page past the
 *   middle is read from the other end in the opposite order, so no page skips more than half of
 *   the index. Lists read only the ids of the page from the index (index-only), then those rows.
 * - The entity lists, the biggest, are read by one statement each that does all of this in SQL
 *   and starts a deep walk at a page anchor (features/entities/queries.ts, db/page-anchors.ts);
 *   `planPage` is the rule that statement follows too, as does the events list's statement
 *   (features/events/queries.ts).
 *
 * The spec's query names stay at each API's edge (`offset`/`limit`, `page`/`pageSize`); they
 * meet here as rows to skip and rows to take.
 */

/** How to read one page: skip `offset` rows, take `limit`, in the list's order or reversed. */
export interface PagePlan {
  offset: number;
  limit: number;
  /** Read from the end in the opposite order; the rows are put back in the list's order. */
  reversed: boolean;
  /** The key the walk starts at (included): an anchor; `offset` counts from there. */
  from?: string;
  /**
   * A keyset step (the page-numbered lists' `after` / `before`): the walk starts next to the row
   * of this id, excluded, wherever it lies.
   */
  nextTo?: number;
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
  offset: number;
  limit: number;
  /** Rows of the whole list (with its filters); may throw (e.g. 404 for an unknown parent). */
  count(trx: Kysely<Database>): Promise<number>;
  /** The rows of a plan, in the plan's order. */
  read(trx: Kysely<Database>, plan: PagePlan): Promise<T[]>;
}

/** One page `{data, totalCount, offset, limit}`, counted and read in one snapshot. */
export async function readPage<T>(db: Kysely<Database>, request: PageRequest<T>): Promise<Page<T>> {
  const { offset, limit } = request;
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const totalCount = await request.count(trx);
      const plan = planPage(totalCount, offset, limit);
      if (!plan) return { data: [], totalCount, offset, limit };
      const data = await request.read(trx, plan);
      if (plan.reversed) data.reverse();
      return { data, totalCount, offset, limit };
    });
}

/** Direction of the index walk: the list's own, turned around for a reversed plan. */
export function walkDirection(descending: boolean, plan: PagePlan): 'asc' | 'desc' {
  return descending !== plan.reversed ? 'desc' : 'asc';
}

/** How a walk in `direction` keeps the keys from `PagePlan.from` on. */
export function fromOperator(direction: 'asc' | 'desc'): '>=' | '<=' {
  return direction === 'asc' ? '>=' : '<=';
}

/**
 * The rows of `matching` (a page-numbered list under its filters: events, audit log), counted up
 * to one past EXACT_TOTAL_MAX: an index walk of ten thousand entries at most, whatever the list's
 * size. `pageNumberTotal` turns the count into the list's total.
 */
export function countUpToExactMax<TB extends keyof Database, O>(
  db: Kysely<Database>,
  matching: SelectQueryBuilder<Database, TB, O>,
) {
  // The limit as a literal: the events page statement has no value of its own (its text serves
  // every request, features/events/queries.ts).
  return db
    .selectFrom(matching.limit(sql.lit(EXACT_TOTAL_MAX + 1)).as('limited'))
    .select((eb) => eb.fn.countAll<number>().as('counted'));
}

/** `totalCount` and `totalIsEstimate` of a page-numbered list's answer (contracts). */
export interface PageNumberTotal {
  totalCount: number;
  totalIsEstimate: boolean;
}

/**
 * The total of a page-numbered list (docs/audit.md, "Totals"): `counted` (countUpToExactMax) when
 * it is at most EXACT_TOTAL_MAX, else PostgreSQL's estimate of the rows of the query `matching`
 * builds, never below what was counted. Counting 10^7 rows exactly takes seconds; the estimate is one plan.
 */
export async function pageNumberTotal(
  db: Kysely<Database>,
  counted: number,
  matching: () => Compilable,
): Promise<PageNumberTotal> {
  if (counted <= EXACT_TOTAL_MAX) return { totalCount: counted, totalIsEstimate: false };
  const compiled = matching().compile();
  const plan = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>({
    ...compiled,
    sql: `explain (format json) ${compiled.sql}`,
  });
  const estimated = plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? counted;
  // The estimate may be off: it is never shown below what was counted.
  return { totalCount: Math.max(Math.round(estimated), counted), totalIsEstimate: true };
}
