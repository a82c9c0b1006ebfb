import { spawn } from 'node:child_process';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { Pool as UndiciPool } from 'undici';
import { pageAnchorsOf } from '../apps/server/src/db/page-anchors.ts';
import { migrations } from '../apps/server/src/db/migrations/index.ts';
import type { Database } from '../apps/server/src/db/schema.ts';
import { readStaffOverview } from '../apps/server/src/features/overview/queries.ts';
import { listEntities } from '../apps/server/src/features/entities/queries.ts';
import { listEntityUsers } from '../apps/server/src/features/entity-users/queries.ts';
import { parseJsonText } from '../apps/server/src/http/json-text.ts';
import {
  accessTokenFor,
  benchPostgresUrl,
  httpLoops,
  latencyPair,
  loopSummary,
  median,
  percentile,
  type LoopSummary,
  ratio,
  recordQueries,
  replayLoops,
  repoRoot,
  startConsoleServer,
  verdict,
} from './lib.ts';

/**
 * Page loads of the two big portal lists (GET /api/Entity, GET /api/EntityUser) at scale: seeds a
 * database of the bench's embedded PostgreSQL with `seed --scale N` (N = BENCH_ENTITY_SCALE,
 * default 1,000,000), prints the seeding rate, runs VACUUM ANALYZE on the database (index-only walks
 * need the visibility map, see docs/tenants.md; and autovacuum must not be busy with the seeded
 * events while the bench measures), then loads the first page and page 5,000 (limit 100) of
 * each list with 50 concurrent clients for 5 s: p50/p99 through the HTTP API (as admin, i.e.
 * staff: every tenant), against the same SQL run through `pg` with a 50-client pool. Both sides
 * are measured alike (lib.ts closedLoops): 50 loops, each sending its next request once it has
 * read the answer, the HTTP side through undici with a connection per loop. autocannon measured
 * the HTTP side at first: its rounds had 100-450 ms answers at their start and in bursts that
 * the server never saw (its own longest request took 38 ms), which decided the p99s. The two
 * sides alternate, 5 rounds each, and each side's figure is the median of its rounds: the cores
 * are shared, and a run that measured one side after the other put any change in the machine's
 * speed between them onto the ratio. That SQL is the product's own: listEntities /
 * listEntityUsers run once on a Kysely that records every statement (one per page), which the
 * baseline then replays, prepared as the server prepares it.
 * Deep pages are measured with the lists' page anchors built, in the server and for the baseline.
 * Targets: p99 ≤ 100 ms and ≤ 1.5x the baseline's; totalCount equal to count(*). Then the dashboard
 * overview on the same database (benchOverview).
 */

const PORT = 3221;
const CONNECTIONS = 50;
const DURATION_SECONDS = 5;
const LIMIT = 100;
const DEEP_PAGE = 5_000;
const LABEL_WIDTH = 40;
/**
 * Alternating measurements of each side per case (see loadAlternately). Five, not three: with
 * three, the ratio of one case moved between 1.0 and 1.85 over runs of unchanged code.
 */
const ROUNDS = 5;

interface ListCase {
  name: string;
  path: string;
  table: 'entities' | 'entity_users';
  idField: 'partyEntityId' | 'partyUserId';
  /** The product's query of one page (its feature's queries.ts). */
  read(db: Kysely<Database>, offset: number): Promise<{ data: unknown[]; totalCount: number }>;
}

const query = (offset: number) => ({ offset, limit: LIMIT, tenantId: undefined });
const LISTS: ListCase[] = [
  {
    name: 'entities',
    path: '/api/Entity',
    table: 'entities',
    idField: 'partyEntityId',
    read: async (db, offset) =>
      parseJsonText(await listEntities(db, undefined, { ...query(offset), sort: 'partyEntityId' })),
  },
  {
    name: 'entity users',
    path: '/api/EntityUser',
    table: 'entity_users',
    idField: 'partyUserId',
    read: async (db, offset) =>
      parseJsonText(
        await listEntityUsers(db, undefined, { ...query(offset), sort: 'partyUserId' }),
      ),
  },
];

