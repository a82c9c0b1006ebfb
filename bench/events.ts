import { spawn } from 'node:child_process';
import pg from 'pg';
import { Pool as UndiciPool } from 'undici';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/connection.ts';
import { migrateTo } from '../apps/server/src/db/migrator.ts';
import { insertScaleEvents } from '../apps/server/src/db/seed/scale.ts';
import { recordEvents, type NewEvent } from '../apps/server/src/outbox/outbox.ts';
import { EVENT_SUBSCRIPTIONS } from '../apps/server/src/outbox/subscriptions.ts';
import { subscribersOf } from '../apps/server/src/outbox/worker.ts';
import { eventListQuerySchema } from '@console/contracts';
import type { CompiledQuery } from 'kysely';
import { listEvents } from '../apps/server/src/features/events/queries.ts';
import { parseJsonText } from '../apps/server/src/http/json-text.ts';
import {
  accessTokenFor,
  adminQuery,
  benchPostgresUrl,
  httpLoops,
  loopSummary,
  ratio,
  recordQueries,
  replayLoops,
  repoRoot,
  requireFreePort,
  type LoopSummary,
} from './lib.ts';

/**
 * Event pipeline on PostgreSQL (issue 5), in a throwaway database `console_bench_<timestamp>`:
 *
 * (a) Drain: a backlog of BENCH_EVENT_BACKLOG (default 100,000) `TestEvent`s, recorded through the
 *     outbox's own `recordEvents` (2,000 per statement, one transaction, committed while the
 *     servers are already up and idle, so the clock starts at the commit that wakes them), worked
 *     off by the real server processes (main.ts, EVENT_WORKERS_ENABLED=true, 50 ms poll): once with
 *     one process, once with two on the same database. `TestEvent` is subscribed by the audit-trail
 *     worker only (checked below), so no mail is sent and no SMTP server is needed (SMTP_URL unset,
 *     SMTP_CATCHER_PORT=0). Each run starts from empty events, processed_events and audit_log.
 *     Events per second for each, and the speed-up (two ÷ one).
 *
 * (b) List: BENCH_EVENTS_TOTAL (default 1,000,000) events bulk-inserted by the batches of
 *     `seed --scale` (db/seed/scale.ts: 10 names, 1 in 20 unprocessed, 1 in 97 failed, processing
 *     rows for both workers; five tenant ids, which need no rows), VACUUM ANALYZE, then GET
 *     /api/events for two filtered pages under 20 connections for BENCH_EVENTS_DURATION
 *     (default 5) s, against the product's own SQL
 *     (listEvents run once on a recording Kysely: names probe, the page statement, the estimate
 *     beyond the exact threshold) replayed through `pg` by 20 concurrent loops; both sides
 *     measured alike (lib.ts closedLoops, the HTTP side through an undici pool).
 */
