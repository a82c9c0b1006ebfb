import { sql, type Kysely } from 'kysely';
import { signInCallers, type Callers } from './callers.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import type { AppConfig } from '../src/config.ts';
import type { Database } from '../src/db/schema.ts';
import { seedDemoData } from '../src/db/seed/demo.ts';

/**
 * What the tests of tenants, tenant users, entities and entity users share: a server on a fresh
 * database with the demo data (Acme Corporation and Globex Limited, their portal users, ~60
 * entities and ~113 entity users), and a token for each kind of caller.
 */

export const CALLER_EMAILS = {
  staff: 'staff@example.com',
  admin: 'admin@example.com',
  acme: 'portal@acme.example',
  globex: 'portal@globex.example',
  noRole: 'visitor@elsewhere.test',
} as const;

export type Caller = keyof typeof CALLER_EMAILS | 'anonymous';
export const CALLERS: readonly Caller[] = [
  'anonymous',
  'staff',
  'admin',
  'acme',
  'globex',
  'noRole',
];

export { HTML_INJECTION, SQL_INJECTION } from './callers.ts';

export interface PortalTestApp extends Pick<
  Callers<keyof typeof CALLER_EMAILS>,
  'call' | 'refreshToken'
> {
  testApp: TestApp;
  /** Ids of the demo tenants. */
  acmeId: number;
  globexId: number;
  close(): Promise<void>;
}

/** `overrides` replaces config values, e.g. `{ smtpUrl, eventPollIntervalMs: 50 }`. */
export async function createPortalTestApp(
  overrides: Partial<AppConfig> = {},
): Promise<PortalTestApp> {
  const testApp = await createTestApp(overrides);
  const { db } = testApp.database;
  await seedDemoData(db);
  const tenants = await db.selectFrom('tenants').select(['id', 'company_name']).execute();
  const idOf = (name: string) => {
    const tenant = tenants.find((row) => row.company_name === name);
    if (!tenant) throw new Error(`The demo seed has no tenant ${name}`);
    return tenant.id;
  };
  const callers = await signInCallers(testApp, CALLER_EMAILS);
  return {
    testApp,
    acmeId: idOf('Acme Corporation'),
    globexId: idOf('Globex Limited'),
    call: callers.call,
    refreshToken: callers.refreshToken,
    close: () => testApp.close(),
  };
}

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