export async function benchEntityLists(): Promise<void> {
  const scale = Number((process.env.BENCH_ENTITY_SCALE ?? '1000000').replace(/[_,]/g, ''));
  if (!Number.isInteger(scale) || scale <= 0) {
    throw new Error(`BENCH_ENTITY_SCALE must be a positive whole number`);
  }
  const adminUrl = await benchPostgresUrl();
  const databaseName = `console_bench_${Date.now()}`;
  const databaseUrl = `${adminUrl}/${databaseName}`;
  const admin = new pg.Client({ connectionString: `${adminUrl}/postgres` });
  admin.on('error', (error) => console.error(`bench admin connection: ${error.message}`));
  await admin.connect();
  await admin.query(`create database "${databaseName}"`);
  let consoleServer: Awaited<ReturnType<typeof startConsoleServer>> | undefined;
  let pool: pg.Pool | undefined;
  let http: UndiciPool | undefined;
  try {
    const version =
      (await admin.query<{ server_version: string }>('show server_version')).rows[0]
        ?.server_version ?? '?';
    console.log(
      `entity lists: embedded PostgreSQL ${version}, seed --scale ${scale.toLocaleString('en-US')}, ` +
        `limit ${LIMIT}, ${CONNECTIONS} concurrent clients, ${DURATION_SECONDS} s per measurement, ` +
        `median of ${ROUNDS} alternating rounds`,
    );

    const seed = await runSeed(databaseUrl, scale);
    console.log(`  seed         : ${seed.summary}`);
    console.log(
      `                 ${(seed.wallMs / 1000).toFixed(1)} s wall clock for the whole CLI (start, migrations, demo data)`,
    );

    const directPool = new pg.Pool({
      connectionString: databaseUrl,
      max: CONNECTIONS,
      types: int8AsNumber,
    });
    pool = directPool;
    // A connection that closes while the pool ends must not crash the run.
    directPool.on('error', () => undefined);
    const vacuumStarted = performance.now();
    // Every table the seed filled, not only the two lists: otherwise autovacuum works through the
    // million events and their processing rows during the first measurements.
    await directPool.query('vacuum analyze');
    console.log(
      `  vacuum       : VACUUM ANALYZE of the database in ${Math.round(performance.now() - vacuumStarted)} ms`,
    );

    consoleServer = await startConsoleServer(PORT, {
      env: {
        DATABASE_URL: databaseUrl,
        MIGRATE_ON_START: 'true',
        SEED_DEMO_DATA: 'false',
        EVENT_WORKERS_ENABLED: 'false',
      },
    });
    const token = await accessTokenFor(consoleServer.url, 'admin@example.com');
    const headers = { authorization: `Bearer ${token}` };
    const httpPool = new UndiciPool(consoleServer.url, { connections: CONNECTIONS });
    http = httpPool;
    // The server was just started: warm it (JIT, schemas, pool) before the first measured case.
    await httpLoops(httpPool, pathOf(LISTS[0]!, 0), headers, CONNECTIONS, 2);

    console.log(
      `  ${'case'.padEnd(LABEL_WIDTH)} ${'console p50/p99'.padStart(17)} ${'direct p50/p99'.padStart(17)} ` +
        `${'ratio p50/p99'.padStart(13)}   req/s console/direct, errors; target p99 ≤ 100 ms and ≤ 1.5x`,
    );
    for (const list of LISTS) {
      const counted = Number(
        (
          await directPool.query<{ rows: number }>(
            `select count(*)::int as rows from ${list.table}`,
          )
        ).rows[0]!.rows,
      );
      for (const [label, offset] of [
        ['first page', 0],
        [
          `page ${DEEP_PAGE.toLocaleString('en-US')} (offset ${(DEEP_PAGE - 1) * LIMIT})`,
          (DEEP_PAGE - 1) * LIMIT,
        ],
      ] as const) {
        const { page, ids, totalCount } = await compiledPage(directPool, list, offset);
        const path = pathOf(list, offset);
        const pageBytes = await checkSamePage(`${consoleServer.url}${path}`, headers, list, ids);
        // That request had the server build the list's page anchors in the background; one
        // client for 2 s leaves the build the CPU, so the measurement sees the steady state (a
        // write since would only make the first deep pages take the offset walk again).
        await httpLoops(httpPool, path, headers, 1, 2);
        // Both sides warmed alike before the first round: every connection open (the direct pool
        // opens its 50 on first use) and the case's statement prepared on each.
        await httpLoops(httpPool, path, headers, CONNECTIONS, 1);
        await replayLoops(directPool, page, CONNECTIONS, 1);
        const { measured, direct } = await loadAlternately(
          () => loadHttp(httpPool, path, headers),
          () => loadDirect(directPool, page),
        );
        const met =
          totalCount === counted &&
          measured.p99Ms <= 100 &&
          measured.p99Ms <= 1.5 * direct.p99Ms &&
          measured.errors === 0;
        console.log(
          `  ${`${list.name}, ${label}`.padEnd(LABEL_WIDTH)} ${latencyPair(measured).padStart(17)} ${latencyPair(direct).padStart(17)} ` +
            `${`${ratio(measured.p50Ms, direct.p50Ms)}/${ratio(measured.p99Ms, direct.p99Ms)}`.padStart(13)}   ` +
            `${measured.requestsPerSecond.toFixed(0)}/${direct.requestsPerSecond.toFixed(0)}, ` +
            `${measured.errors}/${direct.errors}; ${verdict(met, totalCount === counted ? '' : `totalCount ${totalCount}, count(*) ${counted}`)}`,
        );
        console.log(
          `  ${''.padEnd(LABEL_WIDTH)} p99 of each round, console: ${measured.roundP99s}; direct: ${direct.roundP99s}; ` +
            `page of ${(pageBytes / 1024).toFixed(0)} KB`,
        );
      }
    }
    await benchOverview(directPool, httpPool, headers);
  } finally {
    if (consoleServer) {
      const stopped = consoleServer.stop().then(() => true);
      const timeout = new Promise<boolean>((resolve) => setTimeout(resolve, 30_000, false).unref());
      if (!(await Promise.race([stopped, timeout]))) {
        console.error(`  the console server on port ${PORT} did not stop within 30 s`);
      }
    }
    await pool?.end();
    await http?.close();
    try {
      await waitForNoSessions(admin, databaseName);
      await admin.query(`drop database if exists "${databaseName}" with (force)`);
    } finally {
      await admin.end();
    }
  }
}

