import type { CompiledQuery, Kysely } from 'kysely';
import pg from 'pg';
import { Pool as UndiciPool } from 'undici';
import { auditListQuerySchema, eventListQuerySchema } from '@console/contracts';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/connection.ts';
import { logAnchorsOf } from '../apps/server/src/db/log-anchors.ts';
import { migrateTo } from '../apps/server/src/db/migrator.ts';
import type { Database } from '../apps/server/src/db/schema.ts';
import { listAudit } from '../apps/server/src/features/audit/queries.ts';
import { listEvents } from '../apps/server/src/features/events/queries.ts';
import { parseJsonText } from '../apps/server/src/http/json-text.ts';
import { pruneOnce } from '../apps/server/src/outbox/retention.ts';
import {
  accessTokenFor,
  adminQuery,
  benchPostgresUrl,
  httpLoops,
  loopSummary,
  ratio,
  recordQueries,
  verdict,
  type LoopSummary,
} from './lib.ts';
import { int8AsNumber, positiveIntFromEnv, sqlLoops, startServer } from './events.ts';

const CLIENTS = 20;
const PAGE_SIZE = 25;
const MINUTES_PER_DAY = 24 * 60;
/** The events list as staff read it. */
const ALL = { kind: 'all' } as const;

type List = 'audit' | 'events';

/** A page of one of the lists, as its screen asks for it. */
interface ListPage {
  list: List;
  params: Record<string, string>;
  /** Asked as Next asks: after the last row of the page before (else by its number alone). */
  next?: boolean;
}

/** What each measurement needs: the throwaway database and the server on it. */
interface Bench {
  handle: DatabaseHandle;
  pool: pg.Pool;
  http: UndiciPool;
  headers: Record<string, string>;
  serverUrl: string;
  rows: number;
  durationSeconds: number;
}

/**
 * The audit log and the events list at scale (issue 31, parts 6 and 7), in a throwaway database:
 * BENCH_AUDIT_ROWS (default 10^7) audit rows and as many events with their workers' records,
 * written by generate_series in SQL into the bare tables, their indexes built afterwards (minutes,
 * not hours), VACUUM ANALYZE, then:
 *
 * (a) for each page under 20 connections for BENCH_AUDIT_DURATION (default 5) s: GET /api/audit or
 *     /api/events against the product's own SQL (listAudit / listEvents run once on a recording
 *     Kysely) replayed through `pg`. The pages: the first; the middle of the whole list (5,000,000
 *     rows deep at 10^7) as the screen's Next asks for it (after the last row of the page before)
 *     and by its number alone (the API's random access, from the logs' page anchors once the
 *     server has built them: `untilAnchored`); filtered first pages. Prints p99 both ways and the
 *     ratios, the plan of each page, and the targets: the first and the deep pages p99 ≤ 100 ms
 *     and ≤ 1.5x the SQL; a filtered page index-backed (no sequential scan of the log).
 * (b) retention: both lists' first pages (10 connections each) idle for as long, then while
 *     pruneOnce (outbox/retention.ts, the server's own pruning) deletes the oldest BENCH_RETENTION_EVENTS
 *     (default 10^6, at most a tenth of the events) processed events. Prints each list's p99 idle
 *     and while pruning (target: ≤ 2x idle).
 *
 * Smoke it small: BENCH_AUDIT_ROWS=20000.
 */