export async function benchEvents(): Promise<void> {
  const backlog = positiveIntFromEnv('BENCH_EVENT_BACKLOG', 100_000);
  const total = positiveIntFromEnv('BENCH_EVENTS_TOTAL', 1_000_000);
  const durationSeconds = positiveIntFromEnv('BENCH_EVENTS_DURATION', 5);
  const adminUrl = `${await benchPostgresUrl()}/postgres`;
  const name = `console_bench_${Date.now()}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();

  const workers = subscribersOf(EVENT_SUBSCRIPTIONS, 'TestEvent');
  if (workers.length !== 1 || workers[0] !== 'audit-trail') {
    throw new Error(
      `TestEvent is subscribed by ${workers.join(', ')}: the drain assumes audit-trail only`,
    );
  }

  const servers: { stop: () => Promise<void> }[] = [];
  const stopServers = async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  };
  let handle: DatabaseHandle | undefined;
  let pool: pg.Pool | undefined;
  let http: UndiciPool | undefined;
  await adminQuery(adminUrl, `create database ${name}`);
  try {
    handle = openDatabase(databaseUrl);
    await migrateTo(handle.db);
    const db = handle.db;
    // The same pool the server uses (size 20, int8 as numbers), for the baseline and bookkeeping.
    const benchPool = new pg.Pool({ connectionString: databaseUrl, max: 20, types: int8AsNumber });
    // The drop in finally (with force) may end a connection the pool is still closing.
    benchPool.on('error', () => undefined);
    pool = benchPool;
    const serverEnv = (workersEnabled: boolean): Record<string, string> => ({
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'false',
      SEED_DEMO_DATA: 'false',
      EVENT_WORKERS_ENABLED: String(workersEnabled),
      EVENT_POLL_INTERVAL_MS: '50',
      EVENT_LEASE_SECONDS: '30',
      SMTP_CATCHER_PORT: '0',
    });

    // (a) Drain the backlog with one, then two server processes.
    const drain = async (ports: number[]) => {
      await emptyEventTables(benchPool);
      // One after the other, each tracked at once (stopped in finally whatever fails next).
      for (const port of ports) servers.push(await startServer(port, serverEnv(true)));
      const events: NewEvent[] = Array.from({ length: backlog }, (_, index) => ({
        eventName: 'TestEvent',
        metadata: { actor: 'bench@example.com', action: 'test', index },
      }));
      await db.transaction().execute(async (trx) => {
        for (let from = 0; from < events.length; from += 2_000) {
          await recordEvents(trx, events.slice(from, from + 2_000));
        }
      });
      const t0 = performance.now();
      const deadline = Date.now() + 15 * 60_000;
      for (;;) {
        const { rows } = await benchPool.query<{ waiting: number; failed: number }>(
          `select (select count(*) from events where not is_processed)::int as waiting,
             (select count(*) from processed_events where has_error)::int as failed`,
        );
        if (rows[0]!.failed > 0) throw new Error(`${rows[0]!.failed} events failed in the drain`);
        if (rows[0]!.waiting === 0) break;
        if (Date.now() > deadline) throw new Error(`${rows[0]!.waiting} events still waiting`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const seconds = (performance.now() - t0) / 1000;
      const { rows: audit } = await benchPool.query<{ rows: number; events: number }>(
        'select count(*)::int as rows, count(distinct event_id)::int as events from audit_log',
      );
      if (audit[0]!.rows !== backlog || audit[0]!.events !== backlog) {
        throw new Error(`audit_log has ${audit[0]!.rows} rows for ${audit[0]!.events} events`);
      }
      const { rows: shares } = await benchPool.query<{ pid: string; records: number }>(
        `select split_part(locked_by, '/', 2) as pid, count(*)::int as records
         from processed_events group by 1 order by 1`,
      );
      await stopServers();
      return {
        seconds,
        eventsPerSecond: backlog / seconds,
        shares: shares.map((share) => `pid ${share.pid}: ${share.records}`).join(', '),
      };
    };
    const one = await drain([3231]);
    const two = await drain([3231, 3232]);

    console.log(
      `events drain: ${backlog} TestEvents (audit-trail worker, no mail), PostgreSQL, 50 ms poll`,
    );
    console.log(
      `  1 process    : ${one.eventsPerSecond.toFixed(0)} events/s (${one.seconds.toFixed(1)} s; ${one.shares})`,
    );
    console.log(
      `  2 processes  : ${two.eventsPerSecond.toFixed(0)} events/s (${two.seconds.toFixed(1)} s; ${two.shares})`,
    );
    console.log(`  speed-up     : ${ratio(two.eventsPerSecond, one.eventsPerSecond)}x`);

    // (b) GET /api/events on `total` events.
    await emptyEventTables(benchPool);
    const loadStarted = performance.now();
    const now = new Date();
    for (let from = 1; from <= total; from += 100_000) {
      const to = Math.min(total, from + 99_999);
      await insertScaleEvents(db, { from, to, n: total, tenantIds: [1, 2, 3, 4, 5], now });
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    await benchPool.query('vacuum analyze events, processed_events');
    const server = await startServer(3233, serverEnv(false));
    servers.push(server);
    const token = await accessTokenFor(server.url, 'admin@example.com');
    const headers = { authorization: `Bearer ${token}` };
    const httpPool = new UndiciPool(server.url, { connections: 20 });
    http = httpPool;

    console.log(
      `events list: GET /api/events on ${total} events (bulk load ${loadSeconds.toFixed(1)} s, vacuum analyze), 20 connections, ${durationSeconds} s`,
    );
    const pages: ListQuery[] = [
      { page: 3, pageSize: 25, sortOrder: 'desc', erroredOnly: true, eventName: 'test' },
      { page: 3, pageSize: 25, sortOrder: 'desc', unprocessedOnly: true },
    ];
    for (const query of pages) {
      const path = `/api/events?${new URLSearchParams(queryParams(query)).toString()}`;
      // The same answer both ways: the baseline runs the query the endpoint runs.
      const response = await fetch(`${server.url}${path}`, { headers });
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
      const answer = (await response.json()) as { totalCount: number; data: { id: number }[] };
      const direct = await recordListEvents(benchPool, query);
      if (
        answer.totalCount !== direct.totalCount ||
        answer.data.map((item) => item.id).join() !== direct.ids.join()
      ) {
        throw new Error(`GET ${path} and the SQL baseline disagree`);
      }

      await sqlLoops(benchPool, direct.statements, 20, 1); // warm-up
      const baseline = await sqlLoops(benchPool, direct.statements, 20, durationSeconds);
      await httpLoops(httpPool, path, headers, 20, 1); // warm-up
      const measured = loopSummary(await httpLoops(httpPool, path, headers, 20, durationSeconds));

      console.log(`  ${path} (totalCount ${answer.totalCount})`);
      console.log(
        `    pg, same SQL : ${baseline.requestsPerSecond.toFixed(0)} pages/s, p50 ${baseline.p50Ms.toFixed(1)} ms, p99 ${baseline.p99Ms.toFixed(1)} ms`,
      );
      console.log(
        `    console      : ${measured.requestsPerSecond.toFixed(0)} req/s, p50 ${measured.p50Ms.toFixed(1)} ms, p99 ${measured.p99Ms.toFixed(1)} ms, errors ${measured.errors}`,
      );
      console.log(
        `    ratio        : throughput ${ratio(measured.requestsPerSecond, baseline.requestsPerSecond)}x, p50 ${ratio(measured.p50Ms, baseline.p50Ms)}x, p99 ${ratio(measured.p99Ms, baseline.p99Ms)}x`,
      );
    }
  } finally {
    await http?.close();
    await stopServers();
    await pool?.end();
    await handle?.close();
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  }
}

interface ListQuery {
  page: number;
  pageSize: number;
  sortOrder: 'asc' | 'desc';
  unprocessedOnly?: boolean;
  erroredOnly?: boolean;
  eventName?: string;
}

export const int8AsNumber = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export function positiveIntFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1`);
  return value;
}

