import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { expectRefusal } from '../../../test/expectations.ts';
import { auditRowOf, eventsAfter, lastEventId } from '../../../test/recorded-events.ts';
import { useReferenceDataTestApp, type Caller } from '../../../test/reference-data.ts';
import { SCRIPT_CATALOGUE, type CatalogueScript } from './catalogue.ts';

/** The real catalogue plus scripts that fail and outlast their timeout. */
const FAILING: CatalogueScript = {
  id: 901,
  name: 'Test failing script',
  description: 'Changes a row, then fails: the change must roll back',
  type: 'Maintenance',
  version: 1,
  statements: [`update countries set name = 'Changed' where id = 840`, `select 1 / 0`],
};
const SLOW: CatalogueScript = {
  id: 902,
  name: 'Test slow report',
  description: 'Sleeps longer than its timeout',
  type: 'Report',
  version: 3,
  statements: [`select pg_sleep(5)`],
  timeoutMs: 200,
};
const SCRIPTS = [...SCRIPT_CATALOGUE, FAILING, SLOW];

const suite = useReferenceDataTestApp(undefined, {}, { maintenance: { scripts: SCRIPTS } });
const db = () => suite.testApp.database.db;
const execute = (id: number | string, caller: Caller = 'admin', body?: unknown) =>
  suite.call(caller, 'POST', `/api/database-scripts/execute/${id}`, body);
const history = (caller: Caller = 'admin', query = '') =>
  suite.call(caller, 'GET', `/api/database-scripts/history${query}`);

const entitiesPerTenant = SCRIPT_CATALOGUE.find((script) => script.name === 'Entities per tenant');
const purgeSessions = SCRIPT_CATALOGUE.find((script) => script.name === 'Purge expired sessions');

describe('GET /api/database-scripts', () => {
  it('lists the catalogue with its content, and says admins may execute', async () => {
    const response = await suite.call('admin', 'GET', '/api/database-scripts');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.isUserAuthorizedForScripts).toBe(true);
    expect(body.scripts).toHaveLength(SCRIPTS.length);
    expect(body.scripts[0]).toEqual({
      id: 1,
      name: 'Purge expired sessions',
      description: expect.any(String),
      type: 'Maintenance',
      version: 1,
      content: expect.stringContaining('delete from sessions'),
    });
    expect(new Set(body.scripts.map((s: { type: string }) => s.type))).toEqual(
      new Set(['Maintenance', 'Report']),
    );
  });

  it('tells staff they may not execute', async () => {
    const body = (await suite.call('staff', 'GET', '/api/database-scripts')).json();
    expect(body.isUserAuthorizedForScripts).toBe(false);
  });
});

