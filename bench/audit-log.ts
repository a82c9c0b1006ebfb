import pg from 'pg';
import { Pool as UndiciPool } from 'undici';
import { auditListQuerySchema, eventListQuerySchema } from '@console/contracts';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/connection.ts';
import { migrateTo } from '../apps/server/src/db/migrator.ts';
import { listAudit } from '../apps/server/src/features/audit/queries.ts';
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
} from './lib.ts';
import { int8AsNumber, positiveIntFromEnv, sqlLoops, startServer } from './events.ts';

/**
 * The audit log and the events list at scale (issue 31, part 6), in a throwaway database:
 * BENCH_AUDIT_ROWS (default 10^7) audit rows and as many events, written by generate_series in
 * SQL (minutes, not hours), VACUUM ANALYZE, then for each page under 20 connections for
 * BENCH_AUDIT_DURATION (default 5) s: GET /api/audit or /api/events against the product's own
 * SQL (listAudit / listEvents run once on a recording Kysely) replayed through `pg`. Prints p99
 * both ways and the ratios (targets: p99 ≤ 100 ms and ≤ 1.5x the SQL), and the plan of each
 * first page (an index, never a sequential scan). Smoke it small: BENCH_AUDIT_ROWS=20000.
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
    await benchPool.query('vacuum analyze audit_log, events');
    const loadSeconds = (performance.now() - loadStarted) / 1000;

    server = await startServer(3241, {
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'false',
      SEED_DEMO_DATA: 'false',
      EVENT_WORKERS_ENABLED: 'false',
      SMTP_CATCHER_PORT: '0',
    });
    const token = await accessTokenFor(server.url, 'admin@example.com');
    const headers = { authorization: `Bearer ${token}` };
    const httpPool = new UndiciPool(server.url, { connections: 20 });
    http = httpPool;
    const deepPage = Math.max(2, Math.floor(rows / 25 / 100));

    console.log(
      `audit log and events at scale: ${rows} audit rows and ${rows} events (load ${loadSeconds.toFixed(1)} s, vacuum analyze), 20 connections, ${durationSeconds} s`,
    );
    const pages: { path: string; params: Record<string, string>; list: 'audit' | 'events' }[] = [
      { list: 'audit', path: '/api/audit', params: { page: '1', pageSize: '25' } },
      { list: 'audit', path: '/api/audit', params: { page: String(deepPage), pageSize: '25' } },
      {
        list: 'audit',
        path: '/api/audit',
        params: { page: '1', pageSize: '25', actor: 'user7@example.com', action: 'update' },
      },
      {
        list: 'audit',
        path: '/api/audit',
        params: { page: '1', pageSize: '25', targetType: 'Tenant', targetId: '40000' },
      },
      {
        list: 'audit',
        path: '/api/audit',
        params: { page: '1', pageSize: '25', q: 'record 4242' },
      },
      { list: 'events', path: '/api/events', params: { page: '1', pageSize: '25' } },
      {
        list: 'events',
        path: '/api/events',
        params: { page: String(deepPage), pageSize: '25' },
      },
      {
        list: 'events',
        path: '/api/events',
        params: { page: '1', pageSize: '25', erroredOnly: 'true' },
      },
    ];
    for (const { path, params, list } of pages) {
      const target = `${path}?${new URLSearchParams(params).toString()}`;
      const response = await fetch(`${server.url}${target}`, { headers });
      if (!response.ok) throw new Error(`GET ${target} answered ${response.status}`);
      const answer = (await response.json()) as { totalCount: number; data: { id: number }[] };
      // The product's own statements for this page, and the ids it answered.
      const { statements, result } = await recordQueries(
        benchPool,
        async (db): Promise<{ data: { id: number }[] }> =>
          list === 'audit'
            ? listAudit(db, auditListQuerySchema.parse(params))
            : parseJsonText(
                await listEvents(db, eventListQuerySchema.parse(params), { kind: 'all' }),
              ),
      );
      const same =
        answer.data.map((item) => item.id).join() === result.data.map((item) => item.id).join();
      if (!same) throw new Error(`GET ${target} and the SQL baseline disagree`);

      await sqlLoops(benchPool, statements, 20, 1); // warm-up
      const baseline = await sqlLoops(benchPool, statements, 20, durationSeconds);
      await httpLoops(httpPool, target, headers, 20, 1); // warm-up
      const measured = loopSummary(await httpLoops(httpPool, target, headers, 20, durationSeconds));
      const estimate = 'totalIsEstimate' in answer && answer.totalIsEstimate === true;
      console.log(`  ${target} (totalCount ${estimate ? 'about ' : ''}${answer.totalCount})`);
      console.log(
        `    pg, same SQL : p50 ${baseline.p50Ms.toFixed(1)} ms, p99 ${baseline.p99Ms.toFixed(1)} ms, ${baseline.requestsPerSecond.toFixed(0)} pages/s`,
      );
      console.log(
        `    console      : p50 ${measured.p50Ms.toFixed(1)} ms, p99 ${measured.p99Ms.toFixed(1)} ms, ${measured.requestsPerSecond.toFixed(0)} req/s, errors ${measured.errors}`,
      );
      console.log(
        `    ratio        : p99 ${ratio(measured.p99Ms, baseline.p99Ms)}x, throughput ${ratio(measured.requestsPerSecond, baseline.requestsPerSecond)}x; target p99 ≤ 100 ms and ≤ 1.5x: ${measured.p99Ms <= 100 && measured.p99Ms <= 1.5 * baseline.p99Ms ? 'met' : 'NOT met'}`,
      );
      // The plan of the statement that reads the page's rows (in the list's order).
      const page = statements.find((statement) =>
        /order by "?(occurred_at|created_at)"?/.test(statement.sql),
      );
      if (page) {
        const plan = await benchPool.query<{ 'QUERY PLAN': string }>(
          `explain (costs off) ${page.sql}`,
          [...page.parameters],
        );
        const lines = plan.rows.map((row) => row['QUERY PLAN']);
        const scans = lines.filter((line) => /Scan/.test(line)).map((line) => line.trim());
        console.log(`    plan         : ${scans.join('; ')}`);
      }
    }
  } finally {
    await http?.close();
    await server?.stop();
    await pool?.end();
    await handle?.close();
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  }
}

/**
 * `rows` audit rows (50 actors, 6 actions, 8 target types, 100,000 target ids: the ids of the
 * n-th type are those that leave n - 1 divided by 8, so Tenant 40000 exists; 5 tenants and none;
 * one a minute back from now) and `rows` events (10 names, 1 in 20 waiting, 1 in 97 failed), in
 * chunks of a million rows per statement so that no statement runs for long.
 */
async function fillAuditLogAndEvents(pool: pg.Pool, rows: number): Promise<void> {
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
    await pool.query(
      `insert into events (event_name, tenant_id, entity_id, unique_id, created_at, metadata,
         is_processed, has_error)
       select 'BenchEvent' || (n % 10), n % 5 + 1, null, 'bench-' || n,
         now() - (($2::bigint - n) * interval '1 minute'), '{"actor":"bench@example.com"}'::jsonb,
         n % 20 <> 0 and n % 97 <> 0, n % 97 = 0
       from generate_series($1::bigint, $3::bigint) as n`,
      [from, rows, to],
    );
  }
}