export async function benchAuditLog(): Promise<void> {
  const rows = positiveIntFromEnv('BENCH_AUDIT_ROWS', 10_000_000);
  const durationSeconds = positiveIntFromEnv('BENCH_AUDIT_DURATION', 5);
  const adminUrl = `${await benchPostgresUrl()}/postgres`;
  const name = `console_bench_audit_${Date.now()}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();

  let handle: DatabaseHandle | undefined;
  let pool: pg.Pool | undefined;
  let http: UndiciPool | undefined;
  let server: { url: string; stop: () => Promise<void> } | undefined;
  await adminQuery(adminUrl, `create database ${name}`);
  try {
    handle = openDatabase(databaseUrl);
    await migrateTo(handle.db);
    const benchPool = new pg.Pool({ connectionString: databaseUrl, max: 20, types: int8AsNumber });
    benchPool.on('error', () => undefined);
    pool = benchPool;

    const loadStarted = performance.now();
    await fillAuditLogAndEvents(benchPool, rows);
    await benchPool.query('vacuum analyze audit_log, events, processed_events');
    const loadSeconds = (performance.now() - loadStarted) / 1000;

    server = await startServer(3241, {
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'false',
      SEED_DEMO_DATA: 'false',
      EVENT_WORKERS_ENABLED: 'false',
      SMTP_CATCHER_PORT: '0',
      // The events go 19 years back: the server's own pruning (a minute after start) would delete
      // nearly all of them. The bench prunes when it measures that (listsWhilePruning).
      EVENT_RETENTION_DAYS: '36500',
    });
    const token = await accessTokenFor(server.url, 'admin@example.com');
    http = new UndiciPool(server.url, { connections: CLIENTS });
    const bench: Bench = {
      handle,
      pool: benchPool,
      http,
      headers: { authorization: `Bearer ${token}` },
      serverUrl: server.url,
      rows,
      durationSeconds,
    };

    console.log(
      `audit log and events at scale: ${rows} audit rows and ${rows} events (load ${loadSeconds.toFixed(1)} s, vacuum analyze), ${CLIENTS} connections, ${durationSeconds} s`,
    );
    for (const page of benchPages(rows)) await comparePage(bench, page);
    await listsWhilePruning(bench);
  } finally {
    await http?.close();
    await server?.stop();
    await pool?.end();
    await handle?.close();
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  }
}

/**
 * The pages measured: each list's first page, its middle page (as deep as a page gets from either
 * end) reached by Next as the screen asks for it and by its number alone as the API allows, and
 * filtered first pages.
 */
function benchPages(rows: number): ListPage[] {
  const first = { page: '1', pageSize: String(PAGE_SIZE) };
  const middle = { ...first, page: String(Math.max(2, Math.ceil(rows / PAGE_SIZE / 2))) };
  return [
    { list: 'audit', params: first },
    { list: 'audit', params: middle, next: true },
    { list: 'audit', params: middle },
    { list: 'audit', params: { ...first, actor: 'user7@example.com', action: 'update' } },
    { list: 'audit', params: { ...first, targetType: 'Tenant', targetId: '40000' } },
    { list: 'audit', params: { ...first, q: 'record 4242' } },
    { list: 'events', params: first },
    { list: 'events', params: middle, next: true },
    { list: 'events', params: middle },
    { list: 'events', params: { ...first, erroredOnly: 'true' } },
    { list: 'events', params: { ...first, eventName: 'benchevent3', unprocessedOnly: 'true' } },
  ];
}

function pathOf({ list, params }: ListPage): string {
  return `/api/${list === 'audit' ? 'audit' : 'events'}?${new URLSearchParams(params).toString()}`;
}

interface ListAnswer {
  totalCount: number;
  totalIsEstimate: boolean;
  data: { id: number }[];
}

async function fetchPage(bench: Bench, page: ListPage): Promise<ListAnswer> {
  const target = pathOf(page);
  const response = await fetch(`${bench.serverUrl}${target}`, { headers: bench.headers });
  if (!response.ok) throw new Error(`GET ${target} answered ${response.status}`);
  return (await response.json()) as ListAnswer;
}

/**
 * `page` as Next asks for it: after the last row of the page before, which is read once by its
 * number; the step must answer the rows the number does.
 */
async function stepToPage(bench: Bench, page: ListPage): Promise<ListPage> {
  const number = Number(page.params.page);
  const before = await fetchPage(bench, {
    ...page,
    params: { ...page.params, page: String(number - 1) },
  });
  const after = before.data.at(-1)?.id;
  if (after === undefined) throw new Error(`${pathOf(page)}: the page before is empty`);
  const stepped = { ...page, params: { ...page.params, after: String(after) } };
  const [byStep, byNumber] = await Promise.all([fetchPage(bench, stepped), fetchPage(bench, page)]);
  if (byStep.data.map((row) => row.id).join() !== byNumber.data.map((row) => row.id).join()) {
    throw new Error(`${pathOf(stepped)} and ${pathOf(page)} disagree`);
  }
  return stepped;
}

/**
 * Asks for `page` until the server answers it within 100 ms three times in a row (at most two
 * minutes): its first deep page by number had it build the log's page anchors in the background
 * (a few seconds at 10^7 rows), and the measurement is of the steady state.
 */
async function untilAnchored(bench: Bench, page: ListPage): Promise<void> {
  const deadline = performance.now() + 120_000;
  for (let fast = 0; fast < 3 && performance.now() < deadline;) {
    const started = performance.now();
    await fetchPage(bench, page);
    fast = performance.now() - started <= 100 ? fast + 1 : 0;
    if (fast === 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The page through the console and its own SQL through `pg`, under CLIENTS loops each. */
async function comparePage(bench: Bench, asked: ListPage): Promise<void> {
  const { pool, http, headers, durationSeconds } = bench;
  const page = asked.next ? await stepToPage(bench, asked) : asked;
  const target = pathOf(page);
  // A page of a whole log by its number is served by the server's page anchors once built.
  if (!isFiltered(page) && !asked.next) await untilAnchored(bench, page);
  const answer = await fetchPage(bench, page);
  // The product's own statements for this page, and the ids it answered: for a deep page by its
  // number, what a warm server sends, from the logs' page anchors (db/log-anchors.ts).
  const readPage = async (db: Kysely<Database>): Promise<{ data: { id: number }[] }> =>
    page.list === 'audit'
      ? parseJsonText(await listAudit(db, auditListQuerySchema.parse(page.params)))
      : parseJsonText(await listEvents(db, eventListQuerySchema.parse(page.params), ALL));
  const { statements, result } = await recordQueries(pool, readPage, async (db) => {
    await readPage(db);
    await logAnchorsOf(db).settled();
  });
  const same =
    answer.data.map((item) => item.id).join() === result.data.map((item) => item.id).join();
  if (!same) throw new Error(`GET ${target} and the SQL baseline disagree`);

  await sqlLoops(pool, statements, CLIENTS, 1); // warm-up
  const baseline = await sqlLoops(pool, statements, CLIENTS, durationSeconds);
  await httpLoops(http, target, headers, CLIENTS, 1); // warm-up
  const measured = loopSummary(await httpLoops(http, target, headers, CLIENTS, durationSeconds));
  console.log(
    `  ${target} (totalCount ${answer.totalIsEstimate ? 'about ' : ''}${answer.totalCount})`,
  );
  console.log(
    `    pg, same SQL : p50 ${baseline.p50Ms.toFixed(1)} ms, p99 ${baseline.p99Ms.toFixed(1)} ms, ${baseline.requestsPerSecond.toFixed(0)} pages/s`,
  );
  console.log(
    `    console      : p50 ${measured.p50Ms.toFixed(1)} ms, p99 ${measured.p99Ms.toFixed(1)} ms, ${measured.requestsPerSecond.toFixed(0)} req/s, errors ${measured.errors}`,
  );
  const scans = await planScans(pool, statements);
  // The targets (part 6): the first and a deep page of each list p99 ≤ 100 ms and ≤ 1.5x
  // the SQL; every filter index-backed (its p99 and ratio printed too).
  const goal = isFiltered(page)
    ? `index-backed: ${verdict(scans.length > 0 && !scans.some((scan) => /Seq Scan on (audit_log|events)\b/.test(scan)))}`
    : `p99 ≤ 100 ms and ≤ 1.5x: ${verdict(measured.p99Ms <= 100 && measured.p99Ms <= 1.5 * baseline.p99Ms)}`;
  console.log(
    `    ratio        : p99 ${ratio(measured.p99Ms, baseline.p99Ms)}x, throughput ${ratio(measured.requestsPerSecond, baseline.requestsPerSecond)}x`,
  );
  console.log(`    plan         : ${scans.join('; ')}`);
  console.log(`    target       : ${goal}`);
}

/** Whether `page` asks for a filter (anything but its number, size and step). */
function isFiltered({ params }: ListPage): boolean {
  return Object.keys(params).some(
    (name) => !['page', 'pageSize', 'after', 'before'].includes(name),
  );
}

/**
 * The scans of the plan of the statement that reads the page's rows (in the list's order; the
 * last such: an anchored page first finds the row before it), each once.
 */
async function planScans(pool: pg.Pool, statements: readonly CompiledQuery[]): Promise<string[]> {
  const read = statements
    .filter((statement) => /order by "?(occurred_at|created_at)"?/.test(statement.sql))
    .at(-1);
  if (!read) return [];
  const plan = await pool.query<{ 'QUERY PLAN': string }>(`explain (costs off) ${read.sql}`, [
    ...read.parameters,
  ]);
  const lines = plan.rows.map((row) => row['QUERY PLAN']);
  return [...new Set(lines.filter((line) => /Scan/.test(line)).map((line) => line.trim()))];
}

/**
 * Both lists' first pages, half of CLIENTS loops each, idle for durationSeconds, then while the
 * server's pruning deletes the oldest processed events: each list's p99 both times.
 */
async function listsWhilePruning(bench: Bench): Promise<void> {
  const { rows, durationSeconds } = bench;
  const target = Math.min(
    positiveIntFromEnv('BENCH_RETENTION_EVENTS', 1_000_000),
    Math.floor(rows / 10),
  );
  const older = oldestHolding(target);
  const first = { page: '1', pageSize: String(PAGE_SIZE) };
  const paths = [
    pathOf({ list: 'events', params: first }),
    pathOf({ list: 'audit', params: first }),
  ];
  const bothLists = (duration: number | (() => boolean)) =>
    Promise.all(
      paths.map(async (path) =>
        loopSummary(await httpLoops(bench.http, path, bench.headers, CLIENTS / 2, duration)),
      ),
    );

  await bothLists(1); // warm-up
  const idle = await bothLists(durationSeconds);
  let pruning = true;
  const started = performance.now();
  // Event n is rows - n minutes old (fillAuditLogAndEvents): the first `older` are past the cutoff.
  const pruned = pruneOnce(bench.handle.db, {
    eventRetentionDays: (rows - older) / MINUTES_PER_DAY - 0.5 / MINUTES_PER_DAY,
    auditRetentionDays: undefined,
  }).finally(() => (pruning = false));
  const during = await bothLists(() => pruning);
  const { events } = await pruned;
  const seconds = (performance.now() - started) / 1000;

  console.log(
    `retention: ${events} processed events pruned in ${seconds.toFixed(1)} s (${(events / seconds).toFixed(0)}/s, batches of 1,000), both lists' first pages meanwhile, ${CLIENTS / 2} connections each`,
  );
  paths.forEach((path, index) => printWhilePruning(path, idle[index], during[index]));
}

