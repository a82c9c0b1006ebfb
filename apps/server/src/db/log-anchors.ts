import { EXACT_TOTAL_MAX } from '@console/contracts';
import { sql, type CompiledQuery, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JsonText } from '../http/json-text.ts';
import { BackgroundBuilds, type BackgroundBuildOptions } from './background-builds.ts';
import {
  ORDER_COLUMNS,
  pageNumberedText,
  pageNumberTotal,
  readPageNumbered,
  type PageNumberedTable,
  type PageNumberQuery,
} from './paging.ts';
import { perDatabase } from './per-database.ts';
import type { Database } from './schema.ts';

/**
 * Page anchors of the logs (events, audit log): a page of the whole log asked by its number alone
 * without walking millions of index entries (docs/architecture.md, "Speed").
 *
 * The logs grow at their newest end. A build raises the log's `boundary` (migration 29) to a
 * minute ago, waits until every transaction that began before that is over, and then, in one
 * snapshot, finds the ids at descending positions 0, K, 2K, … among the rows older than the
 * boundary, and how many such rows there are, filed under the log's `generation` in that
 * snapshot. From then on only what the generation counts can change those rows: an insert of a
 * row older than the boundary, a delete, a truncate, an update of an event's time (triggers of
 * migration 29, which compare with the boundary each writing statement reads; the writers that
 * began earlier were waited for). So while a page's snapshot shows the same generation, a row's
 * position among the older rows is what the build found, and its position in the log is that
 * plus the rows newer than the first anchor, which the page counts (a minute's rows, or what
 * came since the build). One statement counts them and finds the row before the page from its
 * anchor (skipping fewer than 2K entries); the page is then read after that row as the screen's
 * Next reads it.
 *
 * Another generation, or more newer rows than `liveMax`, means the anchors are not used (the page
 * walks its offset, as exact) and are rebuilt in the background, one build per log at a time.
 */

export interface LogAnchorOptions extends BackgroundBuildOptions {
  /** K: rows between two anchors, so the most index entries a page skips. */
  spacing?: number;
  /** The most rows newer than the anchors a page counts; past half of it a rebuild starts. */
  liveMax?: number;
  /** How far behind the database's clock a build puts the boundary, in seconds. */
  boundaryLagSeconds?: number;
  /** How long a build waits for the transactions that began before its boundary, in ms. */
  waitMs?: number;
}

/** What a build found: valid in a snapshot that shows the log at `generation`. */
interface Anchors {
  generation: number;
  /** Rows older than the boundary (the first anchor and every row after it, newest first). */
  older: number;
  /** The id at descending position j × K among those rows. */
  ids: number[];
  /** The rows newer than the first anchor, as the last page (or the build) counted them. */
  newerSeen: number;
}

export class LogPageAnchors {
  readonly spacing: number;
  private readonly liveMax: number;
  private readonly boundaryLagSeconds: number;
  private readonly waitMs: number;
  private readonly anchors = new Map<PageNumberedTable, Anchors>();
  private readonly builds: BackgroundBuilds<PageNumberedTable>;

  /** `db`: the database whose logs these are, which the builds read. */
  constructor(
    private readonly db: Kysely<Database>,
    options: LogAnchorOptions = {},
  ) {
    this.spacing = options.spacing ?? 1000;
    this.liveMax = options.liveMax ?? 10 * this.spacing;
    this.boundaryLagSeconds = options.boundaryLagSeconds ?? 60;
    this.waitMs = options.waitMs ?? 60_000;
    this.builds = new BackgroundBuilds('Log page anchors', options);
  }

