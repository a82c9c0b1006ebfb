import { beforeEach, describe, expect, it } from 'vitest';
import { stamp } from '../../../test/callers.ts';
import { STATUSES, useReferenceDataTestApp, type Caller } from '../../../test/reference-data.ts';

const suite = useReferenceDataTestApp();
const db = () => suite.testApp.database.db;

beforeEach(async () => {
  await db().deleteFrom('forms').execute();
});

const list = (caller: Caller, url = '/svc/formauthoring/list') => suite.call(caller, 'GET', url);

describe('GET /svc/formauthoring/list', () => {
  it('answers an empty list when there are no forms', async () => {
    const response = await list('staff');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('lists the forms of the forms table by name, with id, name, createdAt and updatedAt', async () => {
    const forms = db();
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
    const forms = db();
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

  it.each(STATUSES.read)('answers %s with %i', async (caller, status) => {
    expect((await list(caller)).statusCode).toBe(status);
  });
});