function printWhilePruning(
  path: string,
  idle: LoopSummary | undefined,
  during: LoopSummary | undefined,
): void {
  if (!idle || !during) return;
  const times = during.p99Ms / idle.p99Ms;
  console.log(
    `  ${path}: p99 idle ${idle.p99Ms.toFixed(1)} ms, while pruning ${during.p99Ms.toFixed(1)} ms (${during.requestsPerSecond.toFixed(0)} req/s, errors ${during.errors}); ratio ${ratio(during.p99Ms, idle.p99Ms)}x; target ≤ 2x: ${verdict(times <= 2 && during.errors === 0)}`,
  );
}

/** How many of the oldest events (n = 1, 2, …) hold `processed` processed ones. */
function oldestHolding(processed: number): number {
  let held = 0;
  let n = 0;
  while (held < processed) {
    n += 1;
    if (isProcessed(n)) held += 1;
  }
  return n;
}

/** The events fillAuditLogAndEvents writes processed: not 1 in 20 (waiting) nor 1 in 97 (failed). */
function isProcessed(n: number): boolean {
  return n % 20 !== 0 && n % 97 !== 0;
}

/**
 * `rows` audit rows (50 actors, 6 actions, 8 target types, 100,000 target ids: the ids of the
 * n-th type are those that leave n - 1 divided by 8, so Tenant 40000 exists; 5 tenants and none;
 * one a minute back from now) and `rows` events (10 names, 1 in 20 waiting, 1 in 97 failed; each
 * processed or failed one with both workers' records, as the workers leave them), in chunks of a
 * million rows per statement so that no statement runs for long.
 */
