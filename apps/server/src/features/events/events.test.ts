import {
  EXACT_TOTAL_MAX,
  eventListQuerySchema,
  eventListSchema,
  type EventItem,
  type EventList,
} from '@console/contracts';
import { sql, type Selectable } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectIndexBacked, expectRefusal } from '../../../test/expectations.ts';
import {
  usePortalTestApp,
  type Caller,
  type PortalTestApp,
} from '../../../test/portal-test-app.ts';
import type { EventsTable } from '../../db/schema.ts';
import { eventState, eventually } from '../../outbox/test-support.ts';
import { eventNamesContaining, eventPageStatement, type EventScope } from './queries.ts';

const NOW = new Date('2025-06-01T12:00:00Z');

/** GET api/events`query` as `caller`: a 200 whose page has the schema's shape. */
async function listPage(h: PortalTestApp, query: string, caller: Caller): Promise<EventList> {
  const response = await h.call(caller, 'GET', `/api/events${query}`);
  expect(response.statusCode).toBe(200);
  // The page is JSON written by PostgreSQL, sent as it is: it must be the schema's shape.
  const page = response.json() as EventList;
  expect(eventListSchema.parse(page)).toEqual(page);
  return page;
}

describe('GET api/events (paging, sorting, filters, tenant scope)', () => {
  // No workers: the seeded log stays as seeded while the filters are compared with it.
  const h = usePortalTestApp({ eventWorkersEnabled: false }, { now: NOW });
  const tenantIds = () => ({ acme: h.acmeId, globex: h.globexId });
  let all: Selectable<EventsTable>[];
  beforeAll(async () => {
    all = await h.testApp.database.db.selectFrom('events').selectAll().execute();
  });

  const newestFirst = (a: Selectable<EventsTable>, b: Selectable<EventsTable>) =>
    b.created_at.getTime() - a.created_at.getTime() || b.id - a.id;
  const ids = (events: readonly { id: number }[]) => events.map((event) => event.id);
  const list = (query: string, caller: Caller = 'staff') => listPage(h, query, caller);

  it('answers the first page of 10, newest first, with the total', async () => {
    expect(all).toHaveLength(150);
    const page = await list('');
    expect(page.totalCount).toBe(150);
    expect(page.page).toBe(1);
    expect(page.pageSize).toBe(10);
    expect(ids(page.data)).toEqual(ids([...all].sort(newestFirst).slice(0, 10)));
  });

  it('answers each event with its fields and its workers’ records', async () => {
    const page = await list('?pageSize=100&erroredOnly=true');
    const errored = page.data[0] as EventItem;
    const row = all.find((event) => event.id === errored.id);
    expect(errored).toEqual({
      id: row?.id,
      eventName: row?.event_name,
      tenantId: row?.tenant_id,
      entityId: row?.entity_id,
      uniqueId: row?.unique_id,
      createdAt: row?.created_at.toISOString(),
      metadata: row?.metadata,
      isProcessed: false,
      hasError: true,
      processedEvents: expect.any(Array),
    });
    expect(typeof errored.metadata).toBe('object');
    const failed = errored.processedEvents.find((record) => record.hasError);
    expect(failed).toMatchObject({
      eventId: errored.id,
      workerName: expect.stringMatching(/^(audit-trail|notifications)$/),
      errorMessage: expect.any(String),
      processedAt: null,
      attempts: expect.any(Number),
    });
    const names = errored.processedEvents.map((record) => record.workerName);
    expect(names).toEqual([...names].sort());
  });

  it('sorts oldest first and pages through the log without overlap', async () => {
    const oldest = [...all].sort((a, b) => -newestFirst(a, b));
    const first = await list('?sortOrder=asc&pageSize=25');
    const second = await list('?sortOrder=asc&pageSize=25&page=2');
    expect(ids(first.data)).toEqual(ids(oldest.slice(0, 25)));
    expect(ids(second.data)).toEqual(ids(oldest.slice(25, 50)));
    const last = await list('?pageSize=100&page=2');
    expect(last.data).toHaveLength(50);
    expect(ids(last.data)).toEqual(ids([...all].sort(newestFirst).slice(100)));
    const beyond = await list('?page=99');
    expect(beyond).toEqual({
      data: [],
      totalCount: 150,
      totalIsEstimate: false,
      page: 99,
      pageSize: 10,
    });
  });

  it('steps to the next and the previous page from a row of the page shown (after, before)', async () => {
    for (const filters of ['', '&sortOrder=asc', '&unprocessedOnly=true', '&eventName=entity']) {
      const second = await list(`?page=2&pageSize=10${filters}`);
      const third = await list(`?page=3&pageSize=10${filters}`);
      const next = await list(`?page=3&pageSize=10${filters}&after=${second.data.at(-1)?.id}`);
      expect(ids(next.data)).toEqual(ids(third.data));
      expect(next).toMatchObject({ page: 3, totalCount: third.totalCount });
      const previous = await list(`?page=2&pageSize=10${filters}&before=${third.data[0]?.id}`);
      expect(ids(previous.data)).toEqual(ids(second.data));
    }
    // Before the first row there is nothing; after the last, nothing either.
    const first = await list('?pageSize=10');
    expect((await list(`?page=2&before=${first.data[0]?.id}`)).data).toEqual([]);
  });

  it('finds the page by its number when the row to step from is not in the list', async () => {
    const third = await list('?page=3&pageSize=10', 'acme');
    const others = all.find((event) => event.tenant_id === h.globexId);
    for (const after of [others?.id, 99_999_999]) {
      const page = await list(`?page=3&pageSize=10&after=${after}`, 'acme');
      expect(ids(page.data)).toEqual(ids(third.data));
    }
  });

  it('lowers a page size above 100 to 100', async () => {
    const page = await list('?pageSize=1000');
    expect(page.pageSize).toBe(100);
    expect(page.data).toHaveLength(100);
  });

  it('filters unprocessed and errored events', async () => {
    const unprocessed = await list('?unprocessedOnly=true&pageSize=100');
    const expectedUnprocessed = all.filter((event) => !event.is_processed);
    expect(unprocessed.totalCount).toBe(expectedUnprocessed.length);
    expect(unprocessed.data.every((event) => !event.isProcessed)).toBe(true);

    const errored = await list('?erroredOnly=true&pageSize=100');
    const expectedErrored = all.filter((event) => event.has_error);
    expect(expectedErrored.length).toBeGreaterThan(0);
    expect(errored.totalCount).toBe(expectedErrored.length);
    expect(ids(errored.data)).toEqual(ids(expectedErrored.sort(newestFirst)));

    // Both: errored events are unprocessed too.
    expect((await list('?erroredOnly=true&unprocessedOnly=true')).totalCount).toBe(
      expectedErrored.length,
    );
    expect((await list('?unprocessedOnly=false&erroredOnly=false')).totalCount).toBe(150);
  });

  it('filters by a part of the event name, ignoring letter case', async () => {
    const page = await list('?eventName=tEnAnT&pageSize=100');
    const expected = all.filter((event) => event.event_name.toLowerCase().includes('tenant'));
    expect(expected.length).toBeGreaterThan(0);
    expect(page.totalCount).toBe(expected.length);
    expect(ids(page.data)).toEqual(ids(expected.sort(newestFirst)));
    expect(new Set(page.data.map((event) => event.eventName))).toEqual(
      new Set(expected.map((event) => event.event_name)),
    );
    expect((await list('?eventName=EntityUserKeyDeleted')).totalCount).toBe(
      all.filter((event) => event.event_name === 'EntityUserKeyDeleted').length,
    );
    expect(await list('?eventName=NoSuchEvent')).toEqual({
      data: [],
      totalCount: 0,
      totalIsEstimate: false,
      page: 1,
      pageSize: 10,
    });
  });

  it('matches LIKE wildcards in the name filter literally', async () => {
    expect((await list(`?eventName=${encodeURIComponent('%')}`)).totalCount).toBe(0);
    expect((await list('?eventName=Entity_ser')).totalCount).toBe(0);
    expect((await list(`?eventName=${encodeURIComponent('\\')}`)).totalCount).toBe(0);
    expect(
      (await list(`?eventName=${encodeURIComponent("'; drop table events; --")}`)).totalCount,
    ).toBe(0);
    expect(
      await h.testApp.database.db.selectFrom('events').select('id').limit(1).execute(),
    ).toHaveLength(1);
  });

  it('combines the filters', async () => {
    const page = await list('?eventName=notification&erroredOnly=true');
    expect(page.totalCount).toBe(0);
    const combined = await list(
      '?eventName=entity&unprocessedOnly=true&sortOrder=asc&pageSize=5',
      'acme',
    );
    const expected = all
      .filter(
        (event) =>
          event.tenant_id === h.acmeId &&
          !event.is_processed &&
          event.event_name.toLowerCase().includes('entity'),
      )
      .sort((a, b) => -newestFirst(a, b));
    expect(combined.totalCount).toBe(expected.length);
    expect(ids(combined.data)).toEqual(ids(expected.slice(0, 5)));
  });

  it("shows a tenant user only its own tenant's events", async () => {
    for (const tenant of ['acme', 'globex'] as const) {
      const page = await list('?pageSize=100', tenant);
      const expected = all.filter((event) => event.tenant_id === tenantIds()[tenant]);
      expect(expected.length).toBeGreaterThan(0);
      expect(page.totalCount).toBe(expected.length);
      expect(page.data.every((event) => event.tenantId === tenantIds()[tenant])).toBe(true);
    }
    // Not even with a filter that matches only another tenant's or nobody's events.
    const countries = await list('?eventName=CountriesImported', 'acme');
    expect(countries.totalCount).toBe(0);
  });

  it('names the parameter when the query is wrong', async () => {
    for (const [query, message] of [
      ['?page=0', 'page must be a whole number of at least 1'],
      ['?pageSize=-5', 'pageSize must be a whole number of at least 1'],
      ['?sortOrder=sideways', 'sortOrder must be desc or asc'],
      ['?unprocessedOnly=maybe', 'unprocessedOnly must be true or false'],
      [`?eventName=${'x'.repeat(101)}`, 'eventName must be 100 characters or less'],
      ['?after=0', 'after must be a whole number from 1 to 9007199254740991, in plain digits'],
      ['?after=3&before=5', 'after and before cannot be combined'],
    ] as const) {
      const response = await h.call('staff', 'GET', `/api/events${query}`);
      expectRefusal(response, 400, message);
    }
  });
});