  /**
   * The row before the page at `offset` of `log` (newest first, or oldest first), found from the
   * anchors by one statement (one snapshot): its id, or none past the end, with the log's rows;
   * 'stale' when the anchors cannot tell (none yet, another generation, too many newer rows),
   * and a build is then started.
   */
  async rowBefore(
    db: Kysely<Database>,
    log: PageNumberedTable,
    offset: number,
    descending: boolean,
  ): Promise<{ id: number | undefined; total: number } | 'stale'> {
    const anchors = this.anchors.get(log);
    if (!anchors || anchors.ids.length === 0) return this.stale(log);
    // Newest first, the row before the page is at position offset - 1, whose place among the older
    // rows depends on how many are newer now: its anchor is chosen a block early from the count
    // the last page saw, so that rows added since move it within reach. Oldest first, it is at
    // `older - offset` among them, whatever came since.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const depth = descending ? offset - 1 - anchors.newerSeen : anchors.older - offset;
      const block = Math.max(0, Math.floor(depth / this.spacing) - (descending ? 1 : 0));
      const index = Math.min(block, anchors.ids.length - 1);
      const located = await locateRow(db, log, {
        anchors,
        anchor: anchors.ids[index]!,
        blockStart: index * this.spacing,
        offset,
        descending,
        max: this.liveMax,
      });
      if (located.generation !== anchors.generation || located.newer > this.liveMax) {
        return this.stale(log);
      }
      anchors.newerSeen = located.newer;
      if (located.newer > this.liveMax / 2) this.rebuild(log);
      const total = located.newer + anchors.older;
      if (located.at < 0 || located.at >= total) return { id: undefined, total };
      if (located.id !== null) return { id: located.id, total };
      // More rows came since the last page than a block: once more from the new count.
    }
    return 'stale';
  }

  /** Resolves when no build is running (tests, and the bench before it measures). */
  settled(): Promise<void> {
    return this.builds.settled();
  }

  private stale(log: PageNumberedTable): 'stale' {
    this.rebuild(log);
    return 'stale';
  }

  private rebuild(log: PageNumberedTable): void {
    this.builds.start(log, async () => void this.anchors.set(log, await this.build(log)));
  }

  private async build(log: PageNumberedTable): Promise<Anchors> {
    const boundary = await raiseBoundary(this.db, log, this.boundaryLagSeconds);
    await this.waitForEarlierTransactions();
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const { generation } = await trx
          .selectFrom('log_anchor_states')
          .select('generation')
          .where('list', '=', log)
          .executeTakeFirstOrThrow();
        const ids = await anchorIds(trx, log, boundary, this.spacing);
        const first = ids[0];
        const last = ids.at(-1);
        if (first === undefined || last === undefined) {
          return { generation, older: 0, ids, newerSeen: 0 };
        }
        const { rows } = await sql<{ tail: number; newer: number }>`
          select ${countBeside(log, '<=', last, this.spacing)} as tail,
            ${countBeside(log, '>', first, this.liveMax + 1)} as newer
        `.execute(trx);
        const { tail, newer } = rows[0] ?? { tail: 0, newer: 0 };
        return { generation, older: (ids.length - 1) * this.spacing + tail, ids, newerSeen: newer };
      });
  }

  /**
   * Waits until every transaction that began before now has ended: a writer that read the
   * boundary before it was raised, and did not raise the generation for a row older than it,
   * is then visible to the build's snapshot. Transactions holding an id (any role's) and the
   * clients' transactions in this database that the console's role may see (its own) are waited
   * for; not autovacuum's, which writes no rows and may run for minutes.
   */
  private async waitForEarlierTransactions(): Promise<void> {
    const { rows } = await sql<{ xmax: string; now: string }>`
      select pg_snapshot_xmax(pg_current_snapshot())::text as xmax, clock_timestamp()::text as now
    `.execute(this.db);
    const mark = rows[0];
    if (!mark) throw new Error('No snapshot to wait from');
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const { rows: done } = await sql<{ over: boolean }>`
        select pg_snapshot_xmin(pg_current_snapshot()) >= ${mark.xmax}::xid8
          and not exists (select from pg_stat_activity
            where datname = current_database() and backend_type = 'client backend'
              and pid <> pg_backend_pid() and xact_start < ${mark.now}::timestamptz) as over
      `.execute(this.db);
      if (done[0]?.over) return;
      if (Date.now() > deadline) {
        throw new Error(
          `A transaction older than the anchors' boundary ran over ${this.waitMs} ms`,
        );
      }
      await sleep(20);
    }
  }
}

/** The log's boundary raised to `lagSeconds` behind the database's clock (never lowered). */
async function raiseBoundary(
  db: Kysely<Database>,
  log: PageNumberedTable,
  lagSeconds: number,
): Promise<Date> {
  // Whole milliseconds, so that the boundary goes through a JavaScript Date unchanged.
  const { boundary } = await db
    .updateTable('log_anchor_states')
    .set({
      boundary: sql<Date>`greatest(boundary,
        date_trunc('milliseconds', now() - make_interval(secs => ${lagSeconds})))`,
    })
    .where('list', '=', log)
    .returning('boundary')
    .executeTakeFirstOrThrow();
  if (!boundary) throw new Error(`The ${log} boundary was not raised`);
  return boundary;
}

/** Where `locateRow` looks: from which anchor, for which page. */
interface RowSearch {
  anchors: Anchors;
  /** The anchor to walk from, and its position among the older rows. */
  anchor: number;
  blockStart: number;
  offset: number;
  descending: boolean;
  /** The most newer rows counted (`liveMax`). */
  max: number;
}

/**
 * One statement: the log's generation, its rows newer than the first anchor (up to `max` + 1),
 * the position `at` (newest first) of the row before the page, and that row's id: walked from
 * the newest row when it is among the newer rows, else from `anchor` when it lies at or after
 * it; null when the generation is another, or the row lies before the anchor.
 */
