import { overviewSchema, staffOverviewSchema, tenantOverviewSchema } from '@console/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { usePortalTestApp } from '../../../test/portal-test-app.ts';
import { migrations } from '../../db/migrations/index.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import { recordMailCount } from '../../outbox/mail-counts.ts';
import { EVENT_SUBSCRIPTIONS } from '../../outbox/subscriptions.ts';
import { readStaffOverview, readTenantOverview } from './queries.ts';
import { ShortCache } from './routes.ts';

// GET /api/overview (docs/operations.md, "The dashboard overview").

const portal = usePortalTestApp({ eventWorkersEnabled: false });
const db = () => portal.testApp.database.db;

async function exactCount(table: 'tenants' | 'entities' | 'entity_users', tenantId?: number) {
  let query = db()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'));
  if (tenantId !== undefined && table !== 'tenants')
    query = query.where('tenant_id', '=', tenantId);
  return (await query.executeTakeFirstOrThrow()).count;
}

describe('who reads the overview', () => {
  it('refuses anonymous callers (401) and people without a role (403)', async () => {
    expect((await portal.call('anonymous', 'GET', '/api/overview')).statusCode).toBe(401);
    expect((await portal.call('noRole', 'GET', '/api/overview')).statusCode).toBe(403);
  });

  it('answers staff and admins the whole console', async () => {
    for (const caller of ['staff', 'admin'] as const) {
      const response = await portal.call(caller, 'GET', '/api/overview');
      expect(response.statusCode).toBe(200);
      const overview = staffOverviewSchema.parse(response.json());
      expect(overview.tenants).toBe(await exactCount('tenants'));
      expect(overview.entities).toBe(await exactCount('entities'));
      expect(overview.entityUsers).toBe(await exactCount('entity_users'));
      expect(overview.eventWorkers.map((worker) => worker.worker)).toEqual(
        EVENT_SUBSCRIPTIONS.map((subscription) => subscription.name),
      );
    }
  });

  it("answers a tenant user its own tenant's figures only, with no staff figure", async () => {
    for (const [caller, tenantId] of [
      ['acme', portal.acmeId],
      ['globex', portal.globexId],
    ] as const) {
      const response = await portal.call(caller, 'GET', '/api/overview');
      expect(response.statusCode).toBe(200);
      const body = response.json() as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(
        ['asOf', 'audience', 'entities', 'entityUsers', 'events'].sort(),
      );
      const overview = tenantOverviewSchema.parse(body);
      expect(overview.entities).toBe(await exactCount('entities', tenantId));
      expect(overview.entityUsers).toBe(await exactCount('entity_users', tenantId));
    }
    const acme = overviewSchema.parse((await portal.call('acme', 'GET', '/api/overview')).json());
    const globex = overviewSchema.parse(
      (await portal.call('globex', 'GET', '/api/overview')).json(),
    );
    expect(acme).not.toEqual(globex);
  });

  it('takes no query parameter that could widen a tenant user’s view', async () => {
    const response = await portal.call(
      'acme',
      'GET',
      `/api/overview?tenantId=${portal.globexId}&audience=staff`,
    );
    expect(response.statusCode).toBe(200);
    const overview = tenantOverviewSchema.parse(response.json());
    expect(overview.entities).toBe(await exactCount('entities', portal.acmeId));
  });
});

