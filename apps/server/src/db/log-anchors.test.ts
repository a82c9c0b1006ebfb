import {
  auditListQuerySchema,
  eventListQuerySchema,
  type AuditList,
  type EventList,
} from '@console/contracts';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database.ts';
import { listAudit } from '../features/audit/queries.ts';
import { listEvents } from '../features/events/queries.ts';
import { parseJsonText } from '../http/json-text.ts';
import type { DatabaseHandle } from './connection.ts';
import { LogPageAnchors, useLogAnchors } from './log-anchors.ts';
import type { PageNumberedTable } from './paging.ts';
import type { Database } from './schema.ts';

// A deep page of a whole log asked by its number must be exactly the page of a plain offset walk,
// whatever was written around the anchors. K = 7 and a few hundred rows make dozens of anchors.

const SPACING = 7;
const LIVE_MAX = 40;

/** The anchors of the test database, telling whether the last page came from them. */
class RecordingAnchors extends LogPageAnchors {
  lastAnchored: boolean | undefined;

  override async rowBefore(...args: Parameters<LogPageAnchors['rowBefore']>) {
    const found = await super.rowBefore(...args);
    this.lastAnchored = found !== 'stale';
    return found;
  }
}

let database: DatabaseHandle;
let anchors: RecordingAnchors;
const db = (): Kysely<Database> => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  // No pause between builds: the tests write and expect the anchors rebuilt at once. The
  // boundary at the build's time: rows written after a build are newer than it.
  anchors = new RecordingAnchors(database.db, {
    spacing: SPACING,
    liveMax: LIVE_MAX,
    boundaryLagSeconds: 0,
    pauseAfterBuild: () => 0,
  });
  useLogAnchors(db(), anchors);
  await insertEvents('seed', 250, '3 days');
  await insertAuditRows('seed', 250, '3 days');
});

afterAll(async () => {
  await anchors?.settled();
  await database?.close();
});

/**
 * The time of the i-th of rows written now: one a minute back from `back` ago, or (no `back`)
 * the writing transaction's time, as the console's writes have it.
 */
const timeOf = (back: string | undefined) =>
  back === undefined ? sql`now()` : sql`now() - ${back}::interval - i * interval '1 minute'`;

/** `count` events named `name` (times: `timeOf`). */
async function insertEvents(name: string, count: number, back?: string) {
  await sql`
    insert into events (event_name, tenant_id, unique_id, created_at, metadata)
    select ${name}, null, ${name} || '-' || i || '-' || md5(random()::text), ${timeOf(back)},
      '{}'::jsonb
    from generate_series(1, ${count}::int) as i
  `.execute(db());
}

/** `count` audit rows of actor `actor` (times: `timeOf`). */
async function insertAuditRows(actor: string, count: number, back?: string) {
  await sql`
    insert into audit_log (event_id, event_name, actor, action, metadata, occurred_at,
      target_type, target_id, target_name)
    select i, 'Test', ${actor}, 'update', '{}'::jsonb, ${timeOf(back)}, 'Tenant', i::text,
      'Record ' || i
    from generate_series(1, ${count}::int) as i
  `.execute(db());
}

/** The ids of a page by a plain offset walk. */
async function plainPage(
  log: PageNumberedTable,
  descending: boolean,
  offset: number,
  size: number,
) {
  const order = sql.ref(log === 'events' ? 'created_at' : 'occurred_at');
  const direction = sql.raw(descending ? 'desc' : 'asc');
  const { rows } = await sql<{ id: number }>`
    select id from ${sql.table(log)} order by ${order} ${direction}, id ${direction}
    offset ${offset} limit ${size}
  `.execute(db());
  return rows.map((row) => Number(row.id));
}

/**
 * Page `page` of `size` rows of the whole log as GET /api/events or /api/audit reads it, checked
 * against the plain offset walk; true when it was read from the anchors.
 */
async function checkedPage(
  log: PageNumberedTable,
  descending: boolean,
  page: number,
  size: number,
): Promise<boolean> {
  anchors.lastAnchored = undefined;
  const params = { page: String(page), pageSize: String(size) };
  const answer: AuditList | EventList =
    log === 'audit_log'
      ? parseJsonText(await listAudit(db(), auditListQuerySchema.parse(params)))
      : parseJsonText(
          await listEvents(
            db(),
            eventListQuerySchema.parse({ ...params, sortOrder: descending ? 'desc' : 'asc' }),
            { kind: 'all' },
          ),
        );
  expect(answer.data.map((row) => row.id)).toEqual(
    await plainPage(log, descending, (page - 1) * size, size),
  );
  return anchors.lastAnchored === true;
}

/** A deep page of `log` read once (which builds its anchors), then from the anchors. */
async function warm(log: PageNumberedTable) {
  await checkedPage(log, true, 4, 5);
  await anchors.settled();
  expect(await checkedPage(log, true, 4, 5)).toBe(true);
}

const logs = ['events', 'audit_log'] as const;

