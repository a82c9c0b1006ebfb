import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { Pool as UndiciPool } from 'undici';
import { queryConfig, sendQuery } from '../apps/server/src/db/prepared-statements.ts';
import type { Database } from '../apps/server/src/db/schema.ts';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from '../apps/server/src/db/embedded-postgres.ts';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface LoadResult {
  /** Requests answered in the run. */
  requests: number;
  requestsPerSecond: number;
  p99Ms: number;
  /** Failed requests plus answers other than 2xx and 304. */
  errors: number;
}

let cluster: Promise<EmbeddedPostgres> | undefined;

/**
 * The PostgreSQL of every benchmark that needs a database of its own: one embedded cluster (the
 * product's own, db/embedded-postgres.ts) in a temporary directory, started on first use and
 * stopped and removed by stopBenchPostgres(). Answers `postgres://user:password@127.0.0.1:port` (no
 * database): append `/<database>`.
 */
export async function benchPostgresUrl(): Promise<string> {
  cluster ??= mkdtemp(path.join(tmpdir(), 'console-bench-pg-')).then((dir) =>
    startEmbeddedPostgres({
      dataDir: path.join(dir, 'postgres'),
      port: 0,
      // Thrown away after the run; 200 client connections plus the servers' pools. The WAL
      // settings only speed up loading (10^7 rows: with the default 1 GB max_wal_size a checkpoint
      // with full-page images came every few seconds); reads are measured as on any server.
      settings: {
        fsync: 'off',
        max_connections: '300',
        max_wal_size: '32GB',
        checkpoint_timeout: '1h',
        full_page_writes: 'off',
        synchronous_commit: 'off',
      },
      initdbNoSync: true,
    }),
  );
  return (await cluster).connectionString('postgres').replace(/\/postgres$/, '');
}

/** Stops the cluster and removes its temporary directory (a run at 10^7 rows leaves 17 GB). */
export async function stopBenchPostgres(): Promise<void> {
  if (!cluster) return;
  const postgres = await cluster;
  cluster = undefined;
  await postgres.stop();
  await rm(path.dirname(postgres.dataDir), { recursive: true, force: true });
}

/** "met" or "NOT met (…)" for a target line. */
export function verdict(met: boolean, detail = ''): string {
  return met ? 'met' : `NOT met${detail ? ` (${detail})` : ''}`;
}

/** Runs autocannon against one URL and returns throughput and tail latency. */
export async function load(
  url: string,
  options: { connections: number; durationSeconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers ?? {},
  });
  // autocannon counts 304 as non-2xx; a 304 is a good answer to If-None-Match.
  const notModified = result.statusCodeStats?.['304']?.count ?? 0;
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    // `errors` includes timeouts.
    errors: result.errors + result.non2xx - notModified,
  };
}

/** How startConsoleServer runs the server; every part has its default. */
export interface ConsoleServerOptions {
  /** Environment on top of the bench's; without DATABASE_URL the server starts its embedded PostgreSQL. */
  env?: Record<string, string>;
  /** The embedded PostgreSQL's directory (a new temporary directory by default). */
  dataDir?: string;
  /** Where its standard output (the log) is appended; dropped by default. */
  logFile?: string;
  /** The Node binary to run it on (the bench's own by default). */
  node?: string;
}

/**
 * Starts the compiled console server (`npm run bench` builds it first) on `port` and waits until
 * /readyz answers.
 */
