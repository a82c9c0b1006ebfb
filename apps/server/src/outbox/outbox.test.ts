import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/test-database.ts';
import { EVENTS_CHANNEL, recordEvent, recordEvents, type NewEvent } from './outbox.ts';
import { eventState } from './test-support.ts';
import type { EventSubscription } from './worker.ts';

const subscriptions: EventSubscription[] = [
  { name: 'audit', subscribesTo: 'all' },
  { name: 'mailer', subscribesTo: ['UserInvited'] },
  { name: 'billing', subscribesTo: ['UserInvited', 'PlanChanged'] },
];

describe('recordEvent (transactional outbox)', () => {
  const database = useTestDatabase();

  const eventCount = async (uniqueId: string) =>
    (
      await database.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('unique_id', '=', uniqueId)
        .executeTakeFirstOrThrow()
    ).count;

  it('records the event with one waiting record per subscribed worker', async () => {
    const { id, recorded } = await database.db.transaction().execute((trx) =>
      recordEvent(
        trx,
        {
          eventName: 'UserInvited',
          tenantId: 7,
          entityId: 'entity-1',
          metadata: { actor: 'staff@example.com', action: 'invite', email: 'new@acme.example' },
        },
        { subscriptions },
      ),
    );
    expect(recorded).toBe(true);
    const row = await database.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      event_name: 'UserInvited',
      tenant_id: 7,
      entity_id: 'entity-1',
      metadata: { actor: 'staff@example.com', action: 'invite', email: 'new@acme.example' },
      is_processed: false,
      has_error: false,
    });
    // A generated idempotency key.
    expect(row.unique_id).toMatch(/^[0-9a-f-]{36}$/);
    const state = await eventState(database.db, id);
    expect(state.records).toEqual(
      ['audit', 'billing', 'mailer'].map((workerName) => ({
        workerName,
        hasError: false,
        errorMessage: null,
        processed: false,
        attempts: 0,
        lockedBy: null,
      })),
    );
  });

  it('gives each event only the workers subscribed to its name', async () => {
    const [plan, other] = await database.db.transaction().execute((trx) =>
      recordEvents(
        trx,
        [
          { eventName: 'PlanChanged', metadata: {} },
          { eventName: 'SomethingElse', metadata: {} },
        ],
        { subscriptions },
      ),
    );
    expect((await eventState(database.db, plan?.id ?? 0)).records.map((r) => r.workerName)).toEqual(
      ['audit', 'billing'],
    );
    expect(
      (await eventState(database.db, other?.id ?? 0)).records.map((r) => r.workerName),
    ).toEqual(['audit']);
  });

  it('marks an event no worker subscribes to as processed at once', async () => {
    const { id } = await database.db
      .transaction()
      .execute((trx) =>
        recordEvent(trx, { eventName: 'Unheard', metadata: {} }, { subscriptions: [] }),
      );
    const state = await eventState(database.db, id);
    expect(state).toMatchObject({ isProcessed: true, hasError: false, records: [] });
  });

  it('leaves no event behind when the write fails after recording it', async () => {
    const uniqueId = 'atomic-document-type-create';
    await expect(
      database.db.transaction().execute(async (trx) => {
        await recordEvent(trx, {
          eventName: 'DocumentTypeCreated',
          uniqueId,
          metadata: { actor: 'staff@example.com', action: 'create', documentTypeId: 'passport' },
        });
        // The write itself then violates a constraint (display_name is not null).
        await sql`insert into document_types (id, display_name, tags, api_references, created_by, updated_by)
          values ('passport', null, '{}', '{}', 'x', 'x')`.execute(trx);
      }),
    ).rejects.toThrow(/null value/);
    expect(await eventCount(uniqueId)).toBe(0);
    const orphans = await sql<{ count: number }>`
      select count(*)::int as count from processed_events
      where event_id not in (select id from events)
    `.execute(database.db);
    expect(orphans.rows[0]?.count).toBe(0);
  });

  it('records one event for a repeated idempotency key, and answers its id', async () => {
    const event = { eventName: 'PlanChanged', uniqueId: 'plan-change-42', metadata: { n: 1 } };
    const first = await database.db
      .transaction()
      .execute((trx) => recordEvent(trx, event, { subscriptions }));
    const second = await database.db
      .transaction()
      .execute((trx) => recordEvent(trx, { ...event, metadata: { n: 2 } }, { subscriptions }));
    expect(first.recorded).toBe(true);
    expect(second).toEqual({ id: first.id, uniqueId: 'plan-change-42', recorded: false });
    expect(await eventCount('plan-change-42')).toBe(1);
    // The first one's content stays; no second set of records.
    const state = await eventState(database.db, first.id);
    expect(state.records).toHaveLength(2);
    const row = await database.db
      .selectFrom('events')
      .select('metadata')
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(row.metadata).toEqual({ n: 1 });
  });

  it('treats a key repeated within one call as one event', async () => {
    const answers = await database.db.transaction().execute((trx) =>
      recordEvents(
        trx,
        [
          { eventName: 'PlanChanged', uniqueId: 'twice-in-one-call', metadata: {} },
          { eventName: 'PlanChanged', uniqueId: 'twice-in-one-call', metadata: {} },
        ],
        { subscriptions },
      ),
    );
    expect(answers[0]?.id).toBe(answers[1]?.id);
    expect(answers.map((answer) => answer.recorded)).toEqual([true, false]);
    expect(await eventCount('twice-in-one-call')).toBe(1);
  });

  it('records many events in order with one statement', async () => {
    const events = Array.from({ length: 2500 }, (_, index) => ({
      eventName: 'Bulk',
      uniqueId: `bulk-${index}`,
      metadata: { index, quote: `it's "quoted" \\ ${index}` },
    }));
    const answers = await database.db
      .transaction()
      .execute((trx) => recordEvents(trx, events, { subscriptions }));
    expect(answers).toHaveLength(2500);
    const ids = answers.map((answer) => answer.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const last = await database.db
      .selectFrom('events')
      .select('metadata')
      .where('unique_id', '=', 'bulk-2499')
      .executeTakeFirstOrThrow();
    expect(last.metadata).toEqual({ index: 2499, quote: `it's "quoted" \\ 2499` });
  });

  it('refuses to record outside a transaction', async () => {
    await expect(recordEvent(database.db, { eventName: 'Loose', metadata: {} })).rejects.toThrow(
      'recordEvent must run inside the transaction of its write',
    );
  });

  it('refuses names, keys and metadata it cannot store', async () => {
    await expect(
      database.db.transaction().execute((trx) => recordEvent(trx, { eventName: '', metadata: {} })),
    ).rejects.toThrow('An event name has 1 to 100 characters');
    await expect(
      database.db
        .transaction()
        .execute((trx) => recordEvent(trx, { eventName: 'x'.repeat(101), metadata: {} })),
    ).rejects.toThrow('An event name has 1 to 100 characters');
    await expect(
      database.db
        .transaction()
        .execute((trx) => recordEvent(trx, { eventName: 'X', uniqueId: '', metadata: {} })),
    ).rejects.toThrow("An event's uniqueId has 1 to 200 characters");
    await expect(
      database.db.transaction().execute((trx) =>
        recordEvent(trx, {
          eventName: 'X',
          metadata: [] as unknown as Record<string, unknown>,
        }),
      ),
    ).rejects.toThrow('metadata is an object');
  });

  it('notifies each concerned worker at commit, not for a repeated key nor a rollback', async () => {
    const listener = new pg.Client({ connectionString: database.connectionString });
    await listener.connect();
    const payloads: string[] = [];
    listener.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL) payloads.push(message.payload ?? '');
    });
    await listener.query(`listen ${EVENTS_CHANNEL}`);
    // A query on the listening connection delivers what was sent before it.
    const received = async () => (await listener.query('select 1'), [...payloads].sort());
    const workers: EventSubscription[] = [
      { name: 'everything', subscribesTo: 'all' },
      { name: 'invitations', subscribesTo: ['Invited'] },
    ];
    const record = (events: NewEvent[]) =>
      database.db
        .transaction()
        .execute((trx) => recordEvents(trx, events, { subscriptions: workers }));
    try {
      await record([{ eventName: 'Signalled', uniqueId: 'signal-1', metadata: {} }]);
      expect(await received()).toEqual(['everything']);
      await record([{ eventName: 'Signalled', uniqueId: 'signal-1', metadata: {} }]);
      expect(await received()).toEqual(['everything']);
      await expect(
        database.db.transaction().execute(async (trx) => {
          await recordEvent(trx, { eventName: 'Invited', uniqueId: 'signal-2', metadata: {} });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await received()).toEqual(['everything']);
      // Three events in one transaction: one notification per worker concerned.
      await record([
        { eventName: 'Signalled', uniqueId: 'signal-3', metadata: {} },
        { eventName: 'Invited', uniqueId: 'signal-4', metadata: {} },
        { eventName: 'Invited', uniqueId: 'signal-5', metadata: {} },
      ]);
      expect(await received()).toEqual(['everything', 'everything', 'invitations']);
    } finally {
      await listener.end();
    }
  });
});
