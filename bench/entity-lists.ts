import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { accessTokenFor, ratio, repoRoot, startConsoleServer } from './lib.ts';

/**
 * Page loads of the two big portal lists (GET /api/Entity, GET /api/EntityUser) at scale (issue 4):
 * seeds a throwaway PostgreSQL database with `seed.ts --scale N` (N = BENCH_ENTITY_SCALE, default
 * 1,000,000), prints the seeding rate, runs VACUUM ANALYZE (index-only counts need the visibility
 * map, see docs/tenants.md), then loads the first, middle and last page and a sorted page of each
 * list with 50 concurrent clients for 5 s: p50/p99 through the HTTP API (as admin, i.e. staff: every
 * tenant), against the same SQL the server runs for that page (REPEATABLE READ transaction, count,
 * then the deferred-join page read from the nearer end) run through `pg` with a 50-client pool,
 * in the same run.
 */

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const PORT = 3221;
const CONNECTIONS = 50;
const DURATION_SECONDS = 5;
const LIMIT = 100;
const LABEL_WIDTH = 48;

interface Latencies {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  errors: number;
}

/** The SQL of one list as listEntities / listEntityUsers compile it (Kysely, PostgreSQL). */
interface ListSql {
  name: string;
  path: string;
  sortParam: string;
  idField: 'partyEntityId' | 'partyUserId';
  idColumn: 'party_entity_id' | 'party_user_id';
  count: string;
  page: (direction: 'asc' | 'desc') => string;
}

const ENTITIES: ListSql = {
  name: 'entities',
  path: '/api/Entity',
  sortParam: '-partyEntityId',
  idField: 'partyEntityId',
  idColumn: 'party_entity_id',
  count: 'select count(*) as "count" from "entities"',
  page: (direction) =>
    `select "e"."party_entity_id", "e"."tenant_id", "e"."names", "e"."country", "t"."company_name" ` +
    `from (select "party_entity_id" from "entities" order by "party_entity_id" ${direction} limit $1 offset $2) as "page" ` +
    `inner join "entities" as "e" on "e"."party_entity_id" = "page"."party_entity_id" ` +
    `inner join "tenants" as "t" on "t"."id" = "e"."tenant_id" ` +
    `order by "e"."party_entity_id" ${direction}`,
};

const ENTITY_USERS: ListSql = {
  name: 'entity users',
  path: '/api/EntityUser',
  sortParam: '-partyUserId',
  idField: 'partyUserId',
  idColumn: 'party_user_id',
  count: 'select count(*) as "count" from "entity_users"',
  page: (direction) =>
    `select "u"."party_user_id", "u"."party_entity_id", "u"."tenant_id", "u"."type", "u"."state", ` +
    `"u"."email", "u"."metadata", "u"."keys", "e"."names" ` +
    `from (select "party_user_id" from "entity_users" order by "party_user_id" ${direction} limit $1 offset $2) as "page" ` +
    `inner join "entity_users" as "u" on "u"."party_user_id" = "page"."party_user_id" ` +
    `inner join "entities" as "e" on "e"."party_entity_id" = "u"."party_entity_id" ` +
    `order by "u"."party_user_id" ${direction}`,
};

interface PageCase {
  label: string;
  offset: number;
  descending: boolean;
}