describe('GET api/events beyond the exact total, and every filter index-backed', () => {
  const h = usePortalTestApp({ eventWorkersEnabled: false }, { now: NOW });
  const BULK = 10_050;

  beforeAll(async () => {
    // Newer than every seeded event, one a second: the newest is 'bulk-10050'.
    await sql`
      insert into events (event_name, tenant_id, unique_id, created_at, metadata, is_processed)
      select 'BulkImported', ${h.acmeId}, 'bulk-' || n,
        timestamptz '2025-07-01' + n * interval '1 second', '{}'::jsonb, n % 3 <> 0
      from generate_series(1, ${BULK}) as n
    `.execute(h.testApp.database.db);
    await sql`analyze events`.execute(h.testApp.database.db);
  });

  const list = (query: string, caller: Caller = 'staff') => listPage(h, query, caller);

  it('answers an estimate beyond the exact threshold, never below what it counted', async () => {
    const page = await list('?eventName=bulk');
    expect(page.totalIsEstimate).toBe(true);
    expect(page.totalCount).toBeGreaterThan(EXACT_TOTAL_MAX);
    expect(page.data.map((event) => event.uniqueId)).toEqual(
      Array.from({ length: 10 }, (_, index) => `bulk-${BULK - index}`),
    );
    // The same for a tenant user and for the count that stops at the threshold.
    expect((await list('', 'acme')).totalIsEstimate).toBe(true);
    const unprocessed = await list('?eventName=bulk&unprocessedOnly=true');
    expect(unprocessed).toMatchObject({ totalIsEstimate: false, totalCount: BULK / 3 });
  });

  it('reads a page past the threshold from the newest event, as an estimate has no end', async () => {
    const page = await list('?eventName=bulk&page=1003&pageSize=10');
    expect(page.data.map((event) => event.uniqueId)).toEqual(
      Array.from({ length: 10 }, (_, index) => `bulk-${BULK - 10_020 - index}`),
    );
    const oldest = await list('?eventName=bulk&sortOrder=asc&page=1001&pageSize=10');
    expect(oldest.data.map((event) => event.uniqueId)).toEqual(
      Array.from({ length: 10 }, (_, index) => `bulk-${10_001 + index}`),
    );
  });

  it.each([
    ['no filter', {}, 'staff'],
    ['sorted oldest first', { sortOrder: 'asc' }, 'staff'],
    ['unprocessed', { unprocessedOnly: 'true' }, 'staff'],
    ['errored', { erroredOnly: 'true' }, 'staff'],
    ['event name', { eventName: 'bulk' }, 'staff'],
    ['event name and unprocessed', { eventName: 'bulk', unprocessedOnly: 'true' }, 'staff'],
    ['tenant', {}, 'tenant'],
    ['tenant and unprocessed', { unprocessedOnly: 'true' }, 'tenant'],
    ['tenant and errored', { erroredOnly: 'true' }, 'tenant'],
    ['tenant and event name', { eventName: 'bulk' }, 'tenant'],
    ['event name and errored', { eventName: 'bulk', erroredOnly: 'true' }, 'staff'],
    ['tenant, event name, unprocessed', { eventName: 'bulk', unprocessedOnly: 'true' }, 'tenant'],
    ['tenant, event name, errored', { eventName: 'bulk', erroredOnly: 'true' }, 'tenant'],
    ['after a row', { after: '1' }, 'staff'],
    ['tenant, unprocessed, before a row', { unprocessedOnly: 'true', before: '1' }, 'tenant'],
  ] as const)('%s: the page statement reads through indexes only', async (_name, filters, who) => {
    const { db } = h.testApp.database;
    const query = eventListQuerySchema.parse({ page: '2', ...filters });
    const scope: EventScope =
      who === 'tenant' ? { kind: 'tenant', tenantId: h.acmeId } : { kind: 'all' };
    const names =
      query.eventName === undefined ? undefined : await eventNamesContaining(db, query.eventName);
    await expectIndexBacked(db, eventPageStatement(db, query, scope, names));
  });
});

