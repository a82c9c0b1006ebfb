import { FORM_NAME_MESSAGES, missingFieldIds, type FormDefinition } from '@console/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { HTML_INJECTION, SQL_INJECTION, stamp } from '../../../test/callers.ts';
import { countTables, expectFieldError, expectRefusal } from '../../../test/expectations.ts';
import { eventsAfter, failRecordingOf, lastEventId } from '../../../test/recorded-events.ts';
import { STATUSES, useReferenceDataTestApp, type Caller } from '../../../test/reference-data.ts';

const suite = useReferenceDataTestApp();
const db = () => suite.testApp.database.db;
const call = suite.call;

const SERVICE = '/svc/formauthoring';
const list = (caller: Caller, url = `${SERVICE}/list`, headers?: Record<string, string>) =>
  call(caller, 'GET', url, undefined, headers);
const definition = (caller: Caller, name: string) =>
  call(caller, 'GET', `${SERVICE}/${encodeURIComponent(name)}/definition`);
const create = (caller: Caller, body: unknown) => call(caller, 'POST', SERVICE, body);
const update = (caller: Caller, name: string, body: unknown) =>
  call(caller, 'PUT', `${SERVICE}/${encodeURIComponent(name)}`, body);
const remove = (caller: Caller, name: string) =>
  call(caller, 'DELETE', `${SERVICE}/${encodeURIComponent(name)}`);

/** Field ids of the catalogue each test starts with: company name, number, and legal form. */
let companyName: number;
let companyNumber: number;
let legalForm: number;

async function createField(name: string, uiGroup: string, type = 'Text', options?: string[]) {
  const body = { name, displayName: name, type, uiGroup, options };
  const response = await call('staff', 'POST', `${SERVICE}/fields`, body);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: number }).id;
}

// Through the API: a write this instance answers renews its cached lists at once, where one
// straight to the database reaches them a moment later (its notification).
beforeEach(async () => {
  for (const { name } of await db().selectFrom('forms').select('name').execute()) {
    expect((await remove('admin', name)).statusCode).toBe(204);
  }
  for (const { id } of await db().selectFrom('form_fields').select('id').execute()) {
    expect((await call('admin', 'DELETE', `${SERVICE}/fields/${id}`)).statusCode).toBe(204);
  }
  companyName = await createField('CompanyName', 'Company');
  companyNumber = await createField('CompanyNumber', 'Company');
  legalForm = await createField('LegalForm', 'Legal', 'Select', ['Limited company']);
});

/** Waits until this instance answers the forms list of a write made straight to the database. */
async function untilListChanges(etag: string) {
  await expect
    .poll(async () => (await list('staff')).headers.etag, { timeout: 5_000, interval: 20 })
    .not.toBe(etag);
}

const storedForms = () => db().selectFrom('forms').selectAll().orderBy('id').execute();

const ENTITY_PROFILE = () => ({
  name: 'EditEntityProfile',
  description: 'The profile of an entity',
  fields: [companyName, legalForm, companyNumber],
  uiGroupOrder: ['Legal', 'Company'],
  colSpanOverride: 6,
});

