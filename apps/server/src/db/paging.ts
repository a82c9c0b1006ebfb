import { EVENT_PAGE_SIZE_MAX, EXACT_TOTAL_MAX, type Page } from '@console/contracts';
import {
  CompiledQuery,
  sql,
  type Compilable,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
} from 'kysely';
import { jsonText, type JsonText } from '../http/json-text.ts';
import { preparedStatement } from './prepared-statements.ts';
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
 *   `planPage` is the rule that statement follows too, as do the page-numbered lists' statements
 *   (`pageStatementText`: the events list and the audit log).
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

/** The paging of a page-numbered list's query (contracts `pageNumberQueryShape`). */
export interface PageNumberQuery {
  page: number;
  pageSize: number;
  after?: number | undefined;
  before?: number | undefined;
}

/**
 * The parameters every page statement of a page-numbered list takes first, in this order; the
 * list's own follow from $5 (`PageStatementParts.parameters`). Every statement takes all of them
 * (unused ones null), so that one text per shape serves every request: building and compiling
 * the statement with Kysely took more CPU than the rest of the request.
 */
export const pageParam = {
  offset: sql<number>`$1`,
  size: sql<number>`$2`,
  /** A step towards the start of the list (`before`), else after the cursor row (`after`). */
  before: sql<boolean>`$3`,
  cursor: sql<number>`$4`,
};

/** The values of `pageParam` for `query`. */
export function pageParameterValues(query: PageNumberQuery): unknown[] {
  return [
    (query.page - 1) * query.pageSize,
    query.pageSize,
    query.before !== undefined,
    query.after ?? query.before ?? null,
  ];
}

/** The tables of the page-numbered lists, and the column of each one's order (then its id). */
export const ORDER_COLUMNS = { events: 'created_at', audit_log: 'occurred_at' } as const;
export type PageNumberedTable = keyof typeof ORDER_COLUMNS;

/** What a page-numbered list puts into its page statement (`pageStatementText`). */
export interface PageStatementParts<TB extends PageNumberedTable> {
  table: TB;
  /** The types of the list's own parameters, from $5: sql`$5::integer as tenant_id, ...`. */
  parameters: RawBuilder<unknown>;
  /** The list's order: newest first, or a parameter (the events list's sortOrder). */
  descending: RawBuilder<boolean>;
  /** The ids of the rows the filters keep: a new query at each call. */
  matching: () => SelectQueryBuilder<Database, TB, { id: number }>;
  /** Whether any filter applies (`matching` keeps fewer rows than the table holds). */
  filtered: boolean;
  /**
   * The row a keyset step starts next to (its order column and id, where id = `pageParam.cursor`
   * and the caller may see it), in the shapes that step; undefined in the others.
   */
  cursor: Compilable | undefined;
  /** A row of the page (alias `r`) as the API's JSON. */
  rowJson: RawBuilder<unknown>;
}

/**
 * The text of a page statement of a page-numbered list (events, audit log): one statement, one
 * round trip, one snapshot. It counts the matching rows up to one past EXACT_TOTAL_MAX, plans
 * the walk (from the `cursor` row when it exists; else, with an exact total, from the nearer end,
 * `planPage`'s rule; else from the start), walks the page's ids on an index, then reads only
 * those rows and writes them as the API's JSON array. It answers one row: `counted` and `data`.
 */
export function pageStatementText<TB extends PageNumberedTable>(
  db: Kysely<Database>,
  parts: PageStatementParts<TB>,
): string {
  const order = ORDER_COLUMNS[parts.table];
  const { offset, size, before } = pageParam;
  const { descending, cursor } = parts;
  // Unfiltered, the count reads the newest rows' index entries, the ones the first pages read:
  // left to itself the planner read the table's oldest 10,001 rows (2 MB), and a scan of a big
  // table goes through a small ring of buffers, so every request read them from the kernel again.
  const counted = countUpToExactMax(
    db,
    parts.filtered
      ? parts.matching()
      : parts.matching().orderBy(sql.ref(order), 'desc').orderBy(sql.ref('id'), 'desc'),
  );
  const compiled = sql`
    with parameters as (select $1::bigint as page_offset, $2::bigint as page_size,
      $3::boolean as towards_start, $4::bigint as cursor_id, ${parts.parameters}),
    ${cursor ? sql`cursor as (${cursor}),` : sql``}
    counted as (${counted}),
    plan as (
      select counted, rows, from_cursor, reversed <> ${descending} as walk_descending,
        case when from_cursor then 0
          when reversed then greatest(counted - ${offset} - rows, 0)
          else ${offset} end as skip
      from counted,
        lateral (select ${cursor ? sql`exists (select from cursor)` : sql`false`}
          as from_cursor) as step,
        lateral (select counted <= ${sql.lit(EXACT_TOTAL_MAX)} as exact) as total,
        lateral (select case when exact and not from_cursor
          then greatest(least(${size}, counted - ${offset}), 0) else ${size} end as rows) as size,
        lateral (select case when from_cursor then ${before}
          else exact and counted - ${offset} - rows < ${offset} end as reversed) as ends
    ),
    keys as (${pageWalks(parts, order)})
    select (select counted from plan) as counted,
      '[' || coalesce(string_agg(${parts.rowJson}::text, ',' order by
        case when ${descending} then ${sql.ref(`r.${order}`)} end desc,
        case when ${descending} then r.id end desc,
        ${sql.ref(`r.${order}`)}, r.id), '') || ']' as data
    from keys join ${sql.table(parts.table)} as r on r.id = keys.id
  `.compile(db);
  // Every value is a parameter: a value of its own would be fixed in the text.
  if (compiled.parameters.length > 0) throw new Error('A page statement has a value of its own');
  return compiled.sql;
}