export async function startConsoleServer(
  port: number,
  { env: extraEnv = {}, dataDir, logFile, node = process.execPath }: ConsoleServerOptions = {},
): Promise<{ url: string; dataDir: string; pid: number; stop: () => Promise<void> }> {
  await requireFreePort(port);
  dataDir ??= await mkdtemp(path.join(tmpdir(), 'console-bench-'));
  const url = `http://localhost:${port}`;
  // Node itself (not `npm start`), so that the signal of stop() reaches the server, but with the
  // Node options of `npm start`: the bench measures the server as it runs in production.
  // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const nodeOptions = await productionNodeOptions();
  const log = logFile === undefined ? 'ignore' : openSync(logFile, 'a');
  const child = spawn(node, [...nodeOptions, ...profile, 'apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...extraEnv,
    },
    stdio: ['ignore', log, 'inherit'],
  });
  // The child holds its own copy of the file.
  if (typeof log === 'number') closeSync(log);
  await waitForReady(`${url}/readyz`, child);
  return {
    url,
    dataDir,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A baseline server in a process of its own (in the bench's process it would share one CPU thread
 * with the load generator), answering `urlPath` with `bytes`: `script` is bench/bare-fastify.ts
 * (a bare Fastify route), bench/bare-node.mjs (plain Node, no TypeScript loader) or
 * bench/bare-node-sql.ts (plain Node running the console's statements first; `extraEnv` says
 * which and where).
 */
export async function startBareServer(
  script: 'bench/bare-fastify.ts' | 'bench/bare-node.mjs' | 'bench/bare-node-sql.ts',
  port: number,
  urlPath: string,
  bytes: Buffer,
  extraEnv: Record<string, string> = {},
): Promise<{ pid: number; stop: () => Promise<void> }> {
  const bodyFile = path.join(await mkdtemp(path.join(tmpdir(), 'console-bench-bare-')), 'body');
  await writeFile(bodyFile, bytes);
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, script], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      BARE_PATH: urlPath,
      BARE_BODY_FILE: bodyFile,
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await once(child, 'message');
  return {
    pid: child.pid ?? 0,
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The resident memory of process `pid` in MB (Linux /proc), 0 once it has exited. */
export async function residentMegabytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return kilobytes === undefined ? 0 : Number(kilobytes) / 1024;
}

/**
 * The options between `node` and `dist/main.js` in the server's start script (apps/server's
 * package.json), e.g. `--max-semi-space-size=12`. Throws when the script no longer has that shape,
 * so that the bench cannot quietly run the server otherwise than `npm start` does.
 */
async function productionNodeOptions(): Promise<string[]> {
  const manifest = JSON.parse(
    await readFile(path.join(repoRoot, 'apps/server/package.json'), 'utf8'),
  ) as { scripts: { start: string } };
  const match = /^node((?: --[\w-]+(?:=\S+)?)*) dist\/main\.js$/.exec(manifest.scripts.start);
  if (!match) throw new Error(`Unexpected server start script: ${manifest.scripts.start}`);
  return match[1]!.trim().split(' ').filter(Boolean);
}

/**
 * `run` against a console server (port `port`, migrated, no demo data) on a new database of the
 * bench's PostgreSQL, with a `pg` client on that database for the baselines; the server is
 * stopped and the database dropped afterwards, whatever `run` did.
 */
export async function withConsoleOnNewDatabase<T>(
  port: number,
  run: (context: {
    server: Awaited<ReturnType<typeof startConsoleServer>>;
    db: pg.Client;
  }) => Promise<T>,
): Promise<T> {
  const postgresUrl = await benchPostgresUrl();
  const databaseName = `console_bench_${port}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: `${postgresUrl}/postgres` });
  await admin.connect();
  try {
    await admin.query(`create database ${databaseName}`);
    const databaseUrl = `${postgresUrl}/${databaseName}`;
    const server = await startConsoleServer(port, {
      env: { DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'true', SEED_DEMO_DATA: 'false' },
    });
    const db = new pg.Client({ connectionString: databaseUrl });
    try {
      await db.connect();
      return await run({ server, db });
    } finally {
      await db.end().catch(() => undefined);
      await server.stop();
    }
  } finally {
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }
}

/**
 * Throws when something already listens on `port` of this machine: the machine is shared, and a
 * bench that waits for its server to answer would otherwise measure whatever answers there.
 */
export async function requireFreePort(port: number): Promise<void> {
  const taken = await new Promise<boolean>((resolve) => {
    const probe = createConnection({ port, host: '127.0.0.1' });
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (taken)
    throw new Error(`Port ${port} is taken (another bench or server runs): try again later`);
}

async function waitForReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Server not ready at ${url} after 120 s`);
}

