import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, useTestDatabase } from '../../test/test-database.ts';
import type { DatabaseHandle } from '../db/connection.ts';
import type { Database } from '../db/schema.ts';
import { createAuditTrailWorker } from './audit-trail.ts';
import { EventDispatcher, type DispatcherOptions } from './dispatcher.ts';
import { recordEvent, recordEvents, type NewEvent } from './outbox.ts';
import { resetProcessing } from './processing.ts';
import {
  auditCounts,
  eventState,
  eventually,
  failedBy,
  finishedBy,
  silentLogger,
} from './test-support.ts';
import type { EventWorker, RecordedEvent } from './worker.ts';

/** An external worker that remembers what it handled, and fails when the metadata says so. */
function externalWorker(name: string, subscribesTo: EventWorker['subscribesTo']) {
  const handled: RecordedEvent[] = [];
  const worker: EventWorker = {
    name,
    subscribesTo,
    delivery: 'external',
    async handle(event) {
      if (event.metadata.failIn === name) throw new Error(`${name} refused event ${event.id}`);
      handled.push(event);
    },
  };
  return { worker, handled };
}

/** The audit trail, failing (after it has written) when the metadata says so. */
function auditWorker(): EventWorker {
  const audit = createAuditTrailWorker();
  const failIfAsked = (event: RecordedEvent) => {
    if (event.metadata.failIn === 'audit-trail') {
      throw new Error('Audit sink unavailable: connection terminated unexpectedly');
    }
  };
  return {
    ...audit,
    async handle(event, trx) {
      await audit.handle(event, trx);
      failIfAsked(event);
    },
    async handleBatch(events, trx) {
      await audit.handleBatch?.(events, trx);
      events.forEach(failIfAsked);
    },
  };
}