/**
 * lib.ts's startConsoleServer with DATABASE_URL, but its process is the server itself: that one
 * runs `npx tsx`, and SIGTERM to npx leaves the tsx/node server running (found here: the first
 * drain's server still held port 3231 and joined the second drain). This one starts node with the
 * tsx loader (like outbox/concurrency.test.ts) and stop() waits for it to exit (SIGKILL after 15 s).
 */
export async function startServer(
  port: number,
  env: Record<string, string>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  await requireFreePort(port);
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`Server on port ${port} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Server not ready at ${url} after 120 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Empties the event tables of the throwaway database. audit_log is append-only (a trigger rejects
 * TRUNCATE), so that trigger is switched off for the statement: each drain starts from nothing.
 */
async function emptyEventTables(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('alter table audit_log disable trigger audit_log_no_truncate');
    await client.query('truncate events, processed_events, audit_log restart identity');
    await client.query('alter table audit_log enable trigger audit_log_no_truncate');
    await client.query('commit');
    await client.query('vacuum analyze events, processed_events, audit_log');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** listEvents (features/events/queries.ts) for staff, recorded: statements and answer. */
async function recordListEvents(pool: pg.Pool, query: ListQuery) {
  const parsed = eventListQuerySchema.parse(queryParams(query));
  const { statements, result } = await recordQueries(pool, async (db) =>
    parseJsonText(await listEvents(db, parsed, { kind: 'all' })),
  );
  return { statements, ids: result.data.map((item) => item.id), totalCount: result.totalCount };
}

function queryParams(query: ListQuery): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)]));
}

/** `loops` concurrent loops replaying the page's statements for `seconds`: pages/s and latency. */
export async function sqlLoops(
  pool: pg.Pool,
  statements: readonly CompiledQuery[],
  loops: number,
  seconds: number,
): Promise<LoopSummary> {
  const summary = loopSummary(await replayLoops(pool, statements, loops, seconds));
  if (summary.errors > 0)
    throw new Error(`${summary.errors} replays of the page's statements failed`);
  return summary;
}