describe('the figures', () => {
  it('counts every worker’s waiting and failed records and the oldest waiting age', async () => {
    const before = await readStaffOverview(db(), migrations);
    const event = () =>
      db()
        .transaction()
        .execute((trx) =>
          recordEvent(trx, { eventName: 'TestEvent', tenantId: null, metadata: {} }),
        );
    const old = await event();
    const failing = await event();
    await sql`update events set created_at = now() - interval '2 hours' where id = ${old.id}`.execute(
      db(),
    );
    await sql`update processed_events set has_error = true, error_message = 'boom'
      where event_id = ${failing.id} and worker_name = 'audit-trail'`.execute(db());

    const after = await readStaffOverview(db(), migrations);
    const auditTrail = (overview: typeof before) =>
      overview.eventWorkers.find((worker) => worker.worker === 'audit-trail');
    expect(auditTrail(after)?.waiting).toBe((auditTrail(before)?.waiting ?? 0) + 1);
    expect(auditTrail(after)?.failed).toBe((auditTrail(before)?.failed ?? 0) + 1);
    expect(auditTrail(after)?.oldestWaitingSeconds).toBeGreaterThanOrEqual(7200);
  });

  it('says when the last FATF import ran, how it ended and its records', async () => {
    const { id } = await db()
      .insertInto('fatf_imports')
      .values({
        status: 'pending',
        options: JSON.stringify({
          overwriteExisting: false,
          validateChronology: false,
          skipInvalidRecords: false,
        }),
        record_count: 12,
        created_by: 'test',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('fatf_imports')
      .set({ status: 'completed', records_imported: 10 })
      .where('id', '=', id)
      .execute();

    const overview = await readStaffOverview(db(), migrations);
    expect(overview.lastRatingsImport).toMatchObject({
      id,
      status: 'completed',
      records: 12,
      imported: 10,
    });
  });

  it('counts the mails of the last 24 hours, not older ones', async () => {
    const before = (await readStaffOverview(db(), migrations)).mails;
    await recordMailCount(db(), 'invitation', 'sent');
    await recordMailCount(db(), 'template_test', 'sent');
    await recordMailCount(db(), 'invitation', 'failed');
    await db()
      .insertInto('mail_counts')
      .values({
        hour: new Date(Date.now() - 26 * 3600_000),
        kind: 'invitation',
        outcome: 'sent',
        mails: 50,
      })
      .execute();

    const { mails } = await readStaffOverview(db(), migrations);
    expect(mails).toEqual({ sent: before.sent + 2, failed: before.failed + 1 });
  });

  it('counts the migrations this build has that the database has not applied', async () => {
    const extra = {
      version: 10_000,
      description: 'Not applied',
      className: 'NotApplied',
      up: async () => {},
    };
    expect((await readStaffOverview(db(), migrations)).pendingMigrations).toBe(0);
    expect((await readStaffOverview(db(), [...migrations, extra])).pendingMigrations).toBe(1);
  });

  it("counts a tenant's waiting and failed events, not another tenant's", async () => {
    const before = await readTenantOverview(db(), portal.acmeId);
    const globexBefore = await readTenantOverview(db(), portal.globexId);
    const event = (tenantId: number) =>
      db()
        .transaction()
        .execute((trx) => recordEvent(trx, { eventName: 'TestEvent', tenantId, metadata: {} }));
    await event(portal.acmeId);
    const failed = await event(portal.acmeId);
    await db().updateTable('events').set({ has_error: true }).where('id', '=', failed.id).execute();

    const after = await readTenantOverview(db(), portal.acmeId);
    expect(after.events).toEqual({
      waiting: before.events.waiting + 1,
      failed: before.events.failed + 1,
    });
    expect((await readTenantOverview(db(), portal.globexId)).events).toEqual(globexBefore.events);
  });

  it('follows the entity lists as entities come and go', async () => {
    const before = await readTenantOverview(db(), portal.globexId);
    await db()
      .insertInto('entities')
      .values({
        party_entity_id: 'overview-test-entity',
        tenant_id: portal.globexId,
        names: JSON.stringify({ names: { entityName: 'Overview Test' } }),
        country: 'GB',
      })
      .execute();
    expect((await readTenantOverview(db(), portal.globexId)).entities).toBe(before.entities + 1);
  });
});

describe('the short cache', () => {
  it('answers the same read for a while, shares one running read, and does not keep a failure', async () => {
    const cache = new ShortCache<number>(60_000);
    let reads = 0;
    const load = async () => ++reads;
    const [first, second] = await Promise.all([cache.read('a', load), cache.read('a', load)]);
    expect([first, second, reads]).toEqual([1, 1, 1]);
    expect(await cache.read('b', load)).toBe(2);

    await expect(cache.read('c', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.read('c', load)).toBe(3);
  });

  it('reads again once the time is up', async () => {
    const cache = new ShortCache<number>(20);
    let reads = 0;
    const load = async () => ++reads;
    await cache.read('a', load);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await cache.read('a', load)).toBe(2);
  });

  it('serves the overview from it: two calls within seconds answer the same figures', async () => {
    const first = (await portal.call('staff', 'GET', '/api/overview')).json() as { asOf: string };
    const second = (await portal.call('staff', 'GET', '/api/overview')).json() as { asOf: string };
    expect(second.asOf).toBe(first.asOf);
  });
});