describe('EventDispatcher', () => {
  let database: DatabaseHandle;
  let db: Kysely<Database>;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  afterAll(async () => {
    await database.close();
  });

  const dispatcher = (workers: EventWorker[], options: Partial<DispatcherOptions> = {}) =>
    new EventDispatcher({
      db,
      workers,
      logger: silentLogger,
      leaseSeconds: 30,
      pollIntervalMs: 50,
      ...options,
    });

  const record = (events: NewEvent[], workers: EventWorker[]) =>
    db.transaction().execute((trx) => recordEvents(trx, events, { subscriptions: workers }));

  it('runs each subscribed worker once per event and marks the events processed', async () => {
    const audit = auditWorker();
    const mailer = externalWorker('mailer', ['UserInvited']);
    const workers = [audit, mailer.worker];
    const [invited, other] = await record(
      [
        { eventName: 'UserInvited', metadata: { actor: 'a@example.com', action: 'invite' } },
        { eventName: 'PlanChanged', metadata: { actor: 'b@example.com', action: 'update' } },
      ],
      workers,
    );
    const events = dispatcher(workers);
    expect(await events.drain()).toBe(3);
    expect(await events.drain()).toBe(0);

    expect(mailer.handled.map((event) => event.id)).toEqual([invited?.id]);
    expect(mailer.handled[0]).toMatchObject({
      eventName: 'UserInvited',
      metadata: { actor: 'a@example.com', action: 'invite' },
    });
    const counts = await auditCounts(db);
    expect(counts.get(invited?.id ?? 0)).toBe(1);
    expect(counts.get(other?.id ?? 0)).toBe(1);
    for (const id of [invited?.id ?? 0, other?.id ?? 0]) {
      const state = await eventState(db, id);
      expect(state.isProcessed).toBe(true);
      expect(state.hasError).toBe(false);
      for (const record of state.records) {
        expect(record).toMatchObject({ processed: true, hasError: false, attempts: 1 });
        expect(record.lockedBy).toBe(events.instanceId);
      }
    }
  });

  it("keeps a failing worker's message on its record and the event's error flag", async () => {
    const audit = auditWorker();
    const mailer = externalWorker('mailer', 'all');
    const workers = [audit, mailer.worker];
    const [mailFails, auditFails, fine] = await record(
      [
        { eventName: 'UserInvited', metadata: { failIn: 'mailer' } },
        { eventName: 'UserInvited', metadata: { failIn: 'audit-trail' } },
        { eventName: 'UserInvited', metadata: {} },
      ],
      workers,
    );
    await dispatcher(workers).drain();

    const mailState = await eventState(db, mailFails?.id ?? 0);
    expect(mailState).toMatchObject({ isProcessed: false, hasError: true });
    expect(mailState.records).toEqual([
      finishedBy('audit-trail'),
      failedBy('mailer', `mailer refused event ${mailFails?.id}`),
    ]);

    // The audit row written before the failure was rolled back with it; the others committed.
    const auditState = await eventState(db, auditFails?.id ?? 0);
    expect(auditState.hasError).toBe(true);
    expect(auditState.records[0]).toMatchObject({
      workerName: 'audit-trail',
      hasError: true,
      errorMessage: 'Audit sink unavailable: connection terminated unexpectedly',
    });
    const counts = await auditCounts(db);
    expect(counts.get(auditFails?.id ?? 0)).toBeUndefined();
    expect(counts.get(fine?.id ?? 0)).toBe(1);
    expect((await eventState(db, fine?.id ?? 0)).isProcessed).toBe(true);

    // A failed record waits for a reset: it is not tried again by itself.
    expect(await dispatcher(workers).drain()).toBe(0);
  });

  it('runs an in-transaction worker without a batch handler event by event', async () => {
    const { handleBatch: _unused, ...oneByOne } = auditWorker();
    const [ok, failing] = await record(
      [
        { eventName: 'One', metadata: {} },
        { eventName: 'Two', metadata: { failIn: 'audit-trail' } },
      ],
      [oneByOne],
    );
    await dispatcher([oneByOne]).drain();
    const counts = await auditCounts(db);
    expect(counts.get(ok?.id ?? 0)).toBe(1);
    expect(counts.get(failing?.id ?? 0)).toBeUndefined();
    expect(await eventState(db, ok?.id ?? 0)).toMatchObject({ isProcessed: true });
    expect(await eventState(db, failing?.id ?? 0)).toMatchObject({ hasError: true });
  });

  it('processes a reset record again, once, and clears the error', async () => {
    const audit = auditWorker();
    const mailer = externalWorker('mailer', 'all');
    const workers = [audit, mailer.worker];
    const [event] = await record(
      [{ eventName: 'UserInvited', metadata: { failIn: 'mailer' } }],
      workers,
    );
    const id = event?.id ?? 0;
    await dispatcher(workers).drain();
    expect((await eventState(db, id)).hasError).toBe(true);

    // Repaired: the metadata no longer asks for a failure. Reset only the mailer.
    await sql`update events set metadata = '{}' where id = ${id}`.execute(db);
    const outcome = await db
      .transaction()
      .execute((trx) => resetProcessing(trx, id, 'mailer', workers));
    expect(outcome).toMatchObject({ kind: 'reset', workers: ['mailer'] });
    const reset = await eventState(db, id);
    expect(reset).toMatchObject({ isProcessed: false, hasError: false });
    expect(reset.records[1]).toMatchObject({ workerName: 'mailer', hasError: false, attempts: 0 });
    expect(reset.records[1]?.errorMessage).toBeNull();

    expect(await dispatcher(workers).drain()).toBe(1);
    expect(mailer.handled.filter((handled) => handled.id === id)).toHaveLength(1);
    expect((await auditCounts(db)).get(id)).toBe(1);
    expect(await eventState(db, id)).toMatchObject({ isProcessed: true, hasError: false });
  });

  it('resets every record of an event, creating those its workers lack', async () => {
    const audit = auditWorker();
    const mailer = externalWorker('mailer', 'all');
    const workers = [audit, mailer.worker];
    // Recorded when only the audit trail existed, and processed by it.
    const [event] = await record([{ eventName: 'UserInvited', metadata: {} }], [audit]);
    const id = event?.id ?? 0;
    await dispatcher([audit]).drain();
    expect((await eventState(db, id)).isProcessed).toBe(true);

    const outcome = await db
      .transaction()
      .execute((trx) => resetProcessing(trx, id, undefined, workers));
    expect(outcome).toMatchObject({ kind: 'reset', workers: ['audit-trail', 'mailer'] });
    expect(await dispatcher(workers).drain()).toBe(2);
    expect(mailer.handled.filter((handled) => handled.id === id)).toHaveLength(1);
    expect((await auditCounts(db)).get(id)).toBe(2);

    expect(
      await db.transaction().execute((trx) => resetProcessing(trx, id, 'nobody', workers)),
    ).toEqual({ kind: 'unknown-worker' });
    expect(
      await db.transaction().execute((trx) => resetProcessing(trx, 999_999, undefined, workers)),
    ).toEqual({ kind: 'unknown-event' });
  });

  it('takes over a record whose lease expired, but not one still leased', async () => {
    const audit = auditWorker();
    const [expired, leased] = await record(
      [
        { eventName: 'Crashed', metadata: {} },
        { eventName: 'InFlight', metadata: {} },
      ],
      [audit],
    );
    // Another instance claimed both, then died; one lease has run out.
    await sql`update processed_events set locked_by = 'dead-instance', attempts = 1,
      locked_until = case when event_id = ${expired?.id} then now() - interval '1 second'
        else now() + interval '1 hour' end
      where event_id in (${expired?.id}, ${leased?.id})`.execute(db);

    expect(await dispatcher([audit]).drain()).toBe(1);
    expect((await eventState(db, expired?.id ?? 0)).records[0]).toMatchObject({
      processed: true,
      attempts: 2,
    });
    expect((await eventState(db, leased?.id ?? 0)).records[0]).toMatchObject({
      processed: false,
      lockedBy: 'dead-instance',
    });
    expect((await auditCounts(db)).get(leased?.id ?? 0)).toBeUndefined();
  });

  it('discards the result of a claim another instance took over meanwhile', async () => {
    let eventId = 0;
    const slow: EventWorker = {
      name: 'slow-mailer',
      subscribesTo: 'all',
      delivery: 'external',
      async handle(event, plainDb) {
        // While this instance works, its lease expires and another instance claims the record.
        await plainDb
          .updateTable('processed_events')
          .set({ locked_by: 'other-instance' })
          .where('event_id', '=', event.id)
          .execute();
      },
    };
    const [event] = await record([{ eventName: 'Slow', metadata: {} }], [slow]);
    eventId = event?.id ?? 0;
    await dispatcher([slow]).drain();
    const state = await eventState(db, eventId);
    expect(state.records[0]).toMatchObject({ processed: false, lockedBy: 'other-instance' });
    expect(state.isProcessed).toBe(false);
  });

  it('marks an external event started before its work, and not the next one yet', async () => {
    // What each handle saw of the records: its own event's and the next event's `unstarted`.
    const seen: { own: boolean | undefined; next: boolean | undefined }[] = [];
    const watcher: EventWorker = {
      name: 'start-watcher',
      subscribesTo: 'all',
      delivery: 'external',
      async handle(event, plainDb) {
        const rows = await plainDb
          .selectFrom('processed_events')
          .select(['event_id', 'unstarted'])
          .where('worker_name', '=', 'start-watcher')
          .where('event_id', 'in', [event.id, event.id + 1])
          .execute();
        const unstarted = (id: number) => rows.find((row) => row.event_id === id)?.unstarted;
        seen.push({ own: unstarted(event.id), next: unstarted(event.id + 1) });
      },
    };
    const recorded = await record(
      Array.from({ length: 4 }, () => ({ eventName: 'Watched', metadata: {} })),
      [watcher],
    );
    expect(recorded.map((event) => event.id - (recorded[0]?.id ?? 0))).toEqual([0, 1, 2, 3]);
    await dispatcher([watcher]).drain();
    expect(seen).toEqual([
      { own: false, next: true },
      { own: false, next: true },
      { own: false, next: true },
      { own: false, next: undefined },
    ]);
    const states = await Promise.all(recorded.map((event) => eventState(db, event.id)));
    expect(states.map((state) => state.isProcessed)).toEqual([true, true, true, true]);
  });

  it('gives up on a record after too many claims that never finished', async () => {
    const audit = auditWorker();
    const [event] = await record([{ eventName: 'Poison', metadata: {} }], [audit]);
    await sql`update processed_events set locked_by = 'dead', attempts = 3,
      locked_until = now() - interval '1 second' where event_id = ${event?.id}`.execute(db);
    await dispatcher([audit], { maxAttempts: 3, leaseSeconds: 7 }).drain();
    const state = await eventState(db, event?.id ?? 0);
    expect(state.hasError).toBe(true);
    expect(state.records[0]).toMatchObject({
      attempts: 4,
      errorMessage:
        'Gave up after 3 attempts: each time the instance processing this event stopped before finishing (its 7 s lease expired)',
    });
    expect((await auditCounts(db)).get(event?.id ?? 0)).toBeUndefined();
  });

  it('marks done, without running it, a record of an event its worker does not subscribe to', async () => {
    const mailer = externalWorker('mailer', ['UserInvited']);
    // As the demo seed does: a record for every worker, whatever the event.
    const [event] = await record(
      [{ eventName: 'EntityUpdated', metadata: {} }],
      [{ ...mailer.worker, subscribesTo: 'all' }],
    );
    await dispatcher([mailer.worker]).drain();
    expect(mailer.handled).toEqual([]);
    expect(await eventState(db, event?.id ?? 0)).toMatchObject({ isProcessed: true });
  });

  it('wakes at once on the NOTIFY of a recorded event (no need to wait for the poll)', async () => {
    const mailer = externalWorker('instant-mailer', ['Instant']);
    const events = dispatcher([mailer.worker], {
      pollIntervalMs: 60_000,
      // The wake-up comes after commit, through LISTEN/NOTIFY (a trigger sends it).
      listenConnectionString: database.connectionString,
    });
    events.start();
    try {
      // The first poll happens at start; give the listener time to connect.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const started = Date.now();
      const { id } = await db
        .transaction()
        .execute((trx) =>
          recordEvent(
            trx,
            { eventName: 'Instant', metadata: {} },
            { subscriptions: [mailer.worker] },
          ),
        );
      await eventually(async () => mailer.handled.some((event) => event.id === id), 5_000);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await events.stop();
    }
  });

  it('shares the work of two instances: each event once per worker', async () => {
    const auditA = auditWorker();
    const auditB = auditWorker();
    const mailerA = externalWorker('shared-mailer', 'all');
    const mailerB = externalWorker('shared-mailer', 'all');
    const events = Array.from({ length: 600 }, (_, index) => ({
      eventName: 'Shared',
      metadata: { index },
    }));
    const recorded = await record(events, [auditA, mailerA.worker]);
    const ids = recorded.map((event) => event.id);
    const one = dispatcher([auditA, mailerA.worker], { batchSize: 25, instanceId: 'one' });
    const two = dispatcher([auditB, mailerB.worker], { batchSize: 25, instanceId: 'two' });
    one.start();
    two.start();
    try {
      await eventually(async () => {
        const { count } = await db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('id', 'in', ids)
          .where('is_processed', '=', true)
          .executeTakeFirstOrThrow();
        return Number(count) === ids.length;
      }, 60_000);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
    const counts = await auditCounts(db);
    expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([]);
    const mailed = [...mailerA.handled, ...mailerB.handled].map((event) => event.id);
    expect(mailed.sort((a, b) => a - b)).toEqual(ids);
    // Both took part (each claims 25 at a time, so neither can take everything at once).
    const holders = await db
      .selectFrom('processed_events')
      .select('locked_by')
      .distinct()
      .where('event_id', 'in', ids)
      .execute();
    expect(holders.map((row) => row.locked_by).sort()).toEqual(['one', 'two']);
  });

  it('hands back unstarted claims when it stops', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const blocking: EventWorker = {
      name: 'blocking',
      subscribesTo: 'all',
      delivery: 'external',
      async handle() {
        started++;
        await gate;
      },
    };
    const recorded = await record(
      Array.from({ length: 5 }, () => ({ eventName: 'Blocking', metadata: {} })),
      [blocking],
    );
    const events = dispatcher([blocking]);
    events.start();
    await eventually(async () => started === 1, 5_000);
    const stopping = events.stop();
    release();
    await stopping;
    const states = await Promise.all(recorded.map((event) => eventState(db, event.id)));
    expect(states.map((state) => state.records[0]?.processed)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    // Handed back: no lease left, not counted as an attempt.
    const waiting = await db
      .selectFrom('processed_events')
      .select(['locked_until', 'attempts'])
      .where('worker_name', '=', 'blocking')
      .where('processed_at', 'is', null)
      .execute();
    expect(waiting).toHaveLength(4);
    for (const row of waiting) expect(row).toEqual({ locked_until: null, attempts: 0 });
  });

  it('wakes the other instances when it hands claims back: one takes them within a second', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const blocking: EventWorker = {
      name: 'handed-over',
      subscribesTo: 'all',
      delivery: 'external',
      async handle() {
        started++;
        await gate;
      },
    };
    const taker = externalWorker('handed-over', 'all');
    const recorded = await record(
      Array.from({ length: 5 }, () => ({ eventName: 'HandedOver', metadata: {} })),
      [blocking],
    );
    const leaving = dispatcher([blocking], { instanceId: 'leaving' });
    // It polls once a minute: only a wake-up can make it take the records soon.
    const staying = dispatcher([taker.worker], {
      instanceId: 'staying',
      pollIntervalMs: 60_000,
      listenConnectionString: database.connectionString,
    });
    leaving.start();
    await eventually(async () => started === 1, 5_000);
    staying.start();
    try {
      // Its first claims find everything taken; give its listener time to connect.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const stopped = leaving.stop();
      release();
      await stopped;
      const handedOver = Date.now();
      await eventually(async () => taker.handled.length === 4, 5_000);
      expect(Date.now() - handedOver).toBeLessThan(1_000);
    } finally {
      await staying.stop();
    }
    expect(taker.handled.map((event) => event.id)).toEqual(
      recorded.slice(1).map((event) => event.id),
    );
  });
});

