import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addAcmeTenantUser,
  REFERENCE_DATA_CALLERS,
  signInCallers,
  stamp,
  type Callers,
  type ReferenceDataCaller,
} from '../../../test/callers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let testApp: TestApp;
let callers: Callers<keyof typeof REFERENCE_DATA_CALLERS>;

beforeAll(async () => {
  testApp = await createTestApp();
  await testApp.database.db
    .insertInto('countries')
    .values({ id: 840, alpha2: 'US', alpha3: 'USA', name: 'United States', ...stamp })
    .execute();
  await addAcmeTenantUser(testApp.database.db, 840);
  callers = await signInCallers(testApp, REFERENCE_DATA_CALLERS);
});

afterAll(async () => {
  await testApp?.close();
});

beforeEach(async () => {
  await testApp.database.db.deleteFrom('forms').execute();
});

const list = (caller: ReferenceDataCaller, url = '/svc/formauthoring/list') =>
  callers.call(caller, 'GET', url);

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
