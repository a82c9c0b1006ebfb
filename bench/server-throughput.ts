import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventListQuerySchema } from '@console/contracts';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { runningEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres.ts';
import { listEvents } from '../apps/server/src/features/events/queries.ts';
import {
  accessTokenFor,
  load,
  type LoadResult,
  ratio,
  recordQueries,
  startBareServer,
  startConsoleServer,
  verdict,
} from './lib.ts';

/** The port of the bare servers the console is compared with. */
const BARE_PORT = 3202;
const BARE_NAMES: Record<Parameters<typeof startBareServer>[0], string> = {
  'bench/bare-fastify.ts': 'bare Fastify',
  'bench/bare-node.mjs': 'plain Node',
  'bench/bare-node-sql.ts': 'Node + SQL',
};

/**
 * (a) GET /api/countries (249 countries from the reference cache, token verified on every call)
 *     under 100 connections for 20 s, against a bare Fastify route sending the same bytes, started
 *     here in the same run. Target: ≥ 0.6× its throughput, 0 errors, p99 ≤ 3× its p99.
 * (b) GET /api/events (the screen's first page of the demo data's events, from PostgreSQL on every
 *     call) under 200 connections for BENCH_EVENTS_BARE_SECONDS (default 20) s (issue 31, part 6),
 *     against plain Node running the console's own statements of that page through `pg` on the
 *     same database, then sending the same bytes (bench/bare-node-sql.ts). Target: ≥ 0.5× its
 *     throughput, 0 errors. For scale, also against plain Node sending the bytes alone
 *     (bench/bare-node.mjs), which does none of the page's work: no target.
 * (c) 200 connections for 60 s on each of countries, tenants, entities and events (demo data,
 *     embedded PostgreSQL). Target: 0 errors, no answer other than 2xx/304.
 */
export async function benchServerThroughput(): Promise<void> {
  const consoleServer = await startConsoleServer(3201);
  try {
    const token = await accessTokenFor(consoleServer.url, 'admin@example.com');
    const headers = { authorization: `Bearer ${token}` };
    await countriesAgainstBareFastify(consoleServer.url, headers);
    await eventsAgainstBareNode(consoleServer, headers);
    await sustainedLoad(consoleServer.url, headers);
  } finally {
    await consoleServer.stop();
  }
}

async function countriesAgainstBareFastify(serverUrl: string, headers: Record<string, string>) {
  const { measured, baseline } = await againstBareServer(serverUrl, headers, {
    path: '/api/countries',
    bare: 'bench/bare-fastify.ts',
    connections: 100,
    durationSeconds: 20,
  });
  const throughput = measured.requestsPerSecond / baseline.requestsPerSecond;
  const p99 = measured.p99Ms / Math.max(baseline.p99Ms, 1);
  console.log(
    `  target       : ≥ 0.6x, 0 errors, p99 ≤ 3x: ${verdict(
      throughput >= 0.6 && measured.errors === 0 && p99 <= 3,
      `throughput ${throughput.toFixed(2)}x, errors ${measured.errors}, p99 ${p99.toFixed(2)}x`,
    )}`,
  );
}

async function eventsAgainstBareNode(
  consoleServer: { url: string; dataDir: string },
  headers: Record<string, string>,
) {
  const connections = 200;
  const durationSeconds = Number(process.env.BENCH_EVENTS_BARE_SECONDS ?? '20');
  await againstBareServer(consoleServer.url, headers, {
    path: '/api/events',
    bare: 'bench/bare-node.mjs',
    connections,
    durationSeconds,
  });
  const databaseUrl = await runningEmbeddedPostgres(path.join(consoleServer.dataDir, 'postgres'));
  if (!databaseUrl) throw new Error('The console server has no embedded PostgreSQL running');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  let statements: CompiledQuery[];
  try {
    ({ statements } = await recordQueries(pool, (db) =>
      listEvents(db, eventListQuerySchema.parse({}), { kind: 'all' }),
    ));
  } finally {
    await pool.end();
  }
  const statementsFile = path.join(
    await mkdtemp(path.join(tmpdir(), 'console-bench-events-')),
    'statements.json',
  );
  await writeFile(statementsFile, JSON.stringify(statements));
  const { measured, baseline } = await againstBareServer(consoleServer.url, headers, {
    path: '/api/events',
    bare: 'bench/bare-node-sql.ts',
    bareEnv: { BARE_DATABASE_URL: databaseUrl, BARE_STATEMENTS_FILE: statementsFile },
    connections,
    durationSeconds,
  });
  const throughput = measured.requestsPerSecond / baseline.requestsPerSecond;
  console.log(
    `  target       : ≥ 0.5x plain Node with the same SQL, 0 errors: ${verdict(
      throughput >= 0.5 && measured.errors === 0,
      `throughput ${throughput.toFixed(2)}x, errors ${measured.errors}`,
    )}`,
  );
}

/**
 * `path` of the console under load, after a bare server (`bare`, a process of its own) answering
 * the bytes the console answers there under the same load; prints both and their ratios.
 */
async function againstBareServer(
  serverUrl: string,
  headers: Record<string, string>,
  options: {
    path: string;
    bare: Parameters<typeof startBareServer>[0];
    bareEnv?: Record<string, string>;
    connections: number;
    durationSeconds: number;
  },
): Promise<{ measured: LoadResult; baseline: LoadResult }> {
  const { path, connections, durationSeconds } = options;
  const bytes = Buffer.from(await (await fetch(`${serverUrl}${path}`, { headers })).arrayBuffer());
  const bare = await startBareServer(options.bare, BARE_PORT, path, bytes, options.bareEnv);
  const baseline = await load(`http://127.0.0.1:${BARE_PORT}${path}`, {
    connections,
    durationSeconds,
  }).finally(bare.stop);
  const measured = await load(`${serverUrl}${path}`, { connections, durationSeconds, headers });
  const name = BARE_NAMES[options.bare];
  console.log(
    `server GET ${path} (${connections} connections, ${durationSeconds} s, ${bytes.length} bytes)`,
  );
  console.log(
    `  ${name.padEnd(12)} : ${baseline.requestsPerSecond.toFixed(0)} req/s, p99 ${baseline.p99Ms} ms`,
  );
  console.log(
    `  console      : ${measured.requestsPerSecond.toFixed(0)} req/s, p99 ${measured.p99Ms} ms, errors ${measured.errors}`,
  );
  console.log(
    `  ratio        : throughput ${ratio(measured.requestsPerSecond, baseline.requestsPerSecond)}x, p99 ${ratio(measured.p99Ms, baseline.p99Ms)}x`,
  );
  return { measured, baseline };
}

async function sustainedLoad(serverUrl: string, headers: Record<string, string>) {
  const seconds = Number(process.env.BENCH_SUSTAINED_SECONDS ?? '60');
  console.log(`server under 200 connections, ${seconds} s per endpoint`);
  for (const path of ['/api/countries', '/api/tenants', '/api/Entity', '/api/events']) {
    const result = await load(`${serverUrl}${path}`, {
      connections: 200,
      durationSeconds: seconds,
      headers,
    });
    console.log(
      `  ${path.padEnd(16)}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms, ` +
        `errors or non-2xx/304 ${result.errors}; target 0: ${verdict(result.errors === 0)}`,
    );
  }
  const health = performance.now();
  await fetch(`${serverUrl}/healthz`);
  console.log(`  /healthz right after: ${(performance.now() - health).toFixed(0)} ms`);
}
