import { entityPageSchema, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '@console/contracts';
import type { EntityPage } from '@console/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { HTML_INJECTION, SQL_INJECTION } from '../../../test/callers.ts';
import { usePortalTestApp, type Caller } from '../../../test/portal-test-app.ts';
import { itRefusesBadListQueries, tenantColumn } from '../../../test/tenant-lists.ts';

const portal = usePortalTestApp();
const db = () => portal.testApp.database.db;

/** A third tenant with more entities than one page can hold, and odd names. */
let bigTenantId: number;
const BIG_TENANT_ENTITIES = LIST_LIMIT_MAX + 50;

beforeAll(async () => {
  const created = await portal.call('staff', 'POST', '/api/tenants', {
    companyName: 'Big Tenant',
    domicileCountryId: 250,
    namespaces: ['big-tenant'],
  });
  bigTenantId = created.json().id;
  await sql`
    insert into entities (party_entity_id, tenant_id, names, country)
    select 'big-' || lpad(i::text, 5, '0'), ${bigTenantId}::int,
      jsonb_build_object('names', jsonb_build_object('entityName', 'Big entity ' || i)), 'FR'
    from generate_series(1, ${BIG_TENANT_ENTITIES}::int) as i
  `.execute(db());
  await db()
    .insertInto('entities')
    .values([
      {
        party_entity_id: 'odd-no-name',
        tenant_id: bigTenantId,
        names: '{"names":{}}',
        country: null,
      },
      {
        party_entity_id: 'odd-blank-name',
        tenant_id: bigTenantId,
        names: JSON.stringify({ names: { entityName: '   ', legalName: 'Legal Ltd', rank: 3 } }),
        country: null,
      },
      {
        party_entity_id: 'odd-sql',
        tenant_id: bigTenantId,
        names: JSON.stringify({ names: { entityName: SQL_INJECTION } }),
        country: 'GB',
      },
      {
        party_entity_id: 'odd-html',
        tenant_id: bigTenantId,
        names: JSON.stringify({ names: { entityName: ` ${HTML_INJECTION} ` } }),
        country: 'GB',
      },
      {
        party_entity_id: 'odd-not-an-object',
        tenant_id: bigTenantId,
        names: '[1,2]',
        country: null,
      },
    ])
    .execute();
});

/** A page as the API answers it, checked against the contract (the route does not check it). */
const list = async (caller: Caller, query = ''): Promise<EntityPage> => {
  const response = await portal.call(caller, 'GET', `/api/Entity${query}`);
  expect(response.statusCode).toBe(200);
  const page: EntityPage = response.json();
  // Parsing drops what the schema does not name: equal means nothing more and nothing wrong.
  expect(entityPageSchema.parse(page)).toEqual(page);
  return page;
};

/** Every entity id of a tenant in the database's own order, the order the API must page in. */
const idsInOrder = (tenantId: number) =>
  tenantColumn(db(), 'entities', 'party_entity_id', tenantId);

async function countOf(tenantId?: number): Promise<number> {
  let query = db()
    .selectFrom('entities')
    .select((eb) => eb.fn.countAll<number>().as('count'));
  if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

describe('GET /api/Entity', () => {
  it('answers a page {data, totalCount, offset, limit} of the spec fields', async () => {
    const page = await list('staff', `?tenantId=${portal.acmeId}&offset=0&limit=10`);
    expect(page.totalCount).toBe(32);
    expect(page.offset).toBe(0);
    expect(page.limit).toBe(10);
    expect(page.data).toHaveLength(10);
    const stored = await db()
      .selectFrom('entities')
      .selectAll()
      .where('party_entity_id', '=', page.data[0]?.partyEntityId ?? '')
      .executeTakeFirstOrThrow();
    expect(page.data[0]).toEqual({
      partyEntityId: stored.party_entity_id,
      tenantId: portal.acmeId,
      tenantName: 'Acme Corporation',
      names: { names: stored.names.names },
      country: stored.country,
      displayName: stored.names.names.entityName,
    });
    expect(page.data.map((entity) => entity.partyEntityId)).toEqual(
      (await idsInOrder(portal.acmeId)).slice(0, 10),
    );
  });

  it('lists every tenant for staff, 100 rows by default', async () => {
    const page = await list('staff');
    expect(page.totalCount).toBe(await countOf());
    expect(page.offset).toBe(0);
    expect(page.limit).toBe(LIST_LIMIT_DEFAULT);
    expect(page.data).toHaveLength(LIST_LIMIT_DEFAULT);
    expect(new Set(page.data.map((entity) => entity.tenantId)).size).toBeGreaterThan(1);
  });

  it('treats empty offset and limit as absent', async () => {
    const page = await list('admin', '?offset=&limit=');
    expect(page).toMatchObject({ offset: 0, limit: LIST_LIMIT_DEFAULT });
  });

  it('pages through a tenant: pages of 7 put together are the whole list, in order', async () => {
    const expected = await idsInOrder(portal.globexId);
    for (const sort of ['', '&sort=-partyEntityId']) {
      const seen: string[] = [];
      for (let offset = 0; offset < expected.length + 7; offset += 7) {
        const page = await list('globex', `?offset=${offset}&limit=7${sort}`);
        expect(page.totalCount).toBe(expected.length);
        expect(page.data.length).toBe(Math.max(0, Math.min(7, expected.length - offset)));
        seen.push(...page.data.map((entity) => entity.partyEntityId));
      }
      expect(seen).toEqual(sort ? [...expected].reverse() : expected);
    }
  });

  it('reads pages past the middle from the end, with the same rows', async () => {
    const expected = await idsInOrder(bigTenantId);
    expect(expected).toHaveLength(BIG_TENANT_ENTITIES + 5);
    for (const offset of [0, 500, 530, 540, 541, 700, expected.length - 3]) {
      const page = await list('staff', `?tenantId=${bigTenantId}&offset=${offset}&limit=25`);
      expect(page.data.map((entity) => entity.partyEntityId)).toEqual(
        expected.slice(offset, offset + 25),
      );
      const descending = await list(
        'staff',
        `?tenantId=${bigTenantId}&offset=${offset}&limit=25&sort=-partyEntityId`,
      );
      expect(descending.data.map((entity) => entity.partyEntityId)).toEqual(
        [...expected].reverse().slice(offset, offset + 25),
      );
    }
  });

  it(`lowers a limit above ${LIST_LIMIT_MAX} to ${LIST_LIMIT_MAX}, and says so`, async () => {
    const page = await list('staff', `?tenantId=${bigTenantId}&limit=5000`);
    expect(page.limit).toBe(LIST_LIMIT_MAX);
    expect(page.data).toHaveLength(LIST_LIMIT_MAX);
    expect(page.totalCount).toBe(BIG_TENANT_ENTITIES + 5);
    const rest = await list('staff', `?tenantId=${bigTenantId}&offset=1000&limit=99999999999`);
    expect(rest.data).toHaveLength(55);
  });

  it('answers an empty page past the end, with the total', async () => {
    const page = await list('staff', `?tenantId=${portal.acmeId}&offset=32&limit=10`);
    expect(page).toEqual({ data: [], totalCount: 32, offset: 32, limit: 10 });
    const far = await list('staff', '?offset=9007199254740991&limit=1');
    expect(far.data).toEqual([]);
  });

  it('derives the display name: entityName trimmed, else the id; other values left out', async () => {
    const page = await list('staff', `?tenantId=${bigTenantId}&offset=${BIG_TENANT_ENTITIES}`);
    const byId = new Map(page.data.map((entity) => [entity.partyEntityId, entity]));
    expect(byId.get('odd-no-name')).toMatchObject({
      names: { names: {} },
      displayName: 'odd-no-name',
      country: null,
    });
    expect(byId.get('odd-blank-name')).toMatchObject({
      names: { names: { entityName: '   ', legalName: 'Legal Ltd' } },
      displayName: 'odd-blank-name',
    });
    expect(byId.get('odd-sql')).toMatchObject({
      names: { names: { entityName: SQL_INJECTION } },
      displayName: SQL_INJECTION,
      tenantName: 'Big Tenant',
    });
    expect(byId.get('odd-html')?.displayName).toBe(HTML_INJECTION);
    expect(byId.get('odd-not-an-object')).toMatchObject({ names: { names: {} } });
  });

  itRefusesBadListQueries(portal, '/api/Entity', [
    ['?sort=name', 'sort must be one of partyEntityId, -partyEntityId'],
    ['?sort=partyentityid', 'sort must be one of partyEntityId, -partyEntityId'],
  ]);

  it('matches the path case-insensitively (api/entity, api/ENTITY, /api/api/Entity)', async () => {
    for (const url of ['/api/entity', '/API/ENTITY?limit=1', '/api/api/Entity?limit=1']) {
      expect((await portal.call('staff', 'GET', url)).statusCode).toBe(200);
    }
  });
});

describe('GET /api/Entity for tenant users', () => {
  it("shows a tenant user only its own tenant's entities", async () => {
    for (const [caller, tenantId, name] of [
      ['acme', portal.acmeId, 'Acme Corporation'],
      ['globex', portal.globexId, 'Globex Limited'],
    ] as const) {
      const page = await list(caller, '?limit=1000');
      expect(page.totalCount).toBe(await countOf(tenantId));
      expect(page.data.map((entity) => entity.partyEntityId)).toEqual(await idsInOrder(tenantId));
      for (const entity of page.data) expect(entity).toMatchObject({ tenantId, tenantName: name });
      expect((await list(caller, `?tenantId=${tenantId}`)).totalCount).toBe(page.totalCount);
    }
  });

  it('answers 404 to a tenant user naming another tenant, real or not, and shows none of its data', async () => {
    const acmeIds = await idsInOrder(portal.acmeId);
    for (const tenantId of [portal.acmeId, bigTenantId, 999_999]) {
      const response = await portal.call('globex', 'GET', `/api/Entity?tenantId=${tenantId}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: `Tenant ${tenantId} not found.` });
      expect(response.body).not.toContain('Acme');
      for (const id of acmeIds) expect(response.body).not.toContain(id);
    }
  });

  it('answers 404 to staff for a tenant that does not exist', async () => {
    const response = await portal.call('staff', 'GET', '/api/Entity?tenantId=999999');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Tenant 999999 not found.' });
  });

  it.each([
    ['anonymous', 401],
    ['noRole', 403],
  ] as const)('refuses %s with %i', async (caller, status) => {
    const response = await portal.call(caller, 'GET', '/api/Entity');
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ message: expect.any(String) });
  });
});