export async function benchEntityLists(): Promise<void> {
  const scale = Number((process.env.BENCH_ENTITY_SCALE ?? '1000000').replace(/[_,]/g, ''));
  if (!Number.isInteger(scale) || scale <= 0) {
    throw new Error(`BENCH_ENTITY_SCALE must be a positive whole number`);
  }
  const databaseName = `console_bench_${Date.now()}`;
  const databaseUrl = `${ADMIN_URL}/${databaseName}`;
  const admin = new pg.Client({ connectionString: `${ADMIN_URL}/postgres` });
  admin.on('error', (error) => console.error(`bench admin connection: ${error.message}`));
  await admin.connect();
  await admin.query(`create database "${databaseName}"`);
  let consoleServer: Awaited<ReturnType<typeof startConsoleServer>> | undefined;
  let pool: pg.Pool | undefined;
  try {
    const version =
      (await admin.query<{ server_version: string }>('show server_version')).rows[0]
        ?.server_version ?? '?';
    console.log(
      `entity lists: PostgreSQL ${version}, seed --scale ${scale.toLocaleString('en-US')}, ` +
        `limit ${LIMIT}, ${CONNECTIONS} concurrent clients, ${DURATION_SECONDS} s per measurement`,
    );

    const seed = await runSeed(databaseUrl, scale);
    console.log(`  seed         : ${seed.summary}`);
    console.log(
      `                 ${(seed.wallMs / 1000).toFixed(1)} s wall clock for the whole CLI (start, migrations, demo data)`,
    );

    pool = new pg.Pool({ connectionString: databaseUrl, max: CONNECTIONS });
    // A connection that closes while the pool ends must not crash the run.
    pool.on('error', () => undefined);
    const vacuumStarted = performance.now();
    await pool.query('vacuum analyze entities, entity_users');
    console.log(
      `  vacuum       : VACUUM ANALYZE entities, entity_users in ${Math.round(performance.now() - vacuumStarted)} ms`,
    );

    // Direct first, then HTTP: the 50-client pool is closed before the server (20 connections)
    // starts, so the run never holds more than ~51 of PostgreSQL's default 100 connections.
    const cases: { list: ListSql; pageCase: PageCase; ids: string[]; direct: Latencies }[] = [];
    for (const list of [ENTITIES, ENTITY_USERS]) {
      const total = await countRows(pool, list);
      const middle = Math.floor(total / 2);
      const last = Math.max(0, total - LIMIT);
      for (const pageCase of [
        { label: 'first page', offset: 0, descending: false },
        { label: `middle page (offset ${middle})`, offset: middle, descending: false },
        { label: `last page (offset ${last})`, offset: last, descending: false },
        { label: `sorted ${list.sortParam}, first page`, offset: 0, descending: true },
      ]) {
        const ids = await readPageDirect(pool, list, pageCase);
        cases.push({ list, pageCase, ids, direct: await loadDirect(pool, list, pageCase) });
      }
    }
    await pool.end();
    pool = undefined;
    await waitForNoSessions(admin, databaseName);

    consoleServer = await startConsoleServer(PORT, {
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'true',
      SEED_DEMO_DATA: 'false',
      EVENT_WORKERS_ENABLED: 'false',
    });
    const token = await accessTokenFor(consoleServer.url, 'admin@example.com');
    const headers = { authorization: `Bearer ${token}` };
    // The server was just started: warm it (JIT, schemas, pool) before the first measured case.
    await autocannon({
      url: `${consoleServer.url}${ENTITIES.path}`,
      connections: CONNECTIONS,
      duration: 2,
      headers,
    });

    console.log(
      `  ${'case'.padEnd(LABEL_WIDTH)} ${'console p50/p99'.padStart(17)} ${'direct p50/p99'.padStart(17)} ` +
        `${'ratio p50/p99'.padStart(13)}   req/s console/direct, errors`,
    );
    for (const { list, pageCase, ids, direct } of cases) {
      const query = new URLSearchParams({
        offset: String(pageCase.offset),
        limit: String(LIMIT),
        ...(pageCase.descending ? { sort: list.sortParam } : {}),
      });
      const url = `${consoleServer.url}${list.path}?${query}`;
      await checkSamePage(url, headers, list, ids);
      const measured = await loadHttp(url, headers);
      console.log(
        `  ${`${list.name}, ${pageCase.label}`.padEnd(LABEL_WIDTH)} ${pair(measured).padStart(17)} ${pair(direct).padStart(17)} ` +
          `${`${ratio(measured.p50Ms, direct.p50Ms)}/${ratio(measured.p99Ms, direct.p99Ms)}`.padStart(13)}   ` +
          `${measured.requestsPerSecond.toFixed(0)}/${direct.requestsPerSecond.toFixed(0)}, ` +
          `${measured.errors}/${direct.errors}`,
      );
    }
  } finally {
    if (consoleServer) {
      const stopped = consoleServer.stop().then(() => true);
      const timeout = new Promise<boolean>((resolve) => setTimeout(resolve, 30_000, false).unref());
      if (!(await Promise.race([stopped, timeout]))) {
        console.error(`  the console server on port ${PORT} did not stop within 30 s`);
      }
    }
    await pool?.end();
    try {
      await waitForNoSessions(admin, databaseName);
      await admin.query(`drop database if exists "${databaseName}" with (force)`);
    } finally {
      await admin.end();
    }
  }
}

/**
 * Waits (up to 15 s) until no session uses the database: pool.end() resolves before its
 * connections close, and the server's process may still be shutting down after stop().
 */