/**
 * GET /api/overview on the same database (issue 30: p99 ≤ 50 ms with 10^6 entities): 20 clients
 * for 12 s through HTTP, the server's 5 s cache included (its misses are in the run; the longest
 * answer is printed too), and the uncached read itself, the product's readStaffOverview run 50
 * times in a row on the bench's pool.
 */
async function benchOverview(
  directPool: pg.Pool,
  httpPool: UndiciPool,
  headers: Record<string, string>,
): Promise<void> {
  const clients = 20;
  await httpLoops(httpPool, '/api/overview', headers, clients, 1);
  const run = await httpLoops(httpPool, '/api/overview', headers, clients, 12);
  const http = loopSummary(run);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: directPool }) });
  const uncached: number[] = [];
  for (let index = 0; index < 50; index++) {
    const started = performance.now();
    await readStaffOverview(db, migrations);
    uncached.push(performance.now() - started);
  }
  uncached.sort((a, b) => a - b);
  const uncachedP99 = percentile(uncached, 0.99);
  console.log(
    `  overview, ${clients} clients: p50/p99 ${latencyPair(http)}, longest ${run.latencies.at(-1)?.toFixed(1)} ms, ` +
      `${http.requestsPerSecond.toFixed(0)} req/s, errors ${http.errors}; uncached read p99 ${uncachedP99.toFixed(1)} ms; ` +
      `target p99 ≤ 50 ms: ${verdict(http.p99Ms <= 50 && uncachedP99 <= 50 && http.errors === 0)}`,
  );
}

