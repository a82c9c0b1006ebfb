import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

const TENANT_USER = 'portal@acme.example';

let testApp: TestApp;
const tokens = { staff: '', admin: '', tenant: '', noRole: '' };
type Caller = keyof typeof tokens | 'anonymous';

const stamp = { created_by: 'test', updated_by: 'test', updated_at: new Date() };

beforeAll(async () => {
  testApp = await createTestApp();
  const { db } = testApp.database;
  await db
    .insertInto('countries')
    .values({ id: 840, alpha2: 'US', alpha3: 'USA', name: 'United States', ...stamp })
    .execute();
  const tenant = await db
    .insertInto('tenants')
    .values({ company_name: 'Acme', domicile_country_id: 840, ...stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('tenant_users')
    .values({ email: TENANT_USER, tenant_id: tenant.id, ...stamp })
    .execute();
  tokens.staff = await testApp.tokenFor('staff@example.com');
  tokens.admin = await testApp.tokenFor('admin@example.com');
  tokens.tenant = await testApp.tokenFor(TENANT_USER);
  tokens.noRole = await testApp.tokenFor('visitor@elsewhere.test');
});

afterAll(async () => {
  await testApp?.close();
});

beforeEach(async () => {
  await testApp.database.db.deleteFrom('forms').execute();
});

const list = (caller: Caller, url = '/svc/formauthoring/list') =>
  testApp.app.inject({
    method: 'GET',
    url,
    headers: caller === 'anonymous' ? {} : { authorization: `Bearer ${tokens[caller]}` },
  });

describe('GET /svc/formauthoring/list', () => {
  it('answers an empty list when there are no forms', async () => {
    const response = await list('staff');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('lists the forms of the forms table by name, with id, name, createdAt and updatedAt', async () => {
    const forms = testApp.database.db;
    await forms
      .insertInto('forms')
      .values([
        { name: 'EditTenantProfile', ...stamp },
        { name: 'EditIndividualId_passport', description: 'Passport data', ...stamp },
      ])
      .execute();
    const rows = await forms.selectFrom('forms').selectAll().orderBy('name').execute();

    const response = await list('admin', '/SVC/FormAuthoring/List');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(
      rows.map((row) => ({
        id: row.id,
        name: row.name,
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
      })),
    );
    expect(response.json().map((form: { name: string }) => form.name)).toEqual([
      'EditIndividualId_passport',
      'EditTenantProfile',
    ]);
  });

  it('keeps form names unique', async () => {
    const forms = testApp.database.db;
    await forms
      .insertInto('forms')
      .values({ name: 'EditTenantProfile', ...stamp })
      .execute();
    await expect(
      forms
        .insertInto('forms')
        .values({ name: 'EditTenantProfile', ...stamp })
        .execute(),
    ).rejects.toThrow();
  });

  it.each([
    ['anonymous', 401],
    ['tenant', 403],
    ['noRole', 403],
    ['staff', 200],
    ['admin', 200],
  ] as const)('answers %s with %i', async (caller, status) => {
    expect((await list(caller)).statusCode).toBe(status);
  });
});