// In order: each execution adds to the history the later tests read.
describe('POST /api/database-scripts/execute/{id}', () => {
  it('runs a report and records Running then Success, with the event', async () => {
    const mark = await lastEventId(db());
    const response = await execute(entitiesPerTenant?.id ?? 0);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      success: true,
      message: 'Script "Entities per tenant" executed successfully',
      errorDetails: null,
      executionId: expect.any(Number),
    });
    const row = await db()
      .selectFrom('script_executions')
      .selectAll()
      .where('id', '=', body.executionId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'Success',
      script_name: 'Entities per tenant',
      executed_by: suite.emails.admin,
      message: 'Returned 1 row(s)',
    });
    expect(row.finished_at).not.toBeNull();
    const events = await eventsAfter(db(), mark);
    expect(events.map((event) => event.eventName)).toEqual(['DatabaseScriptExecuted']);
    // The audit row holds the script's result, as the history does.
    expect(await auditRowOf(db(), events[0]?.id ?? 0)).toMatchObject({
      actor: suite.emails.admin,
      action: 'execute',
      target_type: 'DatabaseScript',
      target_id: String(entitiesPerTenant?.id),
      target_name: 'Entities per tenant',
      after: { status: 'Success', message: 'Returned 1 row(s)' },
    });
  });

  it('runs a maintenance script that changes rows', async () => {
    await db()
      .insertInto('sessions')
      .values({
        id_hash: 'old-session',
        user_subject: 'someone',
        user_email: 'someone@example.com',
        user_name: 'Someone',
        expires_at: new Date(Date.now() - 3 * 86_400_000),
      })
      .execute();
    const mark = await lastEventId(db());
    const response = await execute(purgeSessions?.id ?? 0);
    expect(response.json().success).toBe(true);
    const left = await db().selectFrom('sessions').where('id_hash', '=', 'old-session').execute();
    expect(left).toEqual([]);
    const [event] = await eventsAfter(db(), mark);
    expect((await auditRowOf(db(), event?.id ?? 0)).after).toEqual({
      status: 'Success',
      message: `1 row(s) affected by ${purgeSessions?.statements.length} statement(s)`,
    });
  });

  it('rolls a failing script back and records it Failed with the reason', async () => {
    const mark = await lastEventId(db());
    const response = await execute(FAILING.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: false,
      message: 'Script execution failed',
      errorDetails: 'division by zero',
    });
    const country = await db()
      .selectFrom('countries')
      .select('name')
      .where('id', '=', 840)
      .executeTakeFirst();
    expect(country?.name).not.toBe('Changed');
    const row = await db()
      .selectFrom('script_executions')
      .selectAll()
      .where('id', '=', response.json().executionId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'Failed', message: 'division by zero' });
    const events = await eventsAfter(db(), mark);
    expect(events.map((event) => event.eventName)).toEqual(['DatabaseScriptFailed']);
    expect((await auditRowOf(db(), events[0]?.id ?? 0)).after).toEqual({
      status: 'Failed',
      message: 'division by zero',
    });
  });

  it('cancels a script at its statement timeout and records it Failed', async () => {
    const started = Date.now();
    const response = await execute(SLOW.id);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(response.json()).toMatchObject({
      success: false,
      message: 'Script execution failed',
      errorDetails: "Cancelled: a statement ran longer than the script's timeout of 200 ms",
    });
  });

  it('answers the history newest first, one page at a time', async () => {
    const response = await history('staff', '?limit=2');
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.totalCount).toBe(4);
    expect(page.limit).toBe(2);
    expect(page.data.map((row: { scriptName: string; status: string }) => row.scriptName)).toEqual([
      'Test slow report',
      'Test failing script',
    ]);
    expect(page.data[0]).toEqual({
      id: expect.any(Number),
      scriptId: SLOW.id,
      scriptName: 'Test slow report',
      scriptVersion: 3,
      status: 'Failed',
      executedBy: suite.emails.admin,
      executedAt: expect.stringMatching(/^\d{4}-/),
      finishedAt: expect.stringMatching(/^\d{4}-/),
      message: expect.stringContaining('timeout'),
    });
    const last = (await history('staff', '?offset=3&limit=2')).json();
    expect(last.data.map((row: { scriptName: string }) => row.scriptName)).toEqual([
      'Entities per tenant',
    ]);
  });

  it('answers an unknown script with 404 and records nothing', async () => {
    expectRefusal(await execute(777), 404, 'Script 777 not found.');
    expect((await history()).json().totalCount).toBe(4);
  });

  it('never runs SQL from the request: a body is ignored', async () => {
    const response = await execute(entitiesPerTenant?.id ?? 0, 'admin', {
      content: 'drop table countries',
      statements: ['drop table countries'],
    });
    expect(response.json().success).toBe(true);
    const countries = await db().selectFrom('countries').select('id').execute();
    expect(countries.length).toBeGreaterThan(0);
  });

  it.each(['01', 'abc', '0', '-1', '1.5', '0x1', '99999999999'])(
    'refuses the id %j with a 400 naming it',
    async (id) => {
      const response = await execute(encodeURIComponent(id));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('id');
    },
  );

  it.each(['?limit=0', '?offset=-1', '?limit=abc'])('refuses the history query %s', async (q) => {
    expect((await history('staff', q)).statusCode).toBe(400);
  });
});

describe('Database scripts: who may do what', () => {
  it.each([
    ['anonymous', 401],
    ['noRole', 403],
    ['tenant', 403],
    ['staff', 200],
  ] as const)('the list and the history as %s answer %i', async (caller, code) => {
    expect((await suite.call(caller, 'GET', '/api/database-scripts')).statusCode).toBe(code);
    expect((await history(caller)).statusCode).toBe(code);
  });

  it.each([
    ['anonymous', 401],
    ['noRole', 403],
    ['tenant', 403],
    ['staff', 403],
  ] as const)('execute as %s answers %i and records nothing', async (caller, code) => {
    const before = (await history()).json().totalCount;
    expect((await execute(entitiesPerTenant?.id ?? 0, caller)).statusCode).toBe(code);
    expect((await history()).json().totalCount).toBe(before);
  });
});

describe('the kept total of the history', () => {
  it('follows inserts, deletes and truncates', async () => {
    const total = async () => (await history('staff', '?limit=1')).json().totalCount;
    const counted = async () =>
      Number(
        (
          await db()
            .selectFrom('script_executions')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );
    expect(await total()).toBe(await counted());
    const row = {
      script_id: 1,
      script_name: 'x',
      script_version: 1,
      status: 'Success' as const,
      executed_by: 'test',
    };
    await db().insertInto('script_executions').values([row, row, row]).execute();
    expect(await total()).toBe(await counted());
    await db().deleteFrom('script_executions').where('script_name', '=', 'x').execute();
    expect(await total()).toBe(await counted());
    await sql`truncate script_executions`.execute(db());
    expect(await total()).toBe(0);
  });
});
