import { auditListQuerySchema, type AuditEntry, type AuditList } from '@console/contracts';
import { sql, type Selectable } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectIndexBacked, expectRefusal } from '../../../test/expectations.ts';
import { usePortalTestApp, type Caller } from '../../../test/portal-test-app.ts';
import type { AuditLogTable } from '../../db/schema.ts';
import { auditPageStatement, TARGET_NAMES_MAX, type TargetNames } from './queries.ts';

/** 60 audit rows written as the audit-trail worker writes them, spread over 60 hours. */
const START = new Date('2025-03-01T00:00:00Z');
const ACTORS = ['Staff@Example.com', 'admin@example.com', 'other@example.com'] as const;
const ACTIONS = ['create', 'update', 'delete'] as const;
const TYPES = ['Tenant', 'DocumentType'] as const;
/** A tenant id no tenant has (any more): its rows have no tenant name. */
const GONE_TENANT_ID = 2_147_483_000;
const hour = (index: number) => new Date(START.getTime() + index * 3_600_000).toISOString();

/**
 * Filter combinations the screen can send (`tenantId: 'acme'` stands for Acme's id), each with
 * rows: every filter alone, the pairs the screen's users combine, and all of them at once.
 */
const COMBINATIONS = [
  ['no filter', {}],
  ['actor', { actor: 'STAFF@example.com' }],
  ['action', { action: 'update' }],
  ['target type', { targetType: 'Tenant' }],
  ['target id', { targetId: '3' }],
  ['target', { targetType: 'DocumentType', targetId: '3' }],
  ['tenant', { tenantId: 'acme' }],
  ['a tenant that is gone', { tenantId: String(GONE_TENANT_ID) }],
  ['from', { from: hour(41) }],
  ['to', { to: hour(17) }],
  ['from and to', { from: hour(12), to: hour(33) }],
  ['free text', { q: 'CME 100%' }],
  ['actor and action', { actor: 'admin@example.com', action: 'update' }],
  ['actor and free text', { actor: 'other@example.com', q: 'special' }],
  ['tenant and action', { tenantId: 'acme', action: 'update' }],
  ['target type, action and dates', { targetType: 'Tenant', action: 'create', from: hour(5) }],
  [
    'every filter',
    {
      actor: 'other@example.com',
      action: 'update',
      targetType: 'Tenant',
      targetId: '6',
      tenantId: 'acme',
      from: hour(10),
      to: hour(30),
      q: 'special',
    },
  ],
] as const satisfies readonly (readonly [string, Record<string, string>])[];

interface Seeded {
  eventId: number;
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  targetName: string;
  tenantId: number | null;
  occurredAt: Date;
}