describe('audit_log', () => {
  const database = useTestDatabase();

  it('keeps who did what and when, before and after, and refuses updates and deletes', async () => {
    const audit = createAuditTrailWorker();
    const { id } = await database.db.transaction().execute((trx) =>
      recordEvent(
        trx,
        {
          eventName: 'DocumentTypeUpdated',
          tenantId: 3,
          metadata: {
            actor: 'staff@example.com',
            action: 'update',
            documentTypeId: 'passport',
            before: { displayName: 'Passport' },
            after: { displayName: 'Passport (ICAO)' },
          },
        },
        { subscriptions: [audit] },
      ),
    );
    await new EventDispatcher({
      db: database.db,
      workers: [audit],
      logger: silentLogger,
      leaseSeconds: 30,
      pollIntervalMs: 50,
    }).drain();
    const row = await database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('event_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      event_name: 'DocumentTypeUpdated',
      tenant_id: 3,
      actor: 'staff@example.com',
      action: 'update',
      before: { displayName: 'Passport' },
      after: { displayName: 'Passport (ICAO)' },
    });
    expect(row.metadata).toMatchObject({ documentTypeId: 'passport' });

    await expect(
      sql`update audit_log set actor = 'someone else'`.execute(database.db),
    ).rejects.toThrow('audit_log is append-only: UPDATE is not allowed');
    await expect(sql`delete from audit_log`.execute(database.db)).rejects.toThrow(
      'audit_log is append-only: DELETE is not allowed',
    );
    await expect(sql`truncate audit_log`.execute(database.db)).rejects.toThrow(
      'audit_log is append-only: TRUNCATE is not allowed',
    );
    expect(
      await database.db
        .selectFrom('audit_log')
        .select('actor')
        .where('event_id', '=', id)
        .execute(),
    ).toEqual([{ actor: 'staff@example.com' }]);
  });
});