describe('deep pages of the logs from anchors', () => {
  beforeEach(async () => {
    for (const log of logs) await warm(log);
  });

  it('are the pages of a plain offset walk, for either log, any order, page and size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...logs),
        fc.boolean(),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 25 }),
        async (log, descendingAsked, page, size) => {
          const descending = log === 'audit_log' || descendingAsked;
          const anchored = await checkedPage(log, descending, page, size);
          expect(anchored).toBe((page - 1) * size >= SPACING);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('count the rows newer than the anchors: new rows need no rebuild', async () => {
    await insertEvents('newer', 12);
    await insertAuditRows('newer', 12);
    for (const log of logs) {
      // The row before the page among the newer rows, then past them, when more rows came since
      // the last page than the block its anchor is chosen early by: it is found once more.
      expect(await checkedPage(log, true, 2, 8)).toBe(true);
      await (log === 'events' ? insertEvents('newer', 20) : insertAuditRows('newer', 20));
      expect(await checkedPage(log, true, 10, 6)).toBe(true);
    }
    expect(await checkedPage('events', false, 3, 9)).toBe(true);
  });

  it('are not read from anchors that a change of the older rows made stale, until rebuilt', async () => {
    const changes: [string, PageNumberedTable, () => Promise<unknown>][] = [
      ['an event written with an older time', 'events', () => insertEvents('late', 1, '2 days')],
      ['the audit row of an older event', 'audit_log', () => insertAuditRows('late', 1, '2 days')],
      [
        'a deleted event',
        'events',
        () =>
          sql`delete from events where id = (select min(id) from events where event_name = 'seed')`.execute(
            db(),
          ),
      ],
      [
        'an event moved in time',
        'events',
        () =>
          sql`update events set created_at = created_at - interval '1 day' where id = (select max(id) from events where event_name = 'seed')`.execute(
            db(),
          ),
      ],
      [
        'audit rows pruned by retention',
        'audit_log',
        () => sql`select prune_audit_log(now() - interval '3 days 100 minutes', 10)`.execute(db()),
      ],
    ];
    for (const [change, log, write] of changes) {
      await write();
      expect(await checkedPage(log, true, 6, 5), change).toBe(false);
      await anchors.settled();
      expect(await checkedPage(log, true, 6, 5), change).toBe(true);
    }
  });

  it('are rebuilt when more rows than liveMax came since', async () => {
    await insertEvents('many', LIVE_MAX + 5);
    expect(await checkedPage('events', true, 20, 5)).toBe(false);
    await anchors.settled();
    expect(await checkedPage('events', true, 20, 5)).toBe(true);
  });

  it('answer a page past the end with no rows and the total', async () => {
    const answer = parseJsonText(
      await listAudit(db(), auditListQuerySchema.parse({ page: '1000', pageSize: '100' })),
    );
    expect(anchors.lastAnchored).toBe(true);
    const { rows } = await sql<{
      rows: number;
    }>`select count(*)::int as rows from audit_log`.execute(db());
    expect(answer).toMatchObject({ data: [], totalCount: rows[0]!.rows, totalIsEstimate: false });
  });

  it('are stale after a truncate', async () => {
    await sql`truncate processed_events, events`.execute(db());
    await insertEvents('after truncate', 60, '1 day');
    expect(await checkedPage('events', true, 5, 5)).toBe(false);
    await anchors.settled();
    expect(await checkedPage('events', true, 5, 5)).toBe(true);
  });
});

describe('a build', () => {
  it('waits for a transaction that began before its boundary, and then sees its rows', async () => {
    await warm('events');
    // A writer whose snapshot is older than the new boundary: its trigger reads the old one, and
    // raises no generation for a row between the two. The build must wait until it is over.
    const writer = new pg.Client({ connectionString: database.connectionString });
    await writer.connect();
    try {
      await writer.query('begin isolation level repeatable read');
      await writer.query('select count(*) from events');
      await insertEvents('stale-maker', 1, '2 days'); // makes the anchors stale: a build starts
      expect(await checkedPage('events', true, 6, 5)).toBe(false);
      const built = anchors.settled().then(() => 'built');
      const waited = new Promise((resolve) => setTimeout(() => resolve('waiting'), 500));
      expect(await Promise.race([built, waited])).toBe('waiting');
      await writer.query(
        `insert into events (event_name, unique_id, created_at, metadata)
         select 'hidden', 'hidden-1', boundary + interval '1 microsecond', '{}'
         from log_anchor_states where list = 'events'`,
      );
      await writer.query('commit');
      await built;
    } finally {
      await writer.end();
    }
    const { rows } = await sql<{ rows: number }>`select count(*)::int as rows from events`.execute(
      db(),
    );
    const last = Math.ceil(rows[0]!.rows / 5);
    for (const page of [1, 3, last - 1, last]) await checkedPage('events', true, page, 5);
    expect(await checkedPage('events', true, last, 5)).toBe(true);
  });
});