async function waitForNoSessions(admin: pg.Client, databaseName: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { rows } = await admin.query<{ sessions: number }>(
      'select count(*)::int as sessions from pg_stat_activity where datname = $1',
      [databaseName],
    );
    if (rows[0]?.sessions === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function pair(result: Latencies): string {
  return `${result.p50Ms.toFixed(1)}/${result.p99Ms.toFixed(1)} ms`;
}

/** Runs the seed CLI as `npm run seed -- --scale N` would, and returns its summary line. */
async function runSeed(
  databaseUrl: string,
  scale: number,
): Promise<{ summary: string; wallMs: number }> {
  const started = performance.now();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      'npx',
      ['tsx', 'apps/server/src/db/cli/seed.ts', '--scale', String(scale)],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`seed exited with ${code}:\n${stdout}`)),
    );
  });
  const wallMs = performance.now() - started;
  // "  3,000,123 rows in 41.2 s (72,818 rows/s)": every load-test row (entities, entity users,
  // events, processing rows), timed by the CLI around the inserts only.
  const lines = output.split('\n').map((line) => line.trim());
  const inserted = lines.find((line) => line.startsWith('inserted '));
  const rate = lines.find((line) => / rows in .* rows\/s\)$/.test(line));
  if (!rate) throw new Error(`No seeding rate in the seed output:\n${output}`);
  return { summary: inserted ? `${rate}; ${inserted}` : rate, wallMs };
}

async function countRows(pool: pg.Pool, list: ListSql): Promise<number> {
  return Number((await pool.query<{ count: string }>(list.count)).rows[0]!.count);
}

/** planPage of features/entities/paging.ts: read from the nearer end. */
function planPage(total: number, offset: number, limit: number) {
  const rows = Math.min(limit, total - offset);
  if (rows <= 0) return null;
  const fromEnd = total - offset - rows;
  return fromEnd < offset
    ? { offset: fromEnd, limit: rows, reversed: true }
    : { offset, limit: rows, reversed: false };
}

/**
 * One page as readPage runs it through Kysely's PostgresDriver: a pooled connection, `start
 * transaction isolation level repeatable read`, the count, the page, `commit`. Parameters are
 * passed the way Kysely passes them (an array, empty for the count: simple protocol), and int8 is
 * parsed to a number, as in db/connection.ts. Returns the page's ids in the list's order.
 */
async function readPageDirect(pool: pg.Pool, list: ListSql, pageCase: PageCase): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('start transaction isolation level repeatable read', []);
    const total = Number((await client.query<{ count: string }>(list.count, [])).rows[0]!.count);
    const plan = planPage(total, pageCase.offset, LIMIT);
    let ids: string[] = [];
    if (plan) {
      const direction = pageCase.descending !== plan.reversed ? 'desc' : 'asc';
      const rows = (
        await client.query<Record<string, unknown>>(list.page(direction), [plan.limit, plan.offset])
      ).rows;
      ids = rows.map((row) => String(row[list.idColumn]));
      if (plan.reversed) ids.reverse();
    }
    await client.query('commit', []);
    return ids;
  } catch (error) {
    await client.query('rollback', []).catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The HTTP answer holds the same rows, in the same order, as the direct query's page. */
async function checkSamePage(
  url: string,
  headers: Record<string, string>,
  list: ListSql,
  directIds: string[],
): Promise<void> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { data: Record<string, string>[] };
  const httpIds = body.data.map((row) => row[list.idField]);
  if (httpIds.length === 0 || JSON.stringify(httpIds) !== JSON.stringify(directIds)) {
    throw new Error(
      `GET ${url} and the direct query disagree: ${httpIds.length} rows from ${httpIds[0]}, ` +
        `${directIds.length} rows from ${directIds[0]}`,
    );
  }
}

async function loadHttp(url: string, headers: Record<string, string>): Promise<Latencies> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers,
  });
  return {
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: result.requests.average,
    errors: result.errors + result.non2xx,
  };
}

/** CONNECTIONS loops, each reading the page again as soon as it has it, for DURATION_SECONDS. */
async function loadDirect(pool: pg.Pool, list: ListSql, pageCase: PageCase): Promise<Latencies> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + DURATION_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const requestStarted = performance.now();
        try {
          await readPageDirect(pool, list, pageCase);
          latencies.push(performance.now() - requestStarted);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsedSeconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requestsPerSecond: latencies.length / elapsedSeconds,
    errors,
  };
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}