async function locateRow(
  db: Kysely<Database>,
  log: PageNumberedTable,
  search: RowSearch,
): Promise<{ generation: number; newer: number; at: number; id: number | null }> {
  const { table, order } = columns(log);
  const { anchors, anchor, blockStart, offset, descending, max } = search;
  const [first] = anchors.ids;
  if (first === undefined) throw new Error(`No ${log} anchors`);
  const { rows } = await sql<{ generation: number; newer: number; at: number; id: number | null }>`
    with state as (
      select (select generation from log_anchor_states where list = ${log}) as generation,
        ${countBeside(log, '>', first, max + 1)} as newer
    ),
    place as (
      select generation, newer,
        case when ${descending}::boolean then ${offset}::bigint - 1
          else newer + ${anchors.older}::bigint - ${offset}::bigint end as at
      from state
    )
    select generation, newer, at,
      case when generation <> ${anchors.generation}::bigint or newer > ${max}::integer
          or at < 0 or at >= newer + ${anchors.older}::bigint then null
        when at < newer then (select id from ${table} order by ${order} desc, id desc
          offset at limit 1)
        when at - newer >= ${blockStart}::bigint then (select id from ${table}
          where (${order}, id) <= ${keyOf(log, anchor)}
          order by ${order} desc, id desc offset at - newer - ${blockStart}::bigint limit 1)
      end as id
    from place
  `.execute(db);
  const located = rows[0];
  if (!located) throw new Error(`No ${log} state`);
  return located;
}

/**
 * The ids at descending positions 0, K, 2K, … among the rows older than `boundary`: each step
 * skips K index entries from the last anchor (index-only).
 */
async function anchorIds(
  trx: Kysely<Database>,
  log: PageNumberedTable,
  boundary: Date,
  spacing: number,
): Promise<number[]> {
  const { table, order } = columns(log);
  const { rows } = await sql<{ id: number }>`
    with recursive anchors (id) as (
      (select id from ${table} where ${order} < ${boundary} order by ${order} desc, id desc limit 1)
      union all
      select (
        select next.id from ${table} as next
        where (next.${order}, next.id) < ${keyOf(log, sql.ref('anchors.id'))}
        order by next.${order} desc, next.id desc offset ${spacing - 1} limit 1
      )
      from anchors where anchors.id is not null
    )
    select id from anchors where id is not null
  `.execute(trx);
  return rows.map((row) => row.id);
}

/**
 * The rows on one side of the row `id`, counted up to `limit`: '>' the newer ones, '<=' it and
 * the older ones.
 */
function countBeside(log: PageNumberedTable, side: '>' | '<=', id: number, limit: number) {
  const { table, order } = columns(log);
  return sql<number>`(select count(*)::integer from (select from ${table}
    where (${order}, id) ${sql.raw(side)} ${keyOf(log, id)} limit ${limit}) as counted)`;
}

/** The key (time and id) of the row `id`, as a row subquery to compare keys with. */
function keyOf(log: PageNumberedTable, id: number | RawBuilder<number>) {
  const { table, order } = columns(log);
  return sql`(select ${order}, id from ${table} where id = ${id})`;
}

function columns(log: PageNumberedTable) {
  return { table: sql.table(log), order: sql.ref(ORDER_COLUMNS[log]) };
}

/** A page of a log (features/events, features/audit), as its list asks for it. */
export interface LogPageRequest {
  log: PageNumberedTable;
  query: PageNumberQuery;
  /** No filter applies: the page is of the whole log, which the anchors serve. */
  whole: boolean;
  /** The list's order: newest first, or oldest first. */
  descending: boolean;
  /** The page statement of `query`. */
  statement: () => CompiledQuery;
  /** The page statement of `query` stepping after the row `after` (the query's `after`). */
  stepAfter: (after: number) => CompiledQuery;
  /** The matching rows, for the total's estimate (`pageNumberTotal`). */
  matching: () => Compilable;
}

/**
 * A page of a log (`readPageNumbered`). One of the whole log asked by its number alone, deep
 * enough, is read from the anchors: the row before the page is found from its anchor
 * (`rowBefore`), and the page is read after it by the list's own stepping statement, as Next
 * reads it. Two snapshots, as two requests of the screen would be: the page holds the rows after
 * the row that was at its offset a moment before. Every other page, and one the anchors cannot
 * serve (none yet, stale ones), is read by the page statement, walking its offset.
 */
export async function readLogPage<T>(
  db: Kysely<Database>,
  request: LogPageRequest,
): Promise<JsonText<T>> {
  const { log, query, whole, descending, statement, stepAfter, matching } = request;
  const anchors = logAnchorsOf(db);
  const offset = (query.page - 1) * query.pageSize;
  const stepped = query.after !== undefined || query.before !== undefined;
  if (whole && !stepped && offset >= anchors.spacing) {
    const found = await anchors.rowBefore(db, log, offset, descending);
    if (found !== 'stale') {
      if (found.id !== undefined) {
        return readPageNumbered<T>(db, stepAfter(found.id), matching, query);
      }
      // Past the end: no rows, and the total as the statement would count it.
      const counted = Math.min(found.total, EXACT_TOTAL_MAX + 1);
      return pageNumberedText<T>('[]', await pageNumberTotal(db, counted, matching), query);
    }
  }
  return readPageNumbered<T>(db, statement(), matching, query);
}

const anchorsOfDatabases = perDatabase((db) => new LogPageAnchors(db));

/** The anchors of one database (one Kysely instance), made with the defaults on first use. */
export const logAnchorsOf = anchorsOfDatabases.of;

/** Uses other anchors for a database from now on (tests: a small spacing). */
export const useLogAnchors = anchorsOfDatabases.use;
