import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/test-database.ts';
import type { DatabaseHandle } from '../connection.ts';
import { EVENT_WORKERS } from './demo-data.ts';
import { seedDemoData } from './demo.ts';
import { SCALE_ID_PREFIX, seedScale, type ScaleProgress } from './scale.ts';

const NOW = new Date('2026-03-15T12:00:00Z');
const N = 500;
const GENERATED = `${SCALE_ID_PREFIX}-%`;

describe('seedScale', () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemoData(database.db, { now: NOW });
  });
  afterAll(async () => {
    await database?.close();
  });

  const generatedCounts = async () => {
    const result = await sql<{
      entities: number;
      users: number;
      events: number;
      processed: number;
    }>`
      select
        (select count(*) from entities where party_entity_id like ${GENERATED})::int as entities,
        (select count(*) from entity_users where party_user_id like ${GENERATED})::int as users,
        (select count(*) from events where unique_id like ${GENERATED})::int as events,
        (select count(*) from processed_events p join events e on e.id = p.event_id
          where e.unique_id like ${GENERATED})::int as processed
    `.execute(database.db);
    return result.rows[0];
  };

  /** The generated rows, with tenants by name (ids are the database's own). */
  const snapshot = async () => ({
    entities: (
      await sql`
        select e.party_entity_id, t.company_name, e.names, e.country, e.created_at
        from entities e join tenants t on t.id = e.tenant_id
        where e.party_entity_id like ${GENERATED} order by e.party_entity_id
      `.execute(database.db)
    ).rows,
    users: (
      await sql`
        select party_user_id, party_entity_id, type, state, email, metadata, keys, created_at
        from entity_users where party_user_id like ${GENERATED} order by party_user_id
      `.execute(database.db)
    ).rows,
    events: (
      await sql`
        select e.event_name, t.company_name, e.entity_id, e.unique_id, e.created_at, e.metadata,
          e.is_processed, e.has_error,
          (select json_agg(json_build_object('worker', p.worker_name, 'error', p.error_message)
            order by p.worker_name) from processed_events p where p.event_id = e.id) as processing
        from events e left join tenants t on t.id = e.tenant_id
        where e.unique_id like ${GENERATED} order by e.unique_id
      `.execute(database.db)
    ).rows,
  });

  it('writes exactly n entities, entity users and events, in batches', async () => {
    const progress: ScaleProgress[] = [];
    const summary = await seedScale(database.db, N, {
      now: NOW,
      batchSize: 200,
      onProgress: (p) => progress.push(p),
    });
    expect(summary).toMatchObject({ entities: N, entityUsers: N, events: N });
    expect(summary.processedEvents).toBeGreaterThan(N);
    expect(await generatedCounts()).toEqual({
      entities: N,
      users: N,
      events: N,
      processed: summary.processedEvents,
    });
    expect(progress.filter((p) => p.table === 'entities').map((p) => p.done)).toEqual([
      200, 400, 500,
    ]);
  });

  it('spreads the rows over the demo tenants and generated ones, consistently', async () => {
    const perTenant = await sql<{ company_name: string; n: number }>`
      select t.company_name, count(*)::int as n from entities e join tenants t on t.id = e.tenant_id
      where e.party_entity_id like ${GENERATED} group by 1 order by 1
    `.execute(database.db);
    expect(perTenant.rows.map((row) => row.company_name)).toEqual([
      'Acme Corporation',
      'Globex Limited',
      'Load Test Tenant 1',
      'Load Test Tenant 2',
      'Load Test Tenant 3',
    ]);
    for (const row of perTenant.rows) expect(row.n).toBe(N / 5);

    const mismatched = await sql<{ n: number }>`
      select count(*)::int as n from entity_users u join entities e using (party_entity_id)
      where u.party_user_id like ${GENERATED} and u.tenant_id <> e.tenant_id
    `.execute(database.db);
    expect(mismatched.rows[0]?.n).toBe(0);
    const eventsOfOtherTenants = await sql<{ n: number }>`
      select count(*)::int as n from events v join entities e on e.party_entity_id = v.entity_id
      where v.unique_id like ${GENERATED} and v.tenant_id is distinct from e.tenant_id
    `.execute(database.db);
    expect(eventsOfOtherTenants.rows[0]?.n).toBe(0);
  });

  it('writes events of the last 30 days whose flags match their processing rows', async () => {
    const events = await database.db
      .selectFrom('events')
      .selectAll()
      .where('unique_id', 'like', GENERATED)
      .orderBy('id')
      .execute();
    const processing = await database.db
      .selectFrom('processed_events')
      .selectAll()
      .where(
        'event_id',
        'in',
        events.map((event) => event.id),
      )
      .execute();
    const rowsOf = new Map<number, typeof processing>();
    for (const row of processing)
      rowsOf.set(row.event_id, [...(rowsOf.get(row.event_id) ?? []), row]);
    let previous = 0;
    for (const event of events) {
      const time = event.created_at.getTime();
      expect(time).toBeGreaterThanOrEqual(previous);
      expect(time).toBeLessThanOrEqual(NOW.getTime());
      expect(time).toBeGreaterThanOrEqual(NOW.getTime() - 30 * 24 * 60 * 60 * 1000);
      previous = time;
      const rows = rowsOf.get(event.id) ?? [];
      expect(event.has_error).toBe(rows.some((row) => row.has_error));
      expect(event.is_processed).toBe(
        !event.has_error &&
          EVENT_WORKERS.every((worker) =>
            rows.some((row) => row.worker_name === worker && row.processed_at !== null),
          ),
      );
    }
    expect(events.filter((event) => event.has_error).length).toBeGreaterThan(0);
    expect(
      events.filter((event) => !event.is_processed && !event.has_error).length,
    ).toBeGreaterThan(0);
    expect(events.filter((event) => event.entity_id === null).length).toBeGreaterThan(0);
  });

  it('is idempotent', async () => {
    const before = await snapshot();
    const summary = await seedScale(database.db, N, { now: NOW, batchSize: 200 });
    expect(summary).toMatchObject({
      entities: 0,
      entityUsers: 0,
      events: 0,
      processedEvents: 0,
      rows: 0,
    });
    expect(await snapshot()).toEqual(before);
  });

  it('is deterministic: the same n writes the same rows again', async () => {
    const before = await snapshot();
    await sql`delete from entity_users where party_user_id like ${GENERATED}`.execute(database.db);
    await sql`delete from entities where party_entity_id like ${GENERATED}`.execute(database.db);
    await sql`delete from events where unique_id like ${GENERATED}`.execute(database.db);
    expect(await generatedCounts()).toEqual({ entities: 0, users: 0, events: 0, processed: 0 });
    // Another batch size must not matter either.
    await seedScale(database.db, N, { now: NOW, batchSize: 1_000 });
    expect(await snapshot()).toEqual(before);
  });

  it('adds only the missing rows for a larger n', async () => {
    const summary = await seedScale(database.db, N + 100, { now: NOW });
    expect(summary).toMatchObject({ entities: 100, entityUsers: 100, events: 100 });
    expect(await generatedCounts()).toMatchObject({
      entities: N + 100,
      users: N + 100,
      events: N + 100,
    });
  });

  it('rejects a bad n', async () => {
    await expect(seedScale(database.db, -1)).rejects.toThrow('seedScale needs a whole number');
    await expect(seedScale(database.db, 1.5)).rejects.toThrow('seedScale needs a whole number');
  });
});
