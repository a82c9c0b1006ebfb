import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { pruneOnce } from './retention.ts';

// Retention (issue 31, part 7; docs/operations.md "Retention").

const NOW = new Date('2025-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

let testApp: TestApp;
const db = () => testApp.database.db;

beforeAll(async () => {
  // No workers: the events stay as written here.
  testApp = await createTestApp({ eventWorkersEnabled: false });
});

afterAll(async () => {
  await testApp?.close();
});

let serial = 0;
async function addEvent(age: number, state: 'processed' | 'waiting' | 'failed'): Promise<number> {
  serial += 1;
  const { id } = await db()
    .insertInto('events')
    .values({
      event_name: 'RetentionTest',
      tenant_id: null,
      entity_id: null,
      unique_id: `retention-${serial}`,
      created_at: daysAgo(age),
      metadata: JSON.stringify({ age, state }),
      is_processed: state === 'processed',
      has_error: state === 'failed',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

async function addAuditRow(age: number): Promise<number> {
  const { id } = await db()
    .insertInto('audit_log')
    .values({
      event_id: 0,
      event_name: 'RetentionTest',
      tenant_id: null,
      entity_id: null,
      actor: 'staff@example.com',
      action: 'update',
      before: null,
      after: null,
      metadata: JSON.stringify({ age }),
      occurred_at: daysAgo(age),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

const eventIds = async () =>
  (await db().selectFrom('events').select('id').where('event_name', '=', 'RetentionTest').execute())
    .map((row) => row.id)
    .sort((a, b) => a - b);
const auditIds = async () =>
  (await db().selectFrom('audit_log').select('id').execute())
    .map((row) => row.id)
    .sort((a, b) => a - b);

describe('retention', () => {
  beforeEach(async () => {
    await db().deleteFrom('events').where('event_name', '=', 'RetentionTest').execute();
  });

  it('defaults to 90 days of processed events and an audit log kept forever', () => {
    const config = loadConfig({});
    expect(config.eventRetentionDays).toBe(90);
    expect(config.auditRetentionDays).toBeUndefined();
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '1825' }).auditRetentionDays).toBe(1825);
    expect(() => loadConfig({ EVENT_RETENTION_DAYS: '0' })).toThrow(/EVENT_RETENTION_DAYS/);
  });

  it('deletes processed events older than the period in batches, keeping waiting and failed ones', async () => {
    const old = [];
    for (let index = 0; index < 5; index += 1) old.push(await addEvent(100 + index, 'processed'));
    const kept = [
      await addEvent(200, 'waiting'),
      await addEvent(200, 'failed'),
      await addEvent(89, 'processed'),
    ];
    const result = await pruneOnce(
      db(),
      { eventRetentionDays: 90, auditRetentionDays: undefined, batchSize: 2 },
      NOW,
    );
    expect(result).toEqual({ events: 5, auditRows: 0, ran: true });
    expect(await eventIds()).toEqual(kept.sort((a, b) => a - b));
  });

  it('keeps the audit log unless AUDIT_RETENTION_DAYS is set, and then only through prune_audit_log', async () => {
    const before = await auditIds();
    const old = [await addAuditRow(400), await addAuditRow(500), await addAuditRow(600)];
    const recent = await addAuditRow(10);
    await pruneOnce(db(), { eventRetentionDays: 90, auditRetentionDays: undefined }, NOW);
    expect(await auditIds()).toEqual([...before, ...old, recent].sort((a, b) => a - b));

    // Still append-only for everything else.
    await expect(db().deleteFrom('audit_log').where('id', '=', recent).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(
      db()
        .updateTable('audit_log')
        .set({ actor: 'x' } as never)
        .execute(),
    ).rejects.toThrow();

    const result = await pruneOnce(
      db(),
      { eventRetentionDays: 90, auditRetentionDays: 365, batchSize: 2 },
      NOW,
    );
    expect(result.auditRows).toBe(old.length + before.length);
    expect(await auditIds()).toEqual([recent]);
    // The flag the trigger honours lasts only inside the function.
    await expect(db().deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
  });

  it('leaves the pruning to the instance that holds the lock', async () => {
    const old = await addEvent(100, 'processed');
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = db()
      .transaction()
      .execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${0x52_45_54_4e})`.execute(trx);
        await released;
      });
    try {
      // The other transaction has the lock once its statement ran.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(
        await pruneOnce(db(), { eventRetentionDays: 90, auditRetentionDays: undefined }, NOW),
      ).toEqual({ events: 0, auditRows: 0, ran: false });
      expect(await eventIds()).toEqual([old]);
    } finally {
      release();
      await holding;
    }
    expect(
      (await pruneOnce(db(), { eventRetentionDays: 90, auditRetentionDays: undefined }, NOW))
        .events,
    ).toBe(1);
  });
});