describe('events: permissions, reset, test events, and the events of writes', () => {
  // Workers polling every 50 ms, so that the events of a test are soon processed.
  const h = usePortalTestApp({ eventPollIntervalMs: 50 }, { now: NOW });

  const db = () => h.testApp.database.db;
  const anyEventId = async () =>
    (await db().selectFrom('events').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const processed = (id: number) =>
    eventually(async () => {
      const state = await eventState(db(), id);
      return state.isProcessed && state;
    });

  it.each([
    ['anonymous', 401, 401, 401],
    ['staff', 200, 201, 200],
    ['admin', 200, 201, 200],
    ['acme', 200, 403, 403],
    ['globex', 200, 403, 403],
    ['noRole', 403, 403, 403],
  ] as const)('%s: list %i, test event %i, reset %i', async (caller, list, test, reset) => {
    expect((await h.call(caller, 'GET', '/api/events')).statusCode).toBe(list);
    expect((await h.call(caller, 'POST', '/api/events/test')).statusCode).toBe(test);
    const id = await anyEventId();
    expect((await h.call(caller, 'POST', `/api/events/${id}/reset`)).statusCode).toBe(reset);
  });

  it('records a test event that goes through the pipeline', async () => {
    const response = await h.call('staff', 'POST', '/api/events/test');
    expect(response.statusCode).toBe(201);
    const { id } = response.json() as { id: number };
    const state = await processed(id);
    expect(state).toMatchObject({ eventName: 'TestEvent', hasError: false });
    expect(state.records.map((record) => record.workerName)).toEqual(['audit-trail']);
    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('event_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor: 'staff@example.com', action: 'test' });
    const listed = await h.call('staff', 'GET', '/api/events?eventName=testevent&pageSize=1');
    expect(listed.json().data[0]).toMatchObject({
      id,
      isProcessed: true,
      metadata: { actor: 'staff@example.com', action: 'test' },
    });
  });

  it('resets one worker of a failed event, leaving the other record alone', async () => {
    // A seeded event whose notification failed (not an invitation: nothing to mail again).
    const failed = await db()
      .selectFrom('processed_events')
      .innerJoin('events', 'events.id', 'processed_events.event_id')
      .select(['events.id'])
      .where('processed_events.worker_name', '=', 'notifications')
      .where('processed_events.has_error', '=', true)
      .where('events.event_name', '<>', 'TenantUserCreated')
      .orderBy('events.id')
      .executeTakeFirstOrThrow();
    const before = await eventState(db(), failed.id);
    const audit = before.records.find((record) => record.workerName === 'audit-trail');
    expect(audit?.processed).toBe(true);

    const response = await h.call(
      'staff',
      'POST',
      `/api/events/${failed.id}/reset?workerName=notifications`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: failed.id,
      hasError: false,
      isProcessed: false,
      processedEvents: [
        { workerName: 'audit-trail', hasError: false, attempts: audit?.attempts },
        { workerName: 'notifications', hasError: false, errorMessage: null, attempts: 0 },
      ],
    });
    const after = await processed(failed.id);
    expect(after.records[0]).toEqual(audit);
    // The audit trail was not asked to run again.
    expect(
      await db().selectFrom('audit_log').select('id').where('event_id', '=', failed.id).execute(),
    ).toEqual([]);

    // The reset is itself on record: who reset what, and how it was.
    const resets = await db()
      .selectFrom('events')
      .select(['metadata', 'tenant_id'])
      .where('event_name', '=', 'EventReset')
      .execute();
    expect(resets.map((reset) => reset.metadata)).toContainEqual({
      actor: 'staff@example.com',
      action: 'reset',
      eventId: failed.id,
      eventName: before.eventName,
      target: { type: 'Event', id: String(failed.id), name: before.eventName },
      workers: ['notifications'],
      before: [
        expect.objectContaining({ workerName: 'notifications', hasError: true, processedAt: null }),
      ],
    });
  });

  it('resets every record of an event, and gives a never-processed event its records', async () => {
    const auditFailed = await db()
      .selectFrom('processed_events')
      .select('event_id')
      .where('worker_name', '=', 'audit-trail')
      .where('has_error', '=', true)
      .orderBy('event_id')
      .executeTakeFirstOrThrow();
    const response = await h.call('admin', 'POST', `/api/events/${auditFailed.event_id}/reset`);
    expect(response.statusCode).toBe(200);
    const state = await processed(auditFailed.event_id);
    expect(state.records.every((record) => record.processed && record.attempts === 1)).toBe(true);
    expect(
      await db()
        .selectFrom('audit_log')
        .select('actor')
        .where('event_id', '=', auditFailed.event_id)
        .execute(),
    ).toHaveLength(1);

    // A seeded event no worker has picked up (no record at all).
    const untouched = await db()
      .selectFrom('events')
      .select(['id', 'event_name'])
      .where('is_processed', '=', false)
      .where('has_error', '=', false)
      .where('event_name', '<>', 'TenantUserCreated')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('processed_events')
              .select('event_id')
              .whereRef('processed_events.event_id', '=', 'events.id'),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    expect(
      (await h.call('staff', 'POST', `/api/events/${untouched.id}/reset`, {})).statusCode,
    ).toBe(200);
    const done = await processed(untouched.id);
    expect(done.records.map((record) => record.workerName)).toEqual(['audit-trail']);
  });

  it('answers 404 for an unknown event or a worker the event has nothing to do with', async () => {
    const unknown = await h.call('staff', 'POST', '/api/events/999999999/reset');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Event 999999999 not found.' });
    const id = await anyEventId();
    const noWorker = await h.call('staff', 'POST', `/api/events/${id}/reset`, {
      workerName: 'nobody',
    });
    expect(noWorker.statusCode).toBe(404);
    expect(noWorker.json()).toEqual({ message: `Event ${id} has no record of worker nobody.` });
    const differing = await h.call(
      'staff',
      'POST',
      `/api/events/${id}/reset?workerName=audit-trail`,
      { workerName: 'notifications' },
    );
    expect(differing.statusCode).toBe(400);
    expect((await h.call('staff', 'POST', '/api/events/abc/reset')).statusCode).toBe(400);
  });

  it('records an event with the actor for every write of countries and document types', async () => {
    const lastEvent = async (eventName: string) =>
      db()
        .selectFrom('events')
        .selectAll()
        .where('event_name', '=', eventName)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
    const countOf = async (eventName: string) =>
      (
        await db()
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('event_name', '=', eventName)
          .executeTakeFirstOrThrow()
      ).count;

    const card = {
      id: 'events_test_card',
      displayName: 'Events test card',
      tags: ['identity'],
      apiReferences: { onfido: 'card' },
    };
    expect((await h.call('staff', 'POST', '/api/documenttypes', card)).statusCode).toBe(201);
    const created = await lastEvent('DocumentTypeCreated');
    expect(created.tenant_id).toBeNull();
    expect(created.metadata).toMatchObject({
      actor: 'staff@example.com',
      action: 'create',
      documentTypeId: 'events_test_card',
      after: { id: 'events_test_card', displayName: 'Events test card', tags: ['identity'] },
    });

    // A failed write records nothing.
    const createdBefore = await countOf('DocumentTypeCreated');
    expect((await h.call('staff', 'POST', '/api/documenttypes', card)).statusCode).toBe(409);
    expect(await countOf('DocumentTypeCreated')).toBe(createdBefore);

    expect(
      (
        await h.call('staff', 'PUT', '/api/documenttypes/events_test_card', {
          ...card,
          displayName: 'Events test card (new)',
        })
      ).statusCode,
    ).toBe(200);
    expect((await lastEvent('DocumentTypeUpdated')).metadata).toMatchObject({
      actor: 'staff@example.com',
      action: 'update',
      documentTypeId: 'events_test_card',
      changes: ['displayName'],
      before: { displayName: 'Events test card' },
      after: { displayName: 'Events test card (new)' },
    });
    const updatedBefore = await countOf('DocumentTypeUpdated');
    expect(
      (
        await h.call('staff', 'PUT', '/api/documenttypes/no_such_card', {
          ...card,
          id: 'no_such_card',
        })
      ).statusCode,
    ).toBe(404);
    expect(await countOf('DocumentTypeUpdated')).toBe(updatedBefore);

    expect((await h.call('staff', 'POST', '/api/documenttypes/import', [card])).statusCode).toBe(
      200,
    );
    expect((await lastEvent('DocumentTypesImported')).metadata).toEqual({
      actor: 'staff@example.com',
      action: 'import',
      count: 1,
      records: 1,
      target: { type: 'DocumentType', name: 'Document types import' },
      after: { count: 1, records: 1, created: [], changed: ['events_test_card'] },
    });

    expect(
      (await h.call('admin', 'DELETE', '/api/documenttypes/events_test_card')).statusCode,
    ).toBe(204);
    expect((await lastEvent('DocumentTypeDeleted')).metadata).toMatchObject({
      actor: 'admin@example.com',
      action: 'delete',
      documentTypeId: 'events_test_card',
      before: { id: 'events_test_card' },
    });

    const atlantis = { id: 999, alpha2: 'XA', alpha3: 'XAT', name: 'Atlantis' };
    expect((await h.call('staff', 'POST', '/api/countries/import', [atlantis])).statusCode).toBe(
      200,
    );
    const imported = await lastEvent('CountriesImported');
    expect(imported.metadata).toEqual({
      actor: 'staff@example.com',
      action: 'import',
      count: 1,
      records: 1,
      target: { type: 'Country', name: 'Countries import' },
      after: { count: 1, records: 1, created: [999], changed: [] },
    });
    expect((await h.call('admin', 'DELETE', '/api/countries/999')).statusCode).toBe(204);
    expect((await lastEvent('CountryDeleted')).metadata).toMatchObject({
      actor: 'admin@example.com',
      action: 'delete',
      countryId: 999,
      before: { id: 999, countryName: 'Atlantis', alpha2Code: 'XA' },
    });

    // Each goes through the audit trail.
    const state = await processed(imported.id);
    expect(state.records.map((record) => record.workerName)).toEqual(['audit-trail']);
  });
});