/** A time per operation in µs below a millisecond, else in ms. */
export function formatMs(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`;
}

/**
 * Time per operation of `ours` and `bare`, `count` each, in 10 alternating rounds so that a
 * burst of load from elsewhere falls on both; the fastest round of each is kept.
 */
export function alternating(
  count: number,
  ours: () => unknown,
  bare: () => unknown,
): [number, number] {
  const rounds = 10;
  const perRound = Math.max(1, Math.floor(count / rounds));
  const best = [Infinity, Infinity];
  for (let round = 0; round < rounds; round++) {
    [ours, bare].forEach((operation, which) => {
      const started = performance.now();
      for (let index = 0; index < perRound; index++) operation();
      best[which] = Math.min(best[which]!, (performance.now() - started) / perRound);
    });
  }
  return [best[0]!, best[1]!];
}

/**
 * The same for work that waits (mail, the database): each side's `round(index)` does its share
 * and answers its time per operation (its own setup untimed), `rounds` times, the side that goes
 * first alternating from round to round, so that neither always runs on code the other warmed
 * up; the fastest round of each is kept. Separate from `alternating`, whose operations take
 * microseconds: an await per operation there would be part of what is measured.
 */
export async function alternatingRounds(
  rounds: number,
  ours: (round: number) => Promise<number>,
  bare: (round: number) => Promise<number>,
): Promise<[number, number]> {
  const best = [Infinity, Infinity];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) {
      const perOperation = await (which === 0 ? ours : bare)(round);
      best[which] = Math.min(best[which]!, perOperation);
    }
  }
  return [best[0]!, best[1]!];
}

export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function ratio(value: number, baseline: number): string {
  return baseline === 0 ? 'n/a' : (value / baseline).toFixed(2);
}

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

/** Signs in through the embedded identity provider in Chromium and returns an access token. */
export async function accessTokenFor(serverUrl: string, email: string): Promise<string> {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage();
    await page.goto(`${serverUrl}/authenticated`);
    await page.getByRole('button', { name: email }).click();
    await page.waitForURL(/\/dashboard/);
    const session = (await (await page.request.get(`${serverUrl}/auth/session`)).json()) as {
      accessToken: string;
    };
    return session.accessToken;
  } finally {
    await browser.close();
  }
}

/**
 * Runs one of the product's queries (`run`) on a Kysely over `pool` that records every statement
 * it sends (transaction start and commit included): the baseline replays them through `pg`, so
 * it runs the product's SQL without retyping it. `warm` runs first on the same Kysely, unrecorded:
 * what a server that has been answering for a while has in memory (e.g. page anchors).
 */
export async function recordQueries<T>(
  pool: pg.Pool,
  run: (db: Kysely<Database>) => Promise<T>,
  warm?: (db: Kysely<Database>) => Promise<void>,
): Promise<{ statements: CompiledQuery[]; result: T }> {
  const statements: CompiledQuery[] = [];
  const recording = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query);
    },
  });
  if (warm) {
    await warm(recording);
    statements.length = 0;
  }
  return { statements, result: await run(recording) };
}

/**
 * Recorded statements, in order, on one pooled connection, with their parameters, each sent as
 * the server sends it (a named prepared statement where the server prepares it).
 */
export async function replay(pool: pg.Pool, statements: readonly CompiledQuery[]): Promise<void> {
  const client = await pool.connect();
  try {
    for (const statement of statements) {
      await sendQuery(client, queryConfig(statement.sql, statement.parameters));
    }
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** What closedLoops measured: every succeeded run's latency in ms (sorted), the failed runs. */
export interface LoopsResult {
  latencies: number[];
  errors: number;
  elapsedSeconds: number;
}

/**
 * How long closedLoops run: `seconds`, or while `running()` answers true (e.g. while a background
 * job works).
 */
export type LoopsDuration = number | (() => boolean);

/**
 * `loops` concurrent loops, each running `once` again as soon as it has finished, for `duration`:
 * the latency of every run that succeeded (sorted), the failed ones, the time taken. Both sides
 * of a comparison measured this way (an HTTP call, a statement through `pg`) are timed alike.
 */
export async function closedLoops(
  loops: number,
  duration: LoopsDuration,
  once: () => Promise<void>,
): Promise<LoopsResult> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const running =
    typeof duration === 'number' ? () => performance.now() < started + duration * 1000 : duration;
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (running()) {
        const runStarted = performance.now();
        try {
          await once();
          latencies.push(performance.now() - runStarted);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsedSeconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { latencies, errors, elapsedSeconds };
}

/** `statements` replayed (see replay) in closedLoops. */
export function replayLoops(
  pool: pg.Pool,
  statements: readonly CompiledQuery[],
  loops: number,
  seconds: number,
): Promise<LoopsResult> {
  return closedLoops(loops, seconds, () => replay(pool, statements));
}

/**
 * GET `path` of `client`'s server in closedLoops, each answer read whole as text (as `pg` reads a
 * page); an answer other than 200 counts as failed. `client` is an undici Pool with a connection
 * per loop, kept by the caller across measurements as the baseline keeps its `pg` pool.
 */
export function httpLoops(
  client: UndiciPool,
  path: string,
  headers: Record<string, string>,
  loops: number,
  duration: LoopsDuration,
): Promise<LoopsResult> {
  return closedLoops(loops, duration, async () => {
    const { statusCode, body } = await client.request({ path, method: 'GET', headers });
    await body.text();
    if (statusCode !== 200) throw new Error(`GET ${path}: ${statusCode}`);
  });
}

/** What a comparison prints of closedLoops' runs. */
export interface LoopSummary {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  errors: number;
}

export function loopSummary({ latencies, errors, elapsedSeconds }: LoopsResult): LoopSummary {
  return {
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requestsPerSecond: latencies.length / elapsedSeconds,
    errors,
  };
}

/** `p50/p99 ms` of a summary, for the comparison tables. */
export function latencyPair({ p50Ms, p99Ms }: Pick<LoopSummary, 'p50Ms' | 'p99Ms'>): string {
  return `${p50Ms.toFixed(1)}/${p99Ms.toFixed(1)} ms`;
}

/** The value at `fraction` (0-1] of `sorted` (ascending); 0 when it is empty. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

/** Runs one statement on its own connection (create or drop a bench database). */
export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