async function newForm(body: object = ENTITY_PROFILE()) {
  const response = await create('staff', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { name: string };
}

describe('GET /svc/formauthoring/list', () => {
  it('answers an empty list when there are no forms', async () => {
    const response = await list('staff');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('lists the forms of the forms table by name, with id, name, createdAt and updatedAt', async () => {
    const before = String((await list('staff')).headers.etag);
    await db()
      .insertInto('forms')
      .values([
        { name: 'EditTenantProfile', ...stamp },
        { name: 'EditIndividualId_passport', description: 'Passport data', ...stamp },
      ])
      .execute();
    const rows = await db().selectFrom('forms').selectAll().orderBy('name').execute();
    await untilListChanges(before);

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

  it('keeps form names unique in any letter case', async () => {
    await db()
      .insertInto('forms')
      .values({ name: 'EditTenantProfile', ...stamp })
      .execute();
    await expect(
      db()
        .insertInto('forms')
        .values({ name: 'edittenantprofile', ...stamp })
        .execute(),
    ).rejects.toThrow();
  });

  it('sees every write of the API: 304 while unchanged, a new ETag and body after each', async () => {
    const current = async () => {
      const response = await list('staff');
      expect(response.statusCode).toBe(200);
      return {
        etag: String(response.headers.etag),
        names: response.json().map((form: { name: string }) => form.name),
      };
    };
    const first = await current();
    expect(first.etag).toMatch(/^W\/"forms-\d+"$/);
    expect(
      (await list('staff', `${SERVICE}/list`, { 'if-none-match': first.etag })).statusCode,
    ).toBe(304);

    await newForm();
    const created = await current();
    expect(created.etag).not.toBe(first.etag);
    expect(created.names).toEqual(['EditEntityProfile']);

    expect((await update('staff', 'EditEntityProfile', ENTITY_PROFILE())).statusCode).toBe(200);
    const updated = await current();
    expect(updated.etag).not.toBe(created.etag);

    expect((await remove('staff', 'EditEntityProfile')).statusCode).toBe(204);
    const deleted = await current();
    expect(deleted.etag).not.toBe(updated.etag);
    expect(deleted.names).toEqual([]);
  });

  it.each(STATUSES.read)('answers %s with %i', async (caller, status) => {
    expect((await list(caller)).statusCode).toBe(status);
  });
});

describe('GET /svc/formauthoring/{name}/definition', () => {
  it('answers the definition with the definitions of its fields, in its order', async () => {
    await newForm();
    const response = await definition('staff', 'EditEntityProfile');
    expect(response.statusCode).toBe(200);
    const body = response.json() as FormDefinition;
    expect(body).toEqual({
      id: expect.any(Number),
      ...ENTITY_PROFILE(),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      field_definitions: [
        expect.objectContaining({ id: companyName, name: 'CompanyName', uiGroup: 'Company' }),
        expect.objectContaining({ id: legalForm, name: 'LegalForm', options: ['Limited company'] }),
        expect.objectContaining({ id: companyNumber, name: 'CompanyNumber' }),
      ],
    });
    const allFields = (await call('staff', 'GET', `${SERVICE}/allfields`)).json();
    expect(body.field_definitions[0]).toEqual(
      allFields.find((field: { id: number }) => field.id === companyName),
    );
  });

  it('finds the form whatever the letter case of the name', async () => {
    await newForm();
    for (const name of ['editentityprofile', 'EDITENTITYPROFILE']) {
      const response = await definition('admin', name);
      expect(response.statusCode).toBe(200);
      expect(response.json().name).toBe('EditEntityProfile');
    }
  });

  it('leaves the fields deleted since out of field_definitions (missing references)', async () => {
    await newForm();
    await call('staff', 'DELETE', `${SERVICE}/fields/${legalForm}`);
    const body = (await definition('staff', 'EditEntityProfile')).json() as FormDefinition;
    expect(body.fields).toEqual([companyName, legalForm, companyNumber]);
    expect(body.field_definitions.map((field) => field.id)).toEqual([companyName, companyNumber]);
    expect(missingFieldIds(body)).toEqual([legalForm]);
  });

  it('answers 404 with a JSON message for an unknown form', async () => {
    const response = await definition('staff', 'NoSuchForm');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ message: 'Form NoSuchForm not found.' });
  });

  it.each([
    ['starting with a digit', '1Form', FORM_NAME_MESSAGES.invalid],
    ['with a hyphen', 'my-form', FORM_NAME_MESSAGES.invalid],
    ['reserved', 'fields', FORM_NAME_MESSAGES.reserved],
  ])('answers 400 for a name %s', async (_case, name, message) => {
    expectFieldError(await definition('staff', name), 'name', message);
  });

  it('answers 400 naming the field for a name over 100 characters, 414 past the router limit', async () => {
    expectFieldError(
      await definition('staff', `A${'b'.repeat(100)}`),
      'name',
      FORM_NAME_MESSAGES.tooLong,
    );
    expect((await definition('staff', `A${'b'.repeat(99)}`)).statusCode).toBe(404);
    expect((await definition('staff', `A${'b'.repeat(1_000)}`)).statusCode).toBe(414);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i', async (caller, status) => {
    await newForm();
    expect((await definition(caller, 'EditEntityProfile')).statusCode).toBe(status);
  });
});

describe('POST /svc/formauthoring', () => {
  it('creates a form (201 with its name), stamped with the caller, and records FormCreated', async () => {
    const since = await lastEventId(db());
    const response = await create('staff', ENTITY_PROFILE());
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ name: 'EditEntityProfile' });
    const [row] = await storedForms();
    expect(row).toMatchObject({
      name: 'EditEntityProfile',
      description: 'The profile of an entity',
      field_ids: [companyName, legalForm, companyNumber],
      ui_group_order: ['Legal', 'Company'],
      col_span_override: 6,
      created_by: suite.emails.staff,
      updated_by: suite.emails.staff,
    });
    expect(await eventsAfter(db(), since)).toEqual([
      {
        id: expect.any(Number),
        eventName: 'FormCreated',
        tenantId: null,
        entityId: null,
        metadata: {
          actor: suite.emails.staff,
          action: 'create',
          formId: row?.id,
          name: 'EditEntityProfile',
          target: { type: 'Form', id: row?.id, name: 'EditEntityProfile' },
          after: {
            id: row?.id,
            ...ENTITY_PROFILE(),
            createdAt: row?.created_at.toISOString(),
            updatedAt: row?.updated_at.toISOString(),
          },
        },
      },
    ]);
  });

  it('needs only a name; keeps the field order given', async () => {
    expect((await create('admin', { name: ' Empty ' })).json()).toEqual({ name: 'Empty' });
    const [row] = await storedForms();
    expect(row).toMatchObject({
      name: 'Empty',
      description: '',
      field_ids: [],
      ui_group_order: [],
      col_span_override: 0,
    });
    await newForm({ name: 'Reversed', fields: [companyNumber, companyName] });
    expect((await definition('staff', 'Reversed')).json().fields).toEqual([
      companyNumber,
      companyName,
    ]);
  });

  it('stores the group order trimmed, without blanks or repeats', async () => {
    await newForm({ name: 'Groups', uiGroupOrder: [' Company ', '', 'Legal', 'Company'] });
    expect((await storedForms())[0]?.ui_group_order).toEqual(['Company', 'Legal']);
  });

  it('answers 409 when the name is taken in any letter case, and keeps the existing form', async () => {
    await newForm();
    for (const name of ['EditEntityProfile', 'editEntityProfile', ' EDITENTITYPROFILE ']) {
      const response = await create('admin', { name, fields: [] });
      expectRefusal(response, 409, `A form named ${name.trim()} already exists.`);
    }
    expect(await storedForms()).toMatchObject([
      { name: 'EditEntityProfile', created_by: suite.emails.staff },
    ]);
  });

  it('refuses a field id that names no field, naming its index', async () => {
    const unknown = legalForm + 1000;
    const response = await create('staff', { ...ENTITY_PROFILE(), fields: [companyName, unknown] });
    expectFieldError(response, 'fields.1', `Field ${unknown} does not exist.`);
    expect(await storedForms()).toEqual([]);
  });

  it('refuses a field selected twice, naming the repeat', async () => {
    const response = await create('staff', {
      ...ENTITY_PROFILE(),
      fields: [companyName, legalForm, companyName],
    });
    expectFieldError(response, 'fields.2', `Field ${companyName} is selected twice.`);
    expect(await storedForms()).toEqual([]);
  });

  it('names every unknown field id', async () => {
    const response = await create('staff', {
      name: 'Form',
      fields: [9_999_998, companyName, 9_999_999],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Field 9999998 does not exist.; Field 9999999 does not exist.',
      errors: [
        { path: 'fields.0', message: 'Field 9999998 does not exist.' },
        { path: 'fields.2', message: 'Field 9999999 does not exist.' },
      ],
    });
  });

  it.each([
    ['missing', undefined, FORM_NAME_MESSAGES.required],
    ['blank', '  ', FORM_NAME_MESSAGES.required],
    ['of 101 characters', `A${'b'.repeat(100)}`, FORM_NAME_MESSAGES.tooLong],
    ['starting with a digit', '1Form', FORM_NAME_MESSAGES.invalid],
    ['starting with an underscore', '_Form', FORM_NAME_MESSAGES.invalid],
    ['with a space', 'My form', FORM_NAME_MESSAGES.invalid],
    ['with a hyphen', 'used-tags', FORM_NAME_MESSAGES.invalid],
    ['list', 'List', FORM_NAME_MESSAGES.reserved],
    ['allfields', 'ALLFIELDS', FORM_NAME_MESSAGES.reserved],
    ['fields', 'fields', FORM_NAME_MESSAGES.reserved],
    ['an SQL look-alike', "a'); drop table forms; --", FORM_NAME_MESSAGES.invalid],
  ])('refuses a name %s with its message', async (_case, name, message) => {
    expectFieldError(await create('staff', { name, fields: [] }), 'name', message);
    expect(await storedForms()).toEqual([]);
  });

  it.each([
    ['an id (a clone drops it)', { id: 3 }, 'id', 'A new form has no id (a clone drops it)'],
    ['a field id 0', { fields: [0] }, 'fields.0', 'Each field must be a field id'],
    ['a field id as a string', { fields: ['1'] }, 'fields.0', 'Each field must be a field id'],
    [
      'a field id beyond the integer range',
      { fields: [2 ** 31] },
      'fields.0',
      'Each field must be a field id',
    ],
    ['fields as an object', { fields: { a: 1 } }, 'fields', 'fields must be a list of field ids'],
    [
      '501 fields',
      { fields: Array.from({ length: 501 }, (_, i) => i + 1) },
      'fields',
      'A form can have at most 500 fields',
    ],
    [
      'a column span of 13',
      { colSpanOverride: 13 },
      'colSpanOverride',
      'Column span override must be a number from 0 to 12',
    ],
    [
      'a column span of -1',
      { colSpanOverride: -1 },
      'colSpanOverride',
      'Column span override must be a number from 0 to 12',
    ],
    [
      'a fractional column span',
      { colSpanOverride: 1.5 },
      'colSpanOverride',
      'Column span override must be a number from 0 to 12',
    ],
    [
      'a column span as a string',
      { colSpanOverride: '6' },
      'colSpanOverride',
      'Column span override must be a number from 0 to 12',
    ],
    [
      'a description of 2001 characters',
      { description: 'x'.repeat(2001) },
      'description',
      'description must be 2000 characters or less',
    ],
    [
      'a NUL in the description',
      { description: 'a\u0000b' },
      'description',
      'description must not contain the NUL character',
    ],
    [
      'a lone surrogate in a group',
      { uiGroupOrder: ['a\ud800'] },
      'uiGroupOrder.0',
      'A UI group must not contain a lone surrogate',
    ],
    [
      'a group of 101 characters',
      { uiGroupOrder: ['x'.repeat(101)] },
      'uiGroupOrder.0',
      'A UI group must be 100 characters or less',
    ],
  ])('refuses %s with 400 naming the field', async (_case, changes, path, message) => {
    const body = { ...ENTITY_PROFILE(), ...changes };
    const response = await create('staff', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors).toEqual([{ path, message: expect.stringContaining(message) }]);
    expect(await storedForms()).toEqual([]);
  });

  it.each([
    ['malformed JSON', '{"name": "Form",'],
    ['a list', JSON.stringify([{ name: 'Form' }])],
    ['a number', '5'],
    ['null', 'null'],
  ])('refuses a body that is %s with 400', async (_case, body) => {
    const response = await call('staff', 'POST', SERVICE, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('message');
    expect(await storedForms()).toEqual([]);
  });

  it('stores HTML and SQL look-alikes verbatim, and the tables survive', async () => {
    await newForm({
      name: 'Hostile',
      description: `${HTML_INJECTION} ${SQL_INJECTION}`,
      uiGroupOrder: [HTML_INJECTION, SQL_INJECTION],
    });
    expect((await definition('staff', 'Hostile')).json()).toMatchObject({
      description: `${HTML_INJECTION} ${SQL_INJECTION}`,
      uiGroupOrder: [HTML_INJECTION, SQL_INJECTION],
    });
    expect(await countTables(db(), ['forms', 'form_fields'])).toBe(2);
  });

  it('writes nothing when its event cannot be recorded', async () => {
    const restore = await failRecordingOf(db(), 'FormCreated');
    try {
      expect((await create('staff', ENTITY_PROFILE())).statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await storedForms()).toEqual([]);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i', async (caller, status) => {
    expect((await create(caller, ENTITY_PROFILE())).statusCode).toBe(status);
    expect(await storedForms()).toEqual([]);
  });
});

describe('PUT /svc/formauthoring/{name}', () => {
  beforeEach(async () => {
    await newForm();
  });

  it('replaces the definition, keeps the name and creator, and records FormUpdated', async () => {
    const [before] = await storedForms();
    const since = await lastEventId(db());
    const changes = {
      name: 'EditEntityProfile',
      description: 'Changed',
      fields: [legalForm, companyName],
      uiGroupOrder: ['Company', 'Legal'],
      colSpanOverride: 0,
    };
    const response = await update('admin', 'EditEntityProfile', changes);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ name: 'EditEntityProfile' });
    const [after] = await storedForms();
    expect(after).toMatchObject({
      id: before?.id,
      name: 'EditEntityProfile',
      description: 'Changed',
      field_ids: [legalForm, companyName],
      ui_group_order: ['Company', 'Legal'],
      col_span_override: 0,
      created_by: suite.emails.staff,
      updated_by: suite.emails.admin,
    });
    expect(after?.created_at).toEqual(before?.created_at);
    const events = await eventsAfter(db(), since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      eventName: 'FormUpdated',
      metadata: {
        actor: suite.emails.admin,
        action: 'update',
        formId: before?.id,
        name: 'EditEntityProfile',
        changes: ['description', 'fields', 'uiGroupOrder', 'colSpanOverride'],
        before: { ...ENTITY_PROFILE(), id: before?.id },
        after: { ...changes, id: before?.id },
      },
    });
  });

  it('takes the name in any letter case and keeps the stored spelling', async () => {
    const response = await update('staff', 'editentityprofile', {
      ...ENTITY_PROFILE(),
      name: 'EDITENTITYPROFILE',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ name: 'EditEntityProfile' });
    expect((await storedForms()).map((row) => row.name)).toEqual(['EditEntityProfile']);
  });

  it('accepts the definition as the dialog sends it, with its id', async () => {
    const current = (await definition('staff', 'EditEntityProfile')).json() as FormDefinition;
    const { field_definitions: _fields, createdAt: _c, updatedAt: _u, ...body } = current;
    const response = await update('staff', 'EditEntityProfile', { ...body, description: 'New' });
    expect(response.statusCode).toBe(200);
  });

  it('refuses another name in the body (the name is locked)', async () => {
    const response = await update('staff', 'EditEntityProfile', {
      ...ENTITY_PROFILE(),
      name: 'EditTenantProfile',
    });
    expectRefusal(
      response,
      400,
      'The name cannot be changed: the body names EditTenantProfile, the URL EditEntityProfile',
    );
    expect((await storedForms())[0]?.description).toBe('The profile of an entity');
  });

  it("refuses an id in the body that is not the form's", async () => {
    const [row] = await storedForms();
    const response = await update('staff', 'EditEntityProfile', {
      ...ENTITY_PROFILE(),
      id: (row?.id ?? 0) + 1,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^The id cannot be changed/);
  });

  it('refuses a field id that names no field, even one the form held before its field was deleted', async () => {
    await call('staff', 'DELETE', `${SERVICE}/fields/${legalForm}`);
    const response = await update('staff', 'EditEntityProfile', ENTITY_PROFILE());
    expectFieldError(response, 'fields.1', `Field ${legalForm} does not exist.`);
    const without = { ...ENTITY_PROFILE(), fields: [companyName, companyNumber] };
    expect((await update('staff', 'EditEntityProfile', without)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown form', async () => {
    const response = await update('staff', 'EditTenantProfile', {
      ...ENTITY_PROFILE(),
      name: 'EditTenantProfile',
    });
    expectRefusal(response, 404, 'Form EditTenantProfile not found.');
  });

  it.each([
    ['1Form', FORM_NAME_MESSAGES.invalid],
    ['fields', FORM_NAME_MESSAGES.reserved],
    ['List', FORM_NAME_MESSAGES.reserved],
  ])('answers 400 for the URL name %j', async (name, message) => {
    const response = await update('staff', name, { ...ENTITY_PROFILE(), name });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path: 'name', message });
  });

  it.each([
    ['no body', undefined],
    ['no name', { fields: [] }],
    ['a column span of 13', { ...ENTITY_PROFILE(), colSpanOverride: 13 }],
  ])('refuses %s with 400 and changes nothing', async (_case, body) => {
    const before = await storedForms();
    expect((await update('staff', 'EditEntityProfile', body)).statusCode).toBe(400);
    expect(await storedForms()).toEqual(before);
  });

  it('changes nothing when its event cannot be recorded', async () => {
    const before = await storedForms();
    const restore = await failRecordingOf(db(), 'FormUpdated');
    try {
      const response = await update('staff', 'EditEntityProfile', {
        ...ENTITY_PROFILE(),
        description: 'Lost',
      });
      expect(response.statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await storedForms()).toEqual(before);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i', async (caller, status) => {
    const response = await update(caller, 'EditEntityProfile', {
      ...ENTITY_PROFILE(),
      description: 'Changed',
    });
    expect(response.statusCode).toBe(status);
    expect((await storedForms())[0]?.description).toBe('The profile of an entity');
  });
});

describe('DELETE /svc/formauthoring/{name}', () => {
  beforeEach(async () => {
    await newForm();
  });

  it.each(['staff', 'admin'] as const)(
    'lets %s delete a form (204), keeps its fields, and records FormDeleted',
    async (caller) => {
      const [row] = await storedForms();
      const since = await lastEventId(db());
      const response = await remove(caller, 'editEntityProfile');
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await storedForms()).toEqual([]);
      expect(await db().selectFrom('form_fields').select('id').execute()).toHaveLength(3);
      expect(await eventsAfter(db(), since)).toMatchObject([
        {
          eventName: 'FormDeleted',
          metadata: {
            actor: suite.emails[caller],
            action: 'delete',
            formId: row?.id,
            name: 'EditEntityProfile',
            before: { ...ENTITY_PROFILE(), id: row?.id },
          },
        },
      ]);
    },
  );

  it('answers 404 with a JSON message for an unknown form', async () => {
    const response = await remove('staff', 'EditTenantProfile');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(response.body)).toEqual({ message: 'Form EditTenantProfile not found.' });
    expect(await storedForms()).toHaveLength(1);
  });

  it.each([
    ['1Form', FORM_NAME_MESSAGES.invalid],
    ['list', FORM_NAME_MESSAGES.reserved],
    ['Edit\u0000Profile', FORM_NAME_MESSAGES.invalid],
  ])('answers 400 for the name %j', async (name, message) => {
    expectFieldError(await remove('staff', name), 'name', message);
    expect(await storedForms()).toHaveLength(1);
  });

  it('changes nothing when its event cannot be recorded', async () => {
    const restore = await failRecordingOf(db(), 'FormDeleted');
    try {
      expect((await remove('staff', 'EditEntityProfile')).statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await storedForms()).toHaveLength(1);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i', async (caller, status) => {
    expect((await remove(caller, 'EditEntityProfile')).statusCode).toBe(status);
    expect(await storedForms()).toHaveLength(1);
  });
});

describe('the paths of the forms service', () => {
  it('keeps the static paths beside {name}, in any letter case', async () => {
    await newForm({ name: 'ListOfFields', fields: [companyName] });
    const fields = await call('staff', 'GET', `${SERVICE}/AllFields`);
    expect(fields.statusCode).toBe(200);
    expect(fields.json()).toHaveLength(3);
    expect((await call('staff', 'GET', `${SERVICE}/Used-Tags`)).json()).toEqual([]);
    expect((await call('staff', 'GET', `${SERVICE}/used-api-service-names`)).json()).toEqual([]);
    expect((await list('staff', `${SERVICE}/LIST`)).json()).toMatchObject([
      { name: 'ListOfFields' },
    ]);
    // A field's calls are not a form's, and a form's calls cannot name the static paths.
    const fieldUpdate = await call('staff', 'PUT', `${SERVICE}/fields/${companyName}`, {
      name: 'CompanyName',
      displayName: 'Company name',
      type: 'Text',
    });
    expect(fieldUpdate.statusCode).toBe(200);
    expect(fieldUpdate.json()).toMatchObject({ id: companyName, displayName: 'Company name' });
    expectFieldError(await remove('staff', 'List'), 'name', FORM_NAME_MESSAGES.reserved);
    expectFieldError(await definition('staff', 'Fields'), 'name', FORM_NAME_MESSAGES.reserved);
    expectFieldError(
      await update('staff', 'fields', { name: 'fields' }),
      'name',
      FORM_NAME_MESSAGES.reserved,
    );
  });
});
