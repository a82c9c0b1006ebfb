import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Database } from '../apps/server/src/db/schema.ts';
import { eventsExport } from '../apps/server/src/features/events/queries.ts';
import {
  accessTokenFor,
  median,
  ratio,
  residentMegabytes,
  verdict,
  withConsoleOnNewDatabase,
} from './lib.ts';

const PORT = 3281;
/** Alternating measurements of each side; the figure of a side is the median of its rounds. */
const ROUNDS = 3;
/** What V8's young generation may take with the server's Node options (3 x 64 MB). */
const YOUNG_GENERATION_MB = 192;

/**
 * A list exported whole (issue 31, part 5): `GET /api/events/export?format=csv` of
 * BENCH_EXPORT_ROWS events (default 1,000,000, made by generate_series), read to the last byte,
 * against PostgreSQL's own `COPY (the same query) TO STDOUT (FORMAT csv)` through `pg` read to
 * the last byte. The query is the product's own (eventsExport, compiled by Kysely), so both sides
 * read the same rows. The two sides alternate, ROUNDS each. Target: ≤ 2x COPY's time; and the
 * server's resident memory flat: sampled every 100 ms during each export, its peak above the
 * size before the first export no more than V8's young generation may take (192 MB with the
 * server's options), whatever the list's size (the file of 10^6 events is about 200 MB).
 */
export async function benchExports(): Promise<void> {
  const rows = Number(process.env.BENCH_EXPORT_ROWS ?? '1000000');
  await withConsoleOnNewDatabase(PORT, async ({ server, db }) => {
    await fillEvents(db, rows);
    const copySql = await exportSql();
    const headers = {
      authorization: `Bearer ${await accessTokenFor(server.url, 'admin@example.com')}`,
      // COPY's bytes are not compressed either (fetch asks for gzip unless told otherwise).
      'accept-encoding': 'identity',
    };
    const url = `${server.url}/api/events/export?format=csv`;

    const beforeMb = await residentMegabytes(server.pid);
    // One export first, not measured: it warms the server's caches and heap.
    await readHttp(url, headers);
    const warmMb = await residentMegabytes(server.pid);
    // The resident size's peak during each round of the console's export.
    const roundPeaksMb: number[] = [];
    const httpMs: number[] = [];
    const copyMs: number[] = [];
    let httpBytes = 0;
    let copyBytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let peakMb = await residentMegabytes(server.pid);
      const sampler = setInterval(() => {
        void residentMegabytes(server.pid).then((mb) => {
          peakMb = Math.max(peakMb, mb);
        });
      }, 100);
      const http = await timed(() => readHttp(url, headers)).finally(() => clearInterval(sampler));
      roundPeaksMb.push(Math.max(peakMb, await residentMegabytes(server.pid)));
      httpMs.push(http.ms);
      httpBytes = http.bytes;
      const copy = await timed(() => readCopy(db, copySql));
      copyMs.push(copy.ms);
      copyBytes = copy.bytes;
    }
    const afterMb = await residentMegabytes(server.pid);

    const http = median(httpMs);
    const copy = median(copyMs);
    const peakMb = Math.max(...roundPeaksMb);
    // Flat: the growth does not depend on the list's size. V8's young generation alone may take
    // up to 3 x 64 MB with the server's options (--max-semi-space-size=64), reached after a few
    // exports; the file of 10^6 events is about 200 MB, twice that as a JavaScript string.
    const flat = peakMb - beforeMb <= YOUNG_GENERATION_MB;
    console.log(`exports: ${rows.toLocaleString('en')} events as CSV, median of ${ROUNDS} rounds`);
    console.log(
      `  GET /api/events/export : ${(http / 1000).toFixed(2)} s, ${(httpBytes / 1e6).toFixed(1)} MB`,
    );
    console.log(
      `  COPY … (FORMAT csv)    : ${(copy / 1000).toFixed(2)} s, ${(copyBytes / 1e6).toFixed(1)} MB`,
    );
    console.log(`  ratio                  : ${ratio(http, copy)}x`);
    console.log(
      `  server resident MB     : before ${beforeMb.toFixed(0)}, after a first export ${warmMb.toFixed(0)}, peak per export ${roundPeaksMb
        .map((mb) => mb.toFixed(0))
        .join(', ')}, after ${afterMb.toFixed(0)}`,
    );
    console.log(
      `  target                 : ≤ 2x COPY, memory flat (peak ≤ before + ${YOUNG_GENERATION_MB} MB): ${verdict(
        http <= 2 * copy && flat,
        `${ratio(http, copy)}x, +${(peakMb - beforeMb).toFixed(0)} MB`,
      )}`,
    );
  });
}

/** `rows` events of every kind the log holds: tenants, entities, metadata with quotes and commas. */
async function fillEvents(db: pg.Client, rows: number): Promise<void> {
  const started = performance.now();
  await db.query(
    `insert into events (event_name, tenant_id, entity_id, unique_id, created_at, metadata,
       is_processed, has_error)
     select (array['TenantCreated', 'EntityUpdated', 'KeyDeleted', 'TestEvent'])[1 + i % 4],
       null, case when i % 3 = 0 then 'entity-' || i end, md5(i::text),
       now() - make_interval(secs => i),
       jsonb_build_object('actor', 'user' || i % 50 || '@example.com', 'action', 'update',
         'note', 'a "quoted", comma text =' || i),
       true, false
     from generate_series(1, $1::int) as i`,
    [rows],
  );
  await db.query('vacuum analyze events');
  console.log(
    `exports: ${rows.toLocaleString('en')} events made in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * The export's own statement (no filter: no parameter), as Kysely compiles it. Without a name
 * filter eventsExport reads nothing first, so the pool behind this Kysely never connects.
 */
async function exportSql(): Promise<string> {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
  try {
    const filters = { sortOrder: 'desc', unprocessedOnly: false, erroredOnly: false } as const;
    const list = await eventsExport(
      db,
      { ...filters, eventName: undefined, format: 'csv' },
      {
        kind: 'all',
      },
    );
    const compiled = list.query.compile();
    if (compiled.parameters.length > 0) throw new Error('The unfiltered export has parameters');
    return compiled.sql;
  } finally {
    await db.destroy();
  }
}

async function readHttp(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, { headers });
  if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
}

async function readCopy(db: pg.Client, statement: string): Promise<number> {
  const stream = db.query(copyTo(`copy (${statement}) to stdout (format csv)`));
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Buffer).byteLength;
  return bytes;
}

async function timed(run: () => Promise<number>): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const bytes = await run();
  return { ms: performance.now() - start, bytes };
}