/** int8 as numbers, as db/connection.ts parses them. */
const int8AsNumber = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** The product's query of one page, recorded: the statements to replay, the ids and the total. */
async function compiledPage(pool: pg.Pool, list: ListCase, offset: number) {
  // A deep page is read from page anchors once they are built (db/page-anchors.ts): the baseline
  // replays what a warm server sends, anchored walk included.
  const { statements, result } = await recordQueries(
    pool,
    (db) => list.read(db, offset),
    async (db) => {
      await list.read(db, offset);
      await pageAnchorsOf(db).settled();
    },
  );
  const ids = result.data.map((row) => String((row as Record<string, unknown>)[list.idField]));
  return { page: statements, ids, totalCount: result.totalCount };
}

/**
 * The HTTP answer holds the same rows, in the same order, as the product's query run directly;
 * answers its size in bytes, printed with the case: the HTTP side's extra work (sending it,
 * receiving it) grows with it, the direct side's does not.
 */
async function checkSamePage(
  url: string,
  headers: Record<string, string>,
  list: ListCase,
  directIds: string[],
): Promise<number> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  const text = await response.text();
  const body = JSON.parse(text) as { data: Record<string, string>[] };
  const httpIds = body.data.map((row) => row[list.idField]);
  // Empty only when BENCH_ENTITY_SCALE is too small for the page.
  if (JSON.stringify(httpIds) !== JSON.stringify(directIds)) {
    throw new Error(
      `GET ${url} and the direct query disagree: ${httpIds.length} rows from ${httpIds[0]}, ` +
        `${directIds.length} rows from ${directIds[0]}`,
    );
  }
  return Buffer.byteLength(text);
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

/** Runs the compiled seed CLI as `npm run seed -- --scale N` does; returns its summary line. */
async function runSeed(
  databaseUrl: string,
  scale: number,
): Promise<{ summary: string; wallMs: number }> {
  const started = performance.now();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['apps/server/dist/seed.js', '--scale', String(scale)], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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

/**
 * ROUNDS measurements of each side, alternating (direct, console | console, direct | …), so that a
 * slower moment of the shared cores falls on both: the median of the rounds' figures per side.
 */
async function loadAlternately(
  loadConsole: () => Promise<LoopSummary>,
  loadBaseline: () => Promise<LoopSummary>,
): Promise<{ measured: RoundsSummary; direct: RoundsSummary }> {
  const rounds = { console: [] as LoopSummary[], direct: [] as LoopSummary[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) rounds.direct.push(await loadBaseline());
    rounds.console.push(await loadConsole());
    if (round % 2 === 1) rounds.direct.push(await loadBaseline());
  }
  return { measured: summarise(rounds.console), direct: summarise(rounds.direct) };
}

interface RoundsSummary extends LoopSummary {
  /** Every round's p99, in the order measured. */
  roundP99s: string;
}

function summarise(rounds: LoopSummary[]): RoundsSummary {
  return {
    p50Ms: median(rounds.map((round) => round.p50Ms)),
    p99Ms: median(rounds.map((round) => round.p99Ms)),
    requestsPerSecond: median(rounds.map((round) => round.requestsPerSecond)),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    roundP99s: rounds.map((round) => round.p99Ms.toFixed(0)).join('/'),
  };
}

/** `path` of the console server (see httpLoops) in CONNECTIONS loops for DURATION_SECONDS. */
async function loadHttp(
  client: UndiciPool,
  path: string,
  headers: Record<string, string>,
): Promise<LoopSummary> {
  return loopSummary(await httpLoops(client, path, headers, CONNECTIONS, DURATION_SECONDS));
}

/** The page's statements replayed (see replayLoops) in CONNECTIONS loops for DURATION_SECONDS. */
async function loadDirect(pool: pg.Pool, page: CompiledQuery[]): Promise<LoopSummary> {
  return loopSummary(await replayLoops(pool, page, CONNECTIONS, DURATION_SECONDS));
}

/** The API path of one page of `list` at `offset`. */
function pathOf(list: ListCase, offset: number): string {
  return `${list.path}?offset=${offset}&limit=${LIMIT}`;
}
