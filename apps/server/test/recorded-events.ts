import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../src/db/schema.ts';
import { eventually } from '../src/outbox/test-support.ts';

/**
 * The events a write records, as the endpoint tests check them: what came after a mark, and a
 * way to make recording one fail.
 */

/** The id of the newest event (0 when none): pass it to eventsAfter. */
export async function lastEventId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max<number | null>('id').as('id'))
    .executeTakeFirstOrThrow();
  return Number(row.id ?? 0);
}

/** The events recorded after `afterId`, oldest first, as stored (name, tenant, entity, metadata). */
export async function eventsAfter(db: Kysely<Database>, afterId: number) {
  return db
    .selectFrom('events')
    .select([
      'id',
      'event_name as eventName',
      'tenant_id as tenantId',
      'entity_id as entityId',
      'metadata',
    ])
    .where('id', '>', afterId)
    .orderBy('id')
    .execute();
}

/** The audit row of event `eventId`, once the audit-trail worker has written it. */
export function auditRowOf(db: Kysely<Database>, eventId: number) {
  return eventually(
    () => db.selectFrom('audit_log').selectAll().where('event_id', '=', eventId).executeTakeFirst(),
    10_000,
    `the audit row of event ${eventId}`,
  );
}

/**
 * Makes recording an event named `eventName` fail (a trigger on `events`) until the answered
 * function is called: a write that records its event in its own transaction then leaves nothing.
 */
export async function failRecordingOf(
  db: Kysely<Database>,
  eventName: string,
): Promise<() => Promise<void>> {
  await sql`
    create or replace function test_fail_event() returns trigger language plpgsql as $$
    begin
      raise exception 'recording % refused by the test', new.event_name;
    end $$
  `.execute(db);
  await sql`
    create trigger test_fail_event before insert on events
    for each row when (new.event_name = ${sql.lit(eventName)}) execute function test_fail_event()
  `.execute(db);
  return async () => {
    await sql`drop trigger test_fail_event on events`.execute(db);
    await sql`drop function test_fail_event()`.execute(db);
  };
}

/**
 * The audit row of the refused sign-in of the browser that sent `userAgent`, once the audit-trail
 * worker wrote it, checked for what every refusal records: when, the address, the browser and
 * a reason matching `reason`, and never a token (issue 31, part 4).
 */
export async function expectRefusedSignInAudited(
  db: Kysely<Database>,
  userAgent: string,
  reason: RegExp,
) {
  const row = await eventually(
    () =>
      db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'sign-in-refused')
        .where(sql<string>`metadata ->> 'userAgent'`, '=', userAgent)
        .executeTakeFirst(),
    10_000,
    `the refused sign-in of ${userAgent}`,
  );
  expect(row).toMatchObject({
    event_name: 'SignInRefused',
    target_type: 'Session',
    metadata: {
      ipAddress: expect.stringMatching(/127\.0\.0\.1/),
      userAgent,
      reason: expect.stringMatching(reason),
    },
  });
  expect(row.occurred_at).toBeInstanceOf(Date);
  // A JWT starts with the base64url of '{"': none is ever recorded.
  expect(JSON.stringify(row)).not.toContain('eyJ');
  return row;
}