describe('GET api/audit (filters, paging, permissions, bad input)', () => {
  // No workers: the audit log holds exactly the rows written here.
  const h = usePortalTestApp({ eventWorkersEnabled: false });
  const seeded: Seeded[] = [];

  beforeAll(async () => {
    const { db } = h.testApp.database;
    for (let index = 0; index < 60; index += 1) {
      seeded.push({
        eventId: 1_000_000 + index,
        actor: ACTORS[index % 3] ?? '',
        action: ACTIONS[index % 3 === 0 ? 0 : (index % 2) + 1] ?? '',
        targetType: TYPES[index % 2] ?? '',
        targetId: String(index % 7),
        targetName: index % 5 === 0 ? `Acme 100%_special ${index}` : `Record ${index}`,
        tenantId:
          index % 4 === 0
            ? h.acmeId
            : index % 8 === 2
              ? h.globexId
              : index % 4 === 2
                ? GONE_TENANT_ID
                : null,
        occurredAt: new Date(START.getTime() + index * 3_600_000),
      });
    }
    await db
      .insertInto('audit_log')
      .values(
        seeded.map((row) => ({
          event_id: row.eventId,
          event_name: 'Seeded',
          tenant_id: row.tenantId,
          entity_id: null,
          actor: row.actor,
          action: row.action,
          before: JSON.stringify({ name: 'old' }),
          after: JSON.stringify({ name: 'new', tags: ['a', 'b'] }),
          metadata: JSON.stringify({ actor: row.actor }),
          occurred_at: row.occurredAt,
          target_type: row.targetType,
          target_id: row.targetId,
          target_name: row.targetName,
        })),
      )
      .execute();
  });

  const newestFirst = (rows: Seeded[]) =>
    [...rows].sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime());
  const eventIds = (rows: readonly { eventId: number }[]) => rows.map((row) => row.eventId);
  const list = async (query: string, caller: Caller = 'staff') => {
    const response = await h.call(caller, 'GET', `/api/audit${query}`);
    expect(response.statusCode).toBe(200);
    return response.json() as AuditList;
  };
  const expectFiltered = async (query: string, keep: (row: Seeded) => boolean) => {
    const expected = newestFirst(seeded.filter(keep));
    expect(expected.length).toBeGreaterThan(0);
    const page = await list(`${query}&pageSize=100`);
    expect(page.totalCount).toBe(expected.length);
    expect(page.totalIsEstimate).toBe(false);
    expect(eventIds(page.data)).toEqual(eventIds(expected));
  };

  it('answers the first page of 10, newest first, each row with its target and tenant', async () => {
    const page = await list('');
    expect(page).toMatchObject({ totalCount: 60, totalIsEstimate: false, page: 1, pageSize: 10 });
    expect(eventIds(page.data)).toEqual(eventIds(newestFirst(seeded).slice(0, 10)));
    const acmeRow = (await list('?tenantId=' + String(h.acmeId))).data[0] as AuditEntry;
    expect(acmeRow).toMatchObject({
      eventName: 'Seeded',
      tenantId: h.acmeId,
      tenantName: 'Acme Corporation',
      before: { name: 'old' },
      after: { name: 'new', tags: ['a', 'b'] },
    });
    const tenantNames = new Map(
      (await list('?pageSize=100')).data.map((row) => [row.tenantId, row.tenantName]),
    );
    expect(Object.fromEntries(tenantNames)).toEqual({
      [h.acmeId]: 'Acme Corporation',
      [h.globexId]: 'Globex Limited',
      [GONE_TENANT_ID]: null,
      null: null,
    });
  });

  it('pages through the log without overlap, from either end', async () => {
    const all = newestFirst(seeded);
    expect(eventIds((await list('?pageSize=25&page=2')).data)).toEqual(eventIds(all.slice(25, 50)));
    // Past the middle the page is read from the other end, in the same order.
    expect(eventIds((await list('?pageSize=25&page=3')).data)).toEqual(eventIds(all.slice(50)));
    expect(await list('?page=99')).toEqual({
      data: [],
      totalCount: 60,
      totalIsEstimate: false,
      page: 99,
      pageSize: 10,
    });
    expect((await list('?pageSize=1000')).pageSize).toBe(100);
  });

  it('steps to the next and the previous page from a row of the page shown', async () => {
    for (const filters of ['', '&action=update']) {
      const second = await list(`?page=2&pageSize=5${filters}`);
      const third = await list(`?page=3&pageSize=5${filters}`);
      const next = await list(`?page=3&pageSize=5${filters}&after=${second.data.at(-1)?.id}`);
      expect(eventIds(next.data)).toEqual(eventIds(third.data));
      const previous = await list(`?page=2&pageSize=5${filters}&before=${third.data[0]?.id}`);
      expect(eventIds(previous.data)).toEqual(eventIds(second.data));
    }
    // A row that is not in the log: the page by its number.
    const byNumber = await list('?page=2&pageSize=10&after=99999999');
    expect(eventIds(byNumber.data)).toEqual(eventIds(newestFirst(seeded).slice(10, 20)));
  });

  /** `filters` of COMBINATIONS as the query sends them. */
  const withIds = (filters: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(filters).map(([name, value]) => [
        name,
        value === 'acme' ? String(h.acmeId) : value,
      ]),
    );

  /**
   * The rows `filters` keep, newest first, found by plain SQL of this test's own (not the list's
   * statement) and written as AuditEntry here: what every page must answer.
   */
  const plainlyFiltered = async (filters: Record<string, string>): Promise<AuditEntry[]> => {
    const { actor, action, targetType, targetId, tenantId, from, to, q } = filters;
    const conditions = [sql<boolean>`true`];
    if (actor) conditions.push(sql`lower(a.actor) = lower(${actor})`);
    if (action) conditions.push(sql`a.action = ${action}`);
    if (targetType) conditions.push(sql`a.target_type = ${targetType}`);
    if (targetId) conditions.push(sql`a.target_id = ${targetId}`);
    if (tenantId) conditions.push(sql`a.tenant_id = ${Number(tenantId)}`);
    // A moment: from it on, up to it included.
    if (from) conditions.push(sql`a.occurred_at >= ${new Date(from)}`);
    if (to) conditions.push(sql`a.occurred_at <= ${new Date(to)}`);
    if (q) conditions.push(sql`strpos(lower(a.target_name), lower(${q})) > 0`);
    const { rows } = await sql<Selectable<AuditLogTable> & { company_name: string | null }>`
      select a.*, t.company_name from audit_log as a left join tenants as t on t.id = a.tenant_id
      where ${sql.join(conditions, sql` and `)}
      order by a.occurred_at desc, a.id desc
    `.execute(h.testApp.database.db);
    return rows.map((row) => ({
      id: row.id,
      eventId: row.event_id,
      eventName: row.event_name,
      occurredAt: row.occurred_at.toISOString(),
      actor: row.actor,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      targetName: row.target_name,
      tenantId: row.tenant_id,
      tenantName: row.company_name,
      entityId: row.entity_id,
      before: row.before,
      after: row.after,
      metadata: row.metadata,
    }));
  };

  it.each(COMBINATIONS)(
    '%s: every page, by its number and by Next and Previous, is the plain filter of the rows',
    async (_name, filters) => {
      const params = withIds(filters);
      const expected = await plainlyFiltered(params);
      expect(expected.length).toBeGreaterThan(0);
      const pageSize = 7;
      const pageCount = Math.ceil(expected.length / pageSize);
      const query = (extra: Record<string, string>) =>
        `?${new URLSearchParams({ ...params, pageSize: String(pageSize), ...extra }).toString()}`;
      const pages: AuditList[] = [];
      for (let page = 1; page <= pageCount; page += 1) {
        const answer = await list(query({ page: String(page) }));
        expect(answer).toEqual({
          data: expected.slice((page - 1) * pageSize, page * pageSize),
          totalCount: expected.length,
          totalIsEstimate: false,
          page,
          pageSize,
        });
        pages.push(answer);
      }
      for (let index = 1; index < pageCount; index += 1) {
        const page = String(index + 1);
        const next = await list(query({ page, after: String(pages[index - 1]?.data.at(-1)?.id) }));
        expect(next).toEqual(pages[index]);
        const previous = await list(
          query({ page: String(index), before: String(pages[index]?.data[0]?.id) }),
        );
        expect(previous).toEqual(pages[index - 1]);
      }
      // Past the last row, and before the first: nothing.
      const last = pages.at(-1)?.data.at(-1)?.id;
      expect(
        (await list(query({ page: String(pageCount + 1), after: String(last) }))).data,
      ).toEqual([]);
      expect((await list(query({ before: String(expected[0]?.id) }))).data).toEqual([]);
    },
  );

  it('filters by actor ignoring letter case, action, target, tenant and dates', async () => {
    await expectFiltered('?actor=staff@EXAMPLE.com', (row) => row.actor === 'Staff@Example.com');
    await expectFiltered('?action=update', (row) => row.action === 'update');
    await expectFiltered('?targetType=Tenant', (row) => row.targetType === 'Tenant');
    await expectFiltered(
      '?targetType=DocumentType&targetId=3',
      (row) => row.targetType === 'DocumentType' && row.targetId === '3',
    );
    await expectFiltered(`?tenantId=${h.acmeId}`, (row) => row.tenantId === h.acmeId);
    const day = (offset: number) => START.getTime() + offset * 86_400_000;
    await expectFiltered(
      '?from=2025-03-02&to=2025-03-02',
      (row) => row.occurredAt.getTime() >= day(1) && row.occurredAt.getTime() < day(2),
    );
    await expectFiltered(
      `?from=${encodeURIComponent('2025-03-01T10:00:00+00:00')}&to=2025-03-01T12:00:00Z`,
      (row) =>
        row.occurredAt.getTime() >= START.getTime() + 10 * 3_600_000 &&
        row.occurredAt.getTime() <= START.getTime() + 12 * 3_600_000,
    );
    await expectFiltered(
      '?actor=admin@example.com&action=update&targetType=Tenant',
      (row) =>
        row.actor === 'admin@example.com' && row.action === 'update' && row.targetType === 'Tenant',
    );
  });

  it('finds free text in target names, ignoring case, wildcards matching themselves', async () => {
    await expectFiltered('?q=aCmE', (row) => row.targetName.toLowerCase().includes('acme'));
    await expectFiltered(`?q=${encodeURIComponent('100%_')}`, (row) =>
      row.targetName.includes('100%_'),
    );
    expect((await list(`?q=${encodeURIComponent('%')}&q2=x`)).totalCount).toBe(
      seeded.filter((row) => row.targetName.includes('%')).length,
    );
    expect((await list('?q=Acme_100')).totalCount).toBe(0);
    expect((await list(`?q=${encodeURIComponent("'; drop table audit_log; --")}`)).totalCount).toBe(
      0,
    );
    expect(await h.testApp.database.db.selectFrom('audit_log').select('id').execute()).toHaveLength(
      60,
    );
  });

  it.each([
    ['anonymous', 401],
    ['staff', 200],
    ['admin', 200],
    ['acme', 403],
    ['globex', 403],
    ['noRole', 403],
  ] as const)('%s: %i', async (caller, status) => {
    expect((await h.call(caller, 'GET', '/api/audit')).statusCode).toBe(status);
    expect((await h.call(caller, 'GET', `/api/audit?tenantId=${h.acmeId}`)).statusCode).toBe(
      status,
    );
  });

  it('names the parameter when the query is wrong', async () => {
    const dateMessage = (name: string) =>
      `${name} must be a date (yyyy-MM-dd) or a date and time with its offset (ISO 8601)`;
    for (const [query, message] of [
      ['?page=0', 'page must be a whole number of at least 1'],
      ['?page=1.5', 'page must be a whole number of at least 1'],
      ['?pageSize=-5', 'pageSize must be a whole number of at least 1'],
      ['?page=1&page=2', 'page must be a whole number of at least 1'],
      [`?actor=${'x'.repeat(255)}`, 'actor must be 254 characters or less'],
      [`?action=${'x'.repeat(51)}`, 'action must be 50 characters or less'],
      [`?targetType=${'x'.repeat(51)}`, 'targetType must be 50 characters or less'],
      [`?targetId=${'x'.repeat(201)}`, 'targetId must be 200 characters or less'],
      [`?q=${'x'.repeat(101)}`, 'q must be 100 characters or less'],
      ['?q=a%00b', 'q must not contain the NUL character'],
      ['?actor=a%00b', 'actor must not contain the NUL character'],
      ['?tenantId=abc', 'tenantId must be a whole number from 1 to 2147483647, in plain digits'],
      ['?tenantId=0x10', 'tenantId must be a whole number from 1 to 2147483647, in plain digits'],
      [
        '?tenantId=99999999999',
        'tenantId must be a whole number from 1 to 2147483647, in plain digits',
      ],
      ['?from=yesterday', dateMessage('from')],
      ['?from=2025-02-30', dateMessage('from')],
      ['?to=2025-03-01T10:00:00', dateMessage('to')],
      [`?to=${encodeURIComponent("2025-01-01'; drop table audit_log; --")}`, dateMessage('to')],
      ['?from=2025-03-05&to=2025-03-01', 'to must not be before from'],
      ['?after=3&before=5', 'after and before cannot be combined'],
    ] as const) {
      const response = await h.call('staff', 'GET', `/api/audit${query}`);
      expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
      expectRefusal(response, 400, message);
    }
  });

  it('is in the OpenAPI document with every query parameter', async () => {
    const response = await h.testApp.app.inject({ method: 'GET', url: '/docs/api/json' });
    const document = response.json() as {
      paths: Record<string, { get?: { parameters: { name: string }[] } }>;
    };
    expect(document.paths['/api/audit']?.get?.parameters.map((p) => p.name).sort()).toEqual([
      'action',
      'actor',
      'after',
      'before',
      'from',
      'page',
      'pageSize',
      'q',
      'targetId',
      'targetType',
      'tenantId',
      'to',
    ]);
  });

  it('answers an estimate beyond the exact threshold, never below what it counted', async () => {
    const { db } = h.testApp.database;
    await sql`
      insert into audit_log (event_id, event_name, actor, action, metadata, occurred_at,
        target_type, target_id, target_name)
      select 2000000 + n, 'Bulk', 'bulk@example.com', 'import', '{}'::jsonb,
        timestamptz '2024-01-01' + n * interval '1 second', 'Country', 'bulk', 'Bulk ' || n
      from generate_series(1, 10050) as n
    `.execute(db);
    await sql`analyze audit_log`.execute(db);
    const page = await list('?actor=bulk@example.com');
    expect(page.totalIsEstimate).toBe(true);
    expect(page.totalCount).toBeGreaterThan(10_000);
    expect(page.data[0]?.targetName).toBe('Bulk 10050');
    const exact = await list('?actor=bulk@example.com&from=2024-01-01T02:00:00Z');
    expect(exact).toMatchObject({ totalIsEstimate: false, totalCount: 10050 - 7200 + 1 });
    // A page past the threshold is read from the newest row, as an estimate has no end; Next
    // and Previous from it step as by number.
    const names = (page: AuditList) => page.data.map((row) => row.targetName);
    const deep = await list('?actor=bulk@example.com&page=1003&pageSize=10');
    expect(names(deep)).toEqual(
      Array.from({ length: 10 }, (_, index) => `Bulk ${10050 - 10_020 - index}`),
    );
    const next = await list(
      `?actor=bulk@example.com&page=1004&pageSize=10&after=${deep.data.at(-1)?.id}`,
    );
    expect(names(next)).toEqual(
      Array.from({ length: 10 }, (_, index) => `Bulk ${10050 - 10_030 - index}`),
    );
    const previous = await list(
      `?actor=bulk@example.com&page=1002&pageSize=10&before=${deep.data[0]?.id}`,
    );
    expect(names(previous)).toEqual(
      Array.from({ length: 10 }, (_, index) => `Bulk ${10050 - 10_010 - index}`),
    );
  });

  it('finds free text through the names that contain it, or more names than are passed', async () => {
    // The bulk rows' names are kept by the insert's trigger: 'Bulk 1005' and 'Bulk 10050'.
    const few = await list('?q=bulk 1005');
    expect(few.data.map((row) => row.targetName)).toEqual(['Bulk 10050', 'Bulk 1005']);
    // 'Bulk 1', 'Bulk 10' to 'Bulk 19', ...: 1,162 names, more than TARGET_NAMES_MAX.
    const expected = await plainlyFiltered({ q: 'ulk 1' });
    expect(expected.length).toBeGreaterThan(TARGET_NAMES_MAX);
    const first = await list('?q=ulk 1&pageSize=25');
    expect(first).toEqual({
      data: expected.slice(0, 25),
      totalCount: expected.length,
      totalIsEstimate: false,
      page: 1,
      pageSize: 25,
    });
    const next = await list(`?q=ulk 1&pageSize=25&page=2&after=${first.data.at(-1)?.id}`);
    expect(next.data).toEqual(expected.slice(25, 50));
    const last = await list(`?q=ulk 1&pageSize=25&page=${Math.ceil(expected.length / 25)}`);
    expect(last.data).toEqual(expected.slice(Math.floor(expected.length / 25) * 25));
  });
});

describe('GET api/audit at scale: every filter is index-backed', () => {
  const h = usePortalTestApp({ eventWorkersEnabled: false });

  it.each([
    ...COMBINATIONS,
    ['after a row', { after: '1' }],
    ['actor, action, before a row', { actor: 'staff@example.com', action: 'update', before: '1' }],
    ['free text after a row', { q: 'acme', after: '1' }],
  ] as const)('%s: the page statement reads through indexes only', async (_name, filters) => {
    const { db } = h.testApp.database;
    const query = auditListQuerySchema.parse({
      page: '2',
      ...filters,
      ...('tenantId' in filters ? { tenantId: String(h.acmeId) } : {}),
    });
    // The free text as the names that contain it, and as more names than are passed.
    const names: (TargetNames | undefined)[] =
      query.q === undefined ? [undefined] : [['Acme Corporation', 'Acme 100%_special 5'], 'many'];
    for (const found of names) await expectIndexBacked(db, auditPageStatement(db, query, found));
  });
});
