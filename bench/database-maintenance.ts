import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { Pool as UndiciPool } from 'undici';
import { migrations } from '../apps/server/src/db/migrations/index.ts';
import { readHistory } from '../apps/server/src/features/database-scripts/queries.ts';
import { readMigrationStatus } from '../apps/server/src/features/migrations/queries.ts';
import {
  accessTokenFor,
  benchPostgresUrl,
  httpLoops,
  latencyPair,
  loopSummary,
  ratio,
  recordQueries,
  replayLoops,
  startConsoleServer,
  verdict,
} from './lib.ts';

/**
 * The two reads of the database maintenance screens on a database with a long past: 200 applied
 * migrations (the build's, then synthetic rows of schema_migrations up to 200) and a history of
 * 100,000 script executions. GET /svc/migrations/status and the first page of GET
 * /api/database-scripts/history (limit 10, the screen's default page size) as admin, with
 * CONNECTIONS concurrent clients for DURATION_SECONDS, against the same SQL run through `pg`
 * (the product's own queries, recorded once and replayed: lib.ts recordQueries), both sides
 * measured alike (lib.ts closedLoops, the HTTP side through an undici pool).
 * Target: p99 ≤ 50 ms each, no errors. The ratio to the baseline is printed, not judged: the
 * console adds HTTP, the token check and JSON of 200 migrations.
 */

const PORT = 3251;
const CONNECTIONS = 10;
const DURATION_SECONDS = 5;
const APPLIED_MIGRATIONS = 200;
const EXECUTIONS = 100_000;
const HISTORY_LIMIT = 10;
const TARGET_P99_MS = 50;
const ADMIN = 'admin@example.com';

export async function benchDatabaseMaintenance(): Promise<void> {
  const adminUrl = await benchPostgresUrl();
  const databaseName = `console_bench_maintenance_${Date.now()}`;
  const databaseUrl = `${adminUrl}/${databaseName}`;
  const admin = new pg.Client({ connectionString: `${adminUrl}/postgres` });
  admin.on('error', (error) => console.error(`bench admin connection: ${error.message}`));
  await admin.connect();
  await admin.query(`create database "${databaseName}"`);
  let consoleServer: Awaited<ReturnType<typeof startConsoleServer>> | undefined;
  let pool: pg.Pool | undefined;
  let http: UndiciPool | undefined;
  try {
    console.log(
      `database maintenance: ${APPLIED_MIGRATIONS} applied migrations, ${EXECUTIONS.toLocaleString('en-US')} script executions, ` +
        `${CONNECTIONS} concurrent clients, ${DURATION_SECONDS} s per measurement`,
    );
    // The server migrates the empty database at start; the long past is added after.
    consoleServer = await startConsoleServer(PORT, {
      env: {
        DATABASE_URL: databaseUrl,
        MIGRATE_ON_START: 'true',
        SEED_DEMO_DATA: 'false',
        EVENT_WORKERS_ENABLED: 'false',
      },
    });
    pool = new pg.Pool({ connectionString: databaseUrl, max: CONNECTIONS, types: int8AsNumber });
    pool.on('error', () => undefined);
    await addHistory(pool);

    const token = await accessTokenFor(consoleServer.url, ADMIN);
    const headers = { authorization: `Bearer ${token}` };
    const httpPool = new UndiciPool(consoleServer.url, { connections: CONNECTIONS });
    http = httpPool;
    const user = {
      subject: ADMIN,
      email: ADMIN,
      name: 'Admin',
      roles: ['admin' as const, 'staff' as const],
    };
    const cases: { label: string; path: string; statements: CompiledQuery[] }[] = [
      {
        label: 'GET /svc/migrations/status',
        path: '/svc/migrations/status',
        statements: (
          await recordQueries(pool, (db) =>
            readMigrationStatus(db, { databaseName, embedded: false }, user, migrations),
          )
        ).statements,
      },
      {
        label: `GET /api/database-scripts/history (first ${HISTORY_LIMIT})`,
        path: `/api/database-scripts/history?offset=0&limit=${HISTORY_LIMIT}`,
        statements: (
          await recordQueries(pool, (db) => readHistory(db, { offset: 0, limit: HISTORY_LIMIT }))
        ).statements,
      },
    ];
    await checkAnswers(consoleServer.url, headers);

    console.log(
      `  ${'case'.padEnd(44)} ${'console p50/p99'.padStart(17)} ${'direct p50/p99'.padStart(17)} ` +
        `${'ratio p50/p99'.padStart(13)}   errors; target p99 ≤ ${TARGET_P99_MS} ms`,
    );
    for (const { label, path, statements } of cases) {
      await httpLoops(httpPool, path, headers, CONNECTIONS, 1); // warm-up
      const measured = loopSummary(
        await httpLoops(httpPool, path, headers, CONNECTIONS, DURATION_SECONDS),
      );
      const direct = loopSummary(
        await replayLoops(pool, statements, CONNECTIONS, DURATION_SECONDS),
      );
      const met = measured.p99Ms <= TARGET_P99_MS && measured.errors === 0;
      console.log(
        `  ${label.padEnd(44)} ${latencyPair(measured).padStart(17)} ${latencyPair(direct).padStart(17)} ` +
          `${`${ratio(measured.p50Ms, direct.p50Ms)}/${ratio(measured.p99Ms, direct.p99Ms)}`.padStart(13)}   ` +
          `${measured.errors}/${direct.errors}; ${verdict(met)}`,
      );
    }
  } finally {
    await http?.close();
    await pool?.end();
    await consoleServer?.stop();
    await admin.query(`drop database if exists "${databaseName}" with (force)`);
    await admin.end();
  }
}