/**
 * The ids of the page, by the walk the plan chose: after (or before) the `cursor` row when it
 * exists, a keyset step; else by the page's number, from the nearer end of an exact total, or
 * from the start. Every walk is in the text, each behind a condition on the plan that PostgreSQL
 * checks once, so only one runs.
 *
 * A walk that skips no row (a step, a first or a last page) is planned for a page's rows at most:
 * a limit that is not a constant makes the planner expect a tenth of the rows, and at 10^7 it
 * then chose to collect and sort every matching row (or to start parallel workers) over walking
 * an index to the page's first rows (the audit log's free text '42': 88 ms instead of 6). A deep
 * page by its number skips rows anyway.
 */
function pageWalks<TB extends PageNumberedTable>(
  parts: PageStatementParts<TB>,
  order: (typeof ORDER_COLUMNS)[TB],
) {
  const walk = (direction: 'asc' | 'desc', from: 'cursor' | 'end' | 'offset') => {
    const ids = parts
      .matching()
      .$if(from === 'cursor', (qb) =>
        qb.where(
          sql<boolean>`(${sql.ref(order)}, id) ${sql.raw(direction === 'desc' ? '<' : '>')}
            (select ${sql.ref(order)}, id from cursor)`,
        ),
      )
      .orderBy(sql.ref(order), direction)
      .orderBy(sql.ref('id'), direction);
    const limited =
      from === 'offset'
        ? ids
            .offset(sql<number>`(select skip from plan)`)
            .limit(sql<number>`(select rows from plan)`)
        : ids.limit(sql.lit(EVENT_PAGE_SIZE_MAX));
    // The condition stands outside the walk's limit, so that a walk the plan did not choose is
    // never started (inside, a parallel walk started its workers before testing it).
    return sql`select id from (${limited}) as walk
      where (select walk_descending = ${sql.lit(direction === 'desc')}
        and from_cursor = ${sql.lit(from === 'cursor')}
        ${from === 'cursor' ? sql`` : sql`and (skip = 0) = ${sql.lit(from === 'end')}`} from plan)
      ${from === 'offset' ? sql`` : sql`limit (select rows from plan)`}`;
  };
  const walks = (['desc', 'asc'] as const).flatMap((direction) => [
    walk(direction, 'end'),
    walk(direction, 'offset'),
    ...(parts.cursor ? [walk(direction, 'cursor')] : []),
  ]);
  // The limit takes nothing away (a page holds at most that many rows): the planner cannot know
  // the statement's own limit and would otherwise expect a tenth of the table.
  return sql`${sql.join(
    walks.map((one) => sql`(${one})`),
    sql` union all `,
  )} limit ${sql.lit(EVENT_PAGE_SIZE_MAX)}`;
}

/** Page statement texts by name, each written once. */
const pageTexts = new Map<string, string>();

/**
 * The page statement `name` (its text written by `write` the first time) with `values`. A
 * `prepared` one goes as a named statement, planned once per connection: its best plan does not
 * depend on the values. The others are planned at each call, with the values.
 */
export function pageStatement(
  name: string,
  prepared: boolean,
  write: () => string,
  values: readonly unknown[],
): CompiledQuery {
  let text = pageTexts.get(name);
  if (text === undefined) {
    text = write();
    if (prepared) preparedStatement(name, text);
    pageTexts.set(name, text);
  }
  return CompiledQuery.raw(text, [...values]);
}

/**
 * A page of a page-numbered list, its answer's JSON text: `statement` (a page statement) run,
 * and the total of its count (`pageNumberTotal`, with `matching` for the estimate).
 */
export async function readPageNumbered<T>(
  db: Kysely<Database>,
  statement: CompiledQuery,
  matching: () => Compilable,
  query: PageNumberQuery,
): Promise<JsonText<T>> {
  const { rows } = await db.executeQuery<{ counted: number; data: string }>(statement);
  const { counted, data } = rows[0] ?? { counted: 0, data: '[]' };
  return pageNumberedText(data, await pageNumberTotal(db, counted, matching), query);
}

/** The answer of a page-numbered list around its rows' JSON array `data` (contracts). */
export function pageNumberedText<T>(
  data: string,
  total: PageNumberTotal,
  { page, pageSize }: PageNumberQuery,
): JsonText<T> {
  return jsonText(
    `{"data":${data},"totalCount":${total.totalCount},"totalIsEstimate":${total.totalIsEstimate},"page":${page},"pageSize":${pageSize}}`,
  );
}
