import { REQUIRED_FIELDS_MESSAGE, type Tenant } from '@console/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { HTML_INJECTION, SQL_INJECTION, stamp } from '../../../test/callers.ts';
import { expectFieldError, expectRefusal } from '../../../test/expectations.ts';
import { CALLER_EMAILS, usePortalTestApp } from '../../../test/portal-test-app.ts';
import { tenantColumn } from '../../../test/tenant-lists.ts';
import { eventsAfter, failRecordingOf, lastEventId } from '../../../test/recorded-events.ts';

const portal = usePortalTestApp();
const db = () => portal.testApp.database.db;

const FRANCE = 250;
const GERMANY = 276;

async function createTenant(body: unknown) {
  return portal.call('staff', 'POST', '/api/tenants', body);
}

async function newTenant(companyName: string, namespaces: string[]): Promise<Tenant> {
  const response = await createTenant({ companyName, domicileCountryId: FRANCE, namespaces });
  expect(response.statusCode).toBe(201);
  return response.json();
}

async function storedTenant(id: number) {
  return db().selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A tenant written straight to the database, so without the namespace the API would give it. */
async function insertBareTenant(companyName: string): Promise<number> {
  const tenant = await db()
    .insertInto('tenants')
    .values({ company_name: companyName, domicile_country_id: FRANCE, ...stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  return tenant.id;
}

const BAD_ID = 'id must be a whole number from 1 to 2147483647, in plain digits';

const storedNamespaces = (id: number) => tenantColumn(db(), 'tenant_namespaces', 'namespace', id);

describe('GET /api/tenants', () => {
  it('lists every tenant with its country name and namespaces, by id', async () => {
    const response = await portal.call('staff', 'GET', '/api/tenants');
    expect(response.statusCode).toBe(200);
    const tenants = response.json() as Tenant[];
    expect(tenants.slice(0, 2)).toEqual([
      {
        id: portal.acmeId,
        companyName: 'Acme Corporation',
        domicileCountryId: 840,
        domicileCountryName: expect.stringMatching(/United States/),
        namespaces: ['acme'],
      },
      {
        id: portal.globexId,
        companyName: 'Globex Limited',
        domicileCountryId: 826,
        domicileCountryName: expect.stringMatching(/United Kingdom/),
        namespaces: ['globex'],
      },
    ]);
    const ids = tenants.map((tenant) => tenant.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('sorts namespaces by code point and answers [] for a tenant without any', async () => {
    const tenant = await newTenant('Sorted Namespaces', ['zeta-ns', 'Alpha-ns', 'beta-ns']);
    await db().deleteFrom('tenant_namespaces').where('namespace', '=', 'zzz').execute();
    const bareId = await insertBareTenant('No Namespaces');
    const tenants = (await portal.call('admin', 'GET', '/api/Tenants')).json() as Tenant[];
    expect(tenants.find((row) => row.id === tenant.id)?.namespaces).toEqual([
      'Alpha-ns',
      'beta-ns',
      'zeta-ns',
    ]);
    expect(tenants.find((row) => row.id === bareId)?.namespaces).toEqual([]);
    await db().deleteFrom('tenants').where('id', 'in', [tenant.id, bareId]).execute();
  });
});

describe('POST /api/tenants', () => {
  it('creates a tenant stamped with the caller, trims the name and normalises namespaces', async () => {
    const response = await createTenant({
      companyName: '  Initech  ',
      domicileCountryId: GERMANY,
      namespaces: [' initech ', 'initech', '', '  ', 'initech-eu'],
    });
    expect(response.statusCode).toBe(201);
    const created = response.json() as Tenant;
    expect(created).toEqual({
      id: expect.any(Number),
      companyName: 'Initech',
      domicileCountryId: GERMANY,
      domicileCountryName: 'Germany',
      namespaces: ['initech', 'initech-eu'],
    });
    expect(await storedTenant(created.id)).toMatchObject({
      company_name: 'Initech',
      created_by: CALLER_EMAILS.staff,
      updated_by: CALLER_EMAILS.staff,
    });
    expect(await storedNamespaces(created.id)).toEqual(['initech', 'initech-eu']);
  });

  it.each([
    ['no namespaces', { namespaces: [] }],
    ['blank namespaces', { namespaces: ['  ', ''] }],
    ['namespaces left out', {}],
    ['namespaces null', { namespaces: null }],
  ])('generates a namespace from the company name with %s (spec 5)', async (_case, extra) => {
    const response = await createTenant({
      companyName: 'Umbrella Pharmaceuticals Worldwide Holdings',
      domicileCountryId: FRANCE,
      ...extra,
    });
    expect(response.statusCode).toBe(201);
    const created = response.json() as Tenant;
    expect(created.namespaces).toEqual(['umbrellapharmaceuticalsworldwide']);
    await db().deleteFrom('tenants').where('id', '=', created.id).execute();
  });

  it('pads a generated namespace of a short name to 8 characters', async () => {
    const created = await newTenant('Q', []);
    expect(created.namespaces).toHaveLength(1);
    expect(created.namespaces[0]).toMatch(/^qns\d{5}$/);
  });

  it('answers 409 when a namespace belongs to another tenant, naming it, and writes nothing', async () => {
    const before = await db().selectFrom('tenants').select('id').execute();
    const response = await createTenant({
      companyName: 'Acme Again',
      domicileCountryId: FRANCE,
      namespaces: ['fresh-one', ' acme '],
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: 'The namespace acme is already used by tenant Acme Corporation.',
      namespaces: [{ namespace: 'acme', tenantId: portal.acmeId, companyName: 'Acme Corporation' }],
    });
    expect(await db().selectFrom('tenants').select('id').execute()).toEqual(before);
    expect(
      await db()
        .selectFrom('tenant_namespaces')
        .select('namespace')
        .where('namespace', '=', 'fresh-one')
        .execute(),
    ).toEqual([]);
  });

  it('answers 409 when the generated namespace is taken, asking for one', async () => {
    const response = await createTenant({ companyName: 'Globex', domicileCountryId: FRANCE });
    expect(response.statusCode).toBe(201);
    const again = await createTenant({ companyName: 'GLOBEX', domicileCountryId: GERMANY });
    expectRefusal(
      again,
      409,
      'The namespace globexns, generated from the company name, is already used by tenant Globex. Please enter a namespace.',
    );
  });

  it('names every taken namespace', async () => {
    const response = await createTenant({
      companyName: 'Both',
      domicileCountryId: FRANCE,
      namespaces: ['globex', 'acme'],
    });
    expectRefusal(response, 409, 'The namespaces acme, globex are already used by other tenants.');
  });

  it('answers 400 for a country that does not exist', async () => {
    const response = await createTenant({ companyName: 'Nowhere Ltd', domicileCountryId: 999 });
    expectFieldError(response, 'domicileCountryId', 'Country 999 does not exist.');
  });

  it.each([
    ['no company name', { domicileCountryId: FRANCE }, REQUIRED_FIELDS_MESSAGE],
    [
      'a blank company name',
      { companyName: '   ', domicileCountryId: FRANCE },
      REQUIRED_FIELDS_MESSAGE,
    ],
    [
      'a null company name',
      { companyName: null, domicileCountryId: FRANCE },
      REQUIRED_FIELDS_MESSAGE,
    ],
    ['no country', { companyName: 'Acme' }, REQUIRED_FIELDS_MESSAGE],
    ['a null country', { companyName: 'Acme', domicileCountryId: null }, REQUIRED_FIELDS_MESSAGE],
    [
      'a country id as text',
      { companyName: 'Acme', domicileCountryId: '250' },
      'domicileCountryId must be a number',
    ],
    [
      'a fractional country id',
      { companyName: 'Acme', domicileCountryId: 250.5 },
      'domicileCountryId must be a whole number',
    ],
    [
      'a country id out of range',
      { companyName: 'Acme', domicileCountryId: 2 ** 40 },
      'domicileCountryId must be between 1 and 999',
    ],
    [
      'a company name that is a number',
      { companyName: 42, domicileCountryId: FRANCE },
      'companyName must be a string',
    ],
    [
      'a company name of 201 characters',
      { companyName: 'x'.repeat(201), domicileCountryId: FRANCE },
      'companyName must be 200 characters or less',
    ],
    [
      'a NUL in the company name',
      { companyName: 'Ac\u0000me', domicileCountryId: FRANCE },
      'companyName must not contain the NUL character',
    ],
    [
      'namespaces that are not an array',
      { companyName: 'Acme', domicileCountryId: FRANCE, namespaces: 'acme' },
      'namespaces must be an array of strings',
    ],
    [
      'a namespace that is a number',
      { companyName: 'Acme', domicileCountryId: FRANCE, namespaces: [7] },
      'namespaces.0: Each namespace must be a string',
    ],
    [
      'a namespace of 101 characters',
      { companyName: 'Acme', domicileCountryId: FRANCE, namespaces: ['n'.repeat(101)] },
      'A namespace must be 100 characters or less',
    ],
    [
      '51 namespaces',
      {
        companyName: 'Acme',
        domicileCountryId: FRANCE,
        namespaces: Array.from({ length: 51 }, (_, index) => `ns-${index}`),
      },
      'A tenant can have at most 50 namespaces',
    ],
  ])('answers 400 for %s, and writes nothing', async (_case, body, message) => {
    const before = await db().selectFrom('tenants').select('id').execute();
    const response = await createTenant(body);
    expectRefusal(response, 400, message);
    expect(await db().selectFrom('tenants').select('id').execute()).toEqual(before);
  });

  it('passes the required-fields alert on word for word', async () => {
    const response = await createTenant({ companyName: '', domicileCountryId: FRANCE });
    expectFieldError(response, 'companyName', REQUIRED_FIELDS_MESSAGE);
  });

  it.each([
    ['malformed JSON', '{"companyName": "Acme",'],
    ['an array', '[]'],
    ['a number', '42'],
    ['null', 'null'],
  ])('answers 400 for a body that is %s', async (_case, body) => {
    const response = await portal.call('staff', 'POST', '/api/tenants', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('message');
  });

  it('stores SQL and HTML look-alikes verbatim, and the tables survive', async () => {
    const created = await newTenant(SQL_INJECTION, [
      HTML_INJECTION,
      "ns'; delete from tenants; --",
    ]);
    expect(created.companyName).toBe(SQL_INJECTION);
    const listed = ((await portal.call('staff', 'GET', '/api/tenants')).json() as Tenant[]).find(
      (tenant) => tenant.id === created.id,
    );
    expect(listed?.namespaces).toEqual([HTML_INJECTION, "ns'; delete from tenants; --"]);
    const tables = await sql<{ count: number }>`
      select count(*)::int as count from information_schema.tables where table_name = 'tenants'
    `.execute(db());
    expect(tables.rows[0]?.count).toBe(1);
    expect((await portal.call('staff', 'GET', '/api/tenants')).json().length).toBeGreaterThan(2);
  });
});

describe('PUT /api/tenants/{id}', () => {
  it('replaces name, country and namespaces, stamped with the caller, keeping the creator', async () => {
    const tenant = await newTenant('Hooli', ['hooli', 'hooli-xyz']);
    const response = await portal.call('admin', 'PUT', `/api/tenants/${tenant.id}`, {
      companyName: ' Hooli XYZ ',
      domicileCountryId: GERMANY,
      namespaces: ['hooli-xyz', 'hooli-eu'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: tenant.id,
      companyName: 'Hooli XYZ',
      domicileCountryId: GERMANY,
      domicileCountryName: 'Germany',
      namespaces: ['hooli-eu', 'hooli-xyz'],
    });
    expect(await storedTenant(tenant.id)).toMatchObject({
      created_by: CALLER_EMAILS.staff,
      updated_by: CALLER_EMAILS.admin,
    });
    expect(await storedNamespaces(tenant.id)).toEqual(['hooli-eu', 'hooli-xyz']);
    // The namespace it gave up is free for others.
    expect((await newTenant('Other Hooli', ['hooli'])).namespaces).toEqual(['hooli']);
  });

  it('keeps the namespaces when none are given', async () => {
    const tenant = await newTenant('Vandelay Industries', ['vandelay', 'vandelay-import']);
    const response = await portal.call('staff', 'PUT', `/api/tenants/${tenant.id}`, {
      companyName: 'Vandelay Import Export',
      domicileCountryId: FRANCE,
      namespaces: ['   '],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().namespaces).toEqual(['vandelay', 'vandelay-import']);
  });

  it('generates a namespace for a tenant that has none', async () => {
    const id = await insertBareTenant('Bare Tenant');
    const response = await portal.call('staff', 'PUT', `/api/tenants/${id}`, {
      companyName: 'Bare Tenant Renamed',
      domicileCountryId: FRANCE,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().namespaces).toEqual(['baretenantrenamed']);
  });

  it('accepts its own namespaces again, and answers 409 for another tenant’s', async () => {
    const tenant = await newTenant('Stark Industries', ['stark']);
    const same = await portal.call('staff', 'PUT', `/api/tenants/${tenant.id}`, {
      companyName: 'Stark Industries',
      domicileCountryId: FRANCE,
      namespaces: ['stark'],
    });
    expect(same.statusCode).toBe(200);
    const taken = await portal.call('staff', 'PUT', `/api/tenants/${tenant.id}`, {
      companyName: 'Stark Industries',
      domicileCountryId: FRANCE,
      namespaces: ['stark', 'globex'],
    });
    expectRefusal(taken, 409, 'The namespace globex is already used by tenant Globex Limited.');
    expect(await storedNamespaces(tenant.id)).toEqual(['stark']);
  });

  it('answers 404 for an unknown tenant, 400 for an unknown country or bad body', async () => {
    const body = { companyName: 'Ghost', domicileCountryId: FRANCE };
    const unknown = await portal.call('staff', 'PUT', '/api/tenants/999999', body);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Tenant 999999 not found.' });

    const country = await portal.call('staff', 'PUT', `/api/tenants/${portal.acmeId}`, {
      ...body,
      domicileCountryId: 998,
    });
    expectRefusal(country, 400, 'Country 998 does not exist.');

    const blank = await portal.call('staff', 'PUT', `/api/tenants/${portal.acmeId}`, {
      companyName: '',
    });
    expect(blank.statusCode).toBe(400);
    expect((await storedTenant(portal.acmeId))?.company_name).toBe('Acme Corporation');
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999', "1'; drop table tenants; --"])(
    'answers 400 for the id %s',
    async (id) => {
      const response = await portal.call('staff', 'PUT', `/api/tenants/${encodeURIComponent(id)}`, {
        companyName: 'X',
        domicileCountryId: FRANCE,
      });
      expectRefusal(response, 400, BAD_ID);
    },
  );
});

describe('DELETE /api/tenants/{id}', () => {
  it('deletes a tenant with its namespaces (204), then answers 404', async () => {
    const tenant = await newTenant('Short Lived', ['short-lived']);
    const response = await portal.call('staff', 'DELETE', `/api/tenants/${tenant.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await storedTenant(tenant.id)).toBeUndefined();
    expect(await storedNamespaces(tenant.id)).toEqual([]);

    const again = await portal.call('staff', 'DELETE', `/api/tenants/${tenant.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: `Tenant ${tenant.id} not found.` });
  });

  it('answers 409 while the tenant has users and entities, saying what remains', async () => {
    const counts = async (table: 'tenant_users' | 'entities' | 'entity_users') =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('tenant_id', '=', portal.acmeId)
            .executeTakeFirstOrThrow()
        ).count,
      );
    const expected = {
      tenantUsers: await counts('tenant_users'),
      entities: await counts('entities'),
      entityUsers: await counts('entity_users'),
    };
    const response = await portal.call('admin', 'DELETE', `/api/tenants/${portal.acmeId}`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: `Cannot delete tenant Acme Corporation because it still has 1 tenant user, ${expected.entities} entities and ${expected.entityUsers} entity users. Remove them first.`,
      ...expected,
    });
    expect(await storedTenant(portal.acmeId)).toBeDefined();
  });

  it('answers 409 for a tenant with only a tenant user', async () => {
    const tenant = await newTenant('Only Users', ['only-users']);
    await portal.call('staff', 'POST', '/api/tenantusers', {
      email: 'someone@only-users.example',
      tenantId: tenant.id,
    });
    const response = await portal.call('staff', 'DELETE', `/api/tenants/${tenant.id}`);
    const remains = 'Cannot delete tenant Only Users because it still has 1 tenant user.';
    expectRefusal(response, 409, `${remains} Remove them first.`);
  });
});

describe('domain events of tenant writes', () => {
  it('records TenantCreated for the new tenant, with the tenant as the API shows it', async () => {
    const since = await lastEventId(db());
    const tenant = await newTenant('Evented Inc', ['evented']);
    expect(await eventsAfter(db(), since)).toEqual([
      {
        id: expect.any(Number),
        eventName: 'TenantCreated',
        tenantId: tenant.id,
        entityId: null,
        metadata: {
          actor: CALLER_EMAILS.staff,
          action: 'create',
          tenantId: tenant.id,
          target: { type: 'Tenant', id: tenant.id, name: 'Evented Inc' },
          after: tenant,
        },
      },
    ]);
  });

  it('records TenantUpdated with before, after and the changed fields', async () => {
    const before = await newTenant('Evented Update', ['evented-update']);
    const since = await lastEventId(db());
    const response = await portal.call('admin', 'PUT', `/api/tenants/${before.id}`, {
      companyName: 'Evented Update GmbH',
      domicileCountryId: GERMANY,
      namespaces: ['evented-update'],
    });
    expect(response.statusCode).toBe(200);
    expect(await eventsAfter(db(), since)).toEqual([
      {
        id: expect.any(Number),
        eventName: 'TenantUpdated',
        tenantId: before.id,
        entityId: null,
        metadata: {
          actor: CALLER_EMAILS.admin,
          action: 'update',
          tenantId: before.id,
          target: { type: 'Tenant', id: before.id, name: 'Evented Update GmbH' },
          changes: ['companyName', 'domicileCountryId', 'domicileCountryName'],
          before,
          after: response.json(),
        },
      },
    ]);
  });

  it('records TenantDeleted with the tenant as it was', async () => {
    const before = await newTenant('Evented Delete', ['evented-delete']);
    const since = await lastEventId(db());
    expect((await portal.call('staff', 'DELETE', `/api/tenants/${before.id}`)).statusCode).toBe(
      204,
    );
    expect(await eventsAfter(db(), since)).toEqual([
      {
        id: expect.any(Number),
        eventName: 'TenantDeleted',
        tenantId: before.id,
        entityId: null,
        metadata: {
          actor: CALLER_EMAILS.staff,
          action: 'delete',
          tenantId: before.id,
          target: { type: 'Tenant', id: before.id, name: 'Evented Delete' },
          before,
        },
      },
    ]);
  });

  it('records nothing for a write that fails (409, 404, 400)', async () => {
    const since = await lastEventId(db());
    const conflicting = await createTenant({
      companyName: 'Namespace Thief',
      domicileCountryId: FRANCE,
      namespaces: ['acme'],
    });
    expect(conflicting.statusCode).toBe(409);
    const unknown = await portal.call('staff', 'PUT', '/api/tenants/999999', {
      companyName: 'Nobody',
      domicileCountryId: FRANCE,
      namespaces: [],
    });
    expect(unknown.statusCode).toBe(404);
    const badCountry = await portal.call('staff', 'PUT', `/api/tenants/${portal.globexId}`, {
      companyName: 'Globex Limited',
      domicileCountryId: 999,
      namespaces: [],
    });
    expect(badCountry.statusCode).toBe(400);
    const inUse = await portal.call('staff', 'DELETE', `/api/tenants/${portal.acmeId}`);
    expect(inUse.statusCode).toBe(409);
    expect(await eventsAfter(db(), since)).toEqual([]);
  });

  it('records the event in the transaction of the write: no event, no write', async () => {
    const tenant = await newTenant('Evented Rollback', ['evented-rollback']);
    const since = await lastEventId(db());
    for (const eventName of ['TenantCreated', 'TenantUpdated', 'TenantDeleted']) {
      const restore = await failRecordingOf(db(), eventName);
      try {
        const response =
          eventName === 'TenantCreated'
            ? await createTenant({
                companyName: 'Never Created',
                domicileCountryId: FRANCE,
                namespaces: ['never-created'],
              })
            : eventName === 'TenantUpdated'
              ? await portal.call('staff', 'PUT', `/api/tenants/${tenant.id}`, {
                  companyName: 'Never Renamed',
                  domicileCountryId: GERMANY,
                  namespaces: ['never-renamed'],
                })
              : await portal.call('staff', 'DELETE', `/api/tenants/${tenant.id}`);
        expect(response.statusCode, eventName).toBe(500);
      } finally {
        await restore();
      }
    }
    const stored = await db()
      .selectFrom('tenants')
      .select('company_name')
      .where('company_name', 'in', ['Never Created', 'Never Renamed'])
      .execute();
    expect(stored).toEqual([]);
    expect(await storedTenant(tenant.id)).toMatchObject({
      company_name: 'Evented Rollback',
      domicile_country_id: FRANCE,
    });
    expect(await storedNamespaces(tenant.id)).toEqual(['evented-rollback']);
    expect(await eventsAfter(db(), since)).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('describes the calls of tenants, tenant users, entities and entity users', async () => {
    const response = await portal.testApp.app.inject({ method: 'GET', url: '/docs/api/json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json().paths as Record<
      string,
      Record<string, { parameters?: { name: string; in: string }[] }>
    >;
    for (const path of [
      '/api/tenants',
      '/api/tenants/{id}',
      '/api/tenantusers',
      '/api/tenantusers/{id}',
      '/api/Entity',
      '/api/EntityUser',
      '/api/EntityUser/{userId}/keys/{keyName}',
    ]) {
      expect(paths, path).toHaveProperty([path]);
    }
    for (const path of ['/api/Entity', '/api/EntityUser']) {
      const query = (paths[path]?.get?.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name);
      expect(query.sort()).toEqual(['limit', 'offset', 'sort', 'tenantId']);
    }
    expect(paths).not.toHaveProperty(['/api/EntityUser/{userId}/keys']);
  });
});
