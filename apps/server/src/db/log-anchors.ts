import { EXACT_TOTAL_MAX } from '@console/contracts';
import { sql, type CompiledQuery, type Compilable, type Kysely } from 'kysely';
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
 * came since the build). The page then starts next to the row before it, found from its anchor
 * by skipping fewer than K entries, as the screen's Next does.
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
}

export class LogPageAnchors {
  readonly spacing: number;
  readonly liveMax: number;
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
   * The id of the row at descending position `position` of `log` (0: the newest) in the snapshot
   * of `trx`, with the log's rows; 'stale' when the anchors cannot tell (none yet, another
   * generation, too many newer rows), and a build is then started.
   */
  async rowAt(
    trx: Kysely<Database>,
    log: PageNumberedTable,
    position: (total: number) => number,
  ): Promise<{ id: number | undefined; total: number } | 'stale'> {
    const anchors = this.anchors.get(log);
    const first = anchors?.ids[0];
    if (!anchors || first === undefined) return this.stale(log);
    const state = await readLogState(trx, log, first, this.liveMax);
    if (state.generation !== anchors.generation || state.newer > this.liveMax) {
      return this.stale(log);
    }
    if (state.newer > this.liveMax / 2) this.rebuild(log);
    const total = state.newer + anchors.older;
    const at = position(total);
    if (at < 0 || at >= total) return { id: undefined, total };
    const depth = at - state.newer;
    const id =
      depth < 0
        ? await idAt(trx, log, undefined, at)
        : await idAt(trx, log, anchors.ids[Math.floor(depth / this.spacing)], depth % this.spacing);
    return { id, total };
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
        const last = ids.at(-1);
        const older =
          last === undefined
            ? 0
            : (ids.length - 1) * this.spacing + (await rowsFrom(trx, log, last, this.spacing));
        return { generation, older, ids };
      });
  }

  /**
   * Waits until every transaction that began before now has ended: a writer that read the
   * boundary before it was raised, and did not raise the generation for a row older than it,
   * is then visible to the build's snapshot. Transactions holding an id (any role's) and the
   * transactions of this database that the console's role may see (its own) are waited for.
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
            where datname = current_database() and pid <> pg_backend_pid()
              and xact_start < ${mark.now}::timestamptz) as over
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

/** The log's generation, and its rows newer than the row `first` (up to `max` + 1 counted). */
async function readLogState(
  trx: Kysely<Database>,
  log: PageNumberedTable,
  first: number,
  max: number,
): Promise<{ generation: number; newer: number }> {
  const { table, order } = columns(log);
  const { rows } = await sql<{ generation: number; newer: number }>`
    select (select generation from log_anchor_states where list = ${log}) as generation,
      (select count(*)::integer from (select from ${table}
        where (${order}, id) > (select ${order}, id from ${table} where id = ${first})
        limit ${max + 1}) as newer) as newer
  `.execute(trx);
  const state = rows[0];
  if (!state) throw new Error(`No ${log} state`);
  return state;
}

/**
 * The id `skip` rows past the row `from` (included) newest first, or past the newest row when
 * `from` is undefined.
 */
async function idAt(
  trx: Kysely<Database>,
  log: PageNumberedTable,
  from: number | undefined,
  skip: number,
): Promise<number | undefined> {
  const { table, order } = columns(log);
  const start =
    from === undefined
      ? sql`true`
      : sql`(${order}, id) <= (select ${order}, id from ${table} where id = ${from})`;
  const { rows } = await sql<{ id: number }>`
    select id from ${table} where ${start}
    order by ${order} desc, id desc offset ${skip} limit 1
  `.execute(trx);
  return rows[0]?.id;
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
        where (next.${order}, next.id) < (select last.${order}, last.id from ${table} as last
          where last.id = anchors.id)
        order by next.${order} desc, next.id desc offset ${spacing - 1} limit 1
      )
      from anchors where anchors.id is not null
    )
    select id from anchors where id is not null
  `.execute(trx);
  return rows.map((row) => row.id);
}

/** Rows from the row `from` (included) on, newest first, counted up to `max`. */
async function rowsFrom(
  trx: Kysely<Database>,
  log: PageNumberedTable,
  from: number,
  max: number,
): Promise<number> {
  const { table, order } = columns(log);
  const { rows } = await sql<{ rows: number }>`
    select count(*)::integer as rows from (select from ${table}
      where (${order}, id) <= (select ${order}, id from ${table} where id = ${from})
      limit ${max}) as counted
  `.execute(trx);
  return rows[0]?.rows ?? 0;
}

function columns(log: PageNumberedTable) {
  return { table: sql.table(log), order: sql.ref(ORDER_COLUMNS[log]) };
}

/** What a log's page statement is asked for (features/events, features/audit). */
export interface AnchoredPageRequest {
  log: PageNumberedTable;
  query: PageNumberQuery;
  /** The list's order: newest first, or oldest first. */
  descending: boolean;
  /** The page statement of `query` stepping after the row `after` (the query's `after`). */
  stepAfter: (after: number) => CompiledQuery;
  /** The matching rows, for the total's estimate (`pageNumberTotal`). */
  matching: () => Compilable;
}

/**
 * A page of a whole log (no filter) asked by its number alone, from the anchors: in one
 * snapshot, the row before the page is found from its anchor and the page is read after it by
 * the list's own stepping statement. Undefined when the anchors cannot serve it (a page near the
 * start, no anchors yet, stale ones): the caller reads it by its offset.
 */
export async function readAnchoredPage<T>(
  db: Kysely<Database>,
  request: AnchoredPageRequest,
): Promise<JsonText<T> | undefined> {
  const { log, query, descending, stepAfter, matching } = request;
  const anchors = logAnchorsOf(db);
  const offset = (query.page - 1) * query.pageSize;
  if (offset < anchors.spacing) return undefined;
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      // The row before the page, newest first: for an oldest-first list, the one at `offset`
      // from the newest end.
      const found = await anchors.rowAt(trx, log, (total) =>
        descending ? offset - 1 : total - offset,
      );
      if (found === 'stale') return undefined;
      if (found.id === undefined) {
        const counted = Math.min(found.total, EXACT_TOTAL_MAX + 1);
        return pageNumberedText<T>('[]', await pageNumberTotal(trx, counted, matching), query);
      }
      return readPageNumbered<T>(trx, stepAfter(found.id), matching, query);
    });
}

const perDatabase = new WeakMap<Kysely<Database>, LogPageAnchors>();

/** The log anchors of one database (one Kysely instance), made with the defaults on first use. */
export function logAnchorsOf(db: Kysely<Database>): LogPageAnchors {
  let anchors = perDatabase.get(db);
  if (!anchors) {
    anchors = new LogPageAnchors(db);
    perDatabase.set(db, anchors);
  }
  return anchors;
}

/** Uses `anchors` for `db` from now on (tests: a small spacing). */
export function useLogAnchors(db: Kysely<Database>, anchors: LogPageAnchors): void {
  perDatabase.set(db, anchors);
}