/** Synthetic applied migrations up to APPLIED_MIGRATIONS, and EXECUTIONS history rows. */
async function addHistory(pool: pg.Pool): Promise<void> {
  const started = performance.now();
  await pool.query(
    `insert into schema_migrations (version, description, class_name, applied_on)
     select 1000 + n, 'Synthetic migration ' || n, 'SyntheticMigration' || n,
            now() - interval '1 day' * ($1 - n)
     from generate_series(1, $1) as n`,
    [APPLIED_MIGRATIONS - migrations.length],
  );
  await pool.query(
    `insert into script_executions
       (script_id, script_name, script_version, status, executed_by, executed_at, finished_at, message)
     select 1 + n % 4, 'Script ' || (1 + n % 4), 1,
            case when n % 10 = 0 then 'Failed' else 'Success' end,
            'admin@example.com', now() - interval '1 minute' * n, now() - interval '1 minute' * n,
            'Returned ' || n % 50 || ' row(s)'
     from generate_series(1, $1) as n`,
    [EXECUTIONS],
  );
  await pool.query('vacuum analyze schema_migrations, script_executions');
  console.log(
    `  history      : written and analyzed in ${Math.round(performance.now() - started)} ms`,
  );
}

/** The console answers what the bench wrote: 200 applied, the whole history counted. */
async function checkAnswers(baseUrl: string, headers: Record<string, string>): Promise<void> {
  const status = (await (await fetch(`${baseUrl}/svc/migrations/status`, { headers })).json()) as {
    appliedMigrations: unknown[];
  };
  const history = (await (
    await fetch(`${baseUrl}/api/database-scripts/history?limit=${HISTORY_LIMIT}`, { headers })
  ).json()) as { totalCount: number; data: unknown[] };
  const ok =
    status.appliedMigrations.length === APPLIED_MIGRATIONS &&
    history.totalCount === EXECUTIONS &&
    history.data.length === HISTORY_LIMIT;
  console.log(
    `  answers      : ${status.appliedMigrations.length} applied, history totalCount ${history.totalCount}: ${verdict(ok, 'unexpected answers')}`,
  );
}

const int8AsNumber = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};