async function fillAuditLogAndEvents(pool: pg.Pool, rows: number): Promise<void> {
  const secondaryIndexes = await dropSecondaryIndexes(pool, [
    'audit_log',
    'events',
    'processed_events',
  ]);
  await insertRows(pool, rows);
  await recreateIndexes(pool, secondaryIndexes);
}

/**
 * Drops the tables' indexes that no constraint owns and returns their definitions: 10^7 rows load
 * in minutes into bare tables, where keeping a dozen indexes row by row took most of an hour. The
 * indexes built afterwards are the migrations' own (their definitions, as pg_indexes gives them).
 */
async function dropSecondaryIndexes(pool: pg.Pool, tables: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes
     where schemaname = 'public' and tablename = any($1)
       and indexname not in (select conname from pg_constraint)`,
    [tables],
  );
  for (const index of rows) await pool.query(`drop index ${pg.escapeIdentifier(index.indexname)}`);
  return rows.map((index) => index.indexdef);
}

async function recreateIndexes(pool: pg.Pool, definitions: string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`set maintenance_work_mem = '1GB'`);
    for (const definition of definitions) await client.query(definition);
  } finally {
    client.release();
  }
}

async function insertRows(pool: pg.Pool, rows: number): Promise<void> {
  const chunk = 1_000_000;
  for (let from = 1; from <= rows; from += chunk) {
    const to = Math.min(rows, from + chunk - 1);
    await pool.query(
      `insert into audit_log (event_id, event_name, tenant_id, actor, action, before, after,
         metadata, occurred_at, target_type, target_id, target_name)
       select n, 'Bench' || (n % 10),
         case when n % 6 = 0 then null else n % 5 + 1 end,
         'user' || (n % 50) || '@example.com',
         (array['create','update','delete','import','sign-in','send'])[n % 6 + 1],
         jsonb_build_object('name', 'Record ' || (n % 100000), 'tags', jsonb_build_array('a', 'b')),
         jsonb_build_object('name', 'Record ' || (n % 100000) || ' renamed', 'tags', jsonb_build_array('a')),
         '{}'::jsonb,
         now() - (($2::bigint - n) * interval '1 minute'),
         (array['Tenant','DocumentType','Country','Form','FormField','EmailTemplate','TenantUser','Session'])[n % 8 + 1],
         (n % 100000)::text,
         'Record ' || (n % 100000)
       from generate_series($1::bigint, $3::bigint) as n`,
      [from, rows, to],
    );
    // Event n has id n: the events table is new, and its sequence starts at 1.
    await pool.query(
      `insert into events (id, event_name, tenant_id, entity_id, unique_id, created_at, metadata,
         is_processed, has_error)
       select n, 'BenchEvent' || (n % 10), n % 5 + 1, null, 'bench-' || n,
         now() - (($2::bigint - n) * interval '1 minute'), '{"actor":"bench@example.com"}'::jsonb,
         n % 20 <> 0 and n % 97 <> 0, n % 20 <> 0 and n % 97 = 0
       from generate_series($1::bigint, $3::bigint) as n`,
      [from, rows, to],
    );
    await pool.query(
      `insert into processed_events (event_id, worker_name, has_error, error_message,
         processed_at, attempts)
       select n, worker, n % 97 = 0 and worker = 'notifications',
         case when n % 97 = 0 and worker = 'notifications' then 'SMTP connection refused' end,
         case when n % 97 = 0 and worker = 'notifications' then null
           else now() - (($2::bigint - n) * interval '1 minute') end,
         1
       from generate_series($1::bigint, $3::bigint) as n,
         unnest(array['audit-trail', 'notifications']) as worker
       where n % 20 <> 0`,
      [from, rows, to],
    );
  }
  await pool.query(`select setval('events_id_seq', $1)`, [rows]);
}
