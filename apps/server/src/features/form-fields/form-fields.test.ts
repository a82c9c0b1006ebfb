import {
  FORM_FIELD_TYPES,
  STORAGE_NAME_ADMIN_ONLY_MESSAGE,
  STORAGE_NAME_MESSAGES,
  type FormField,
} from '@console/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { HTML_INJECTION, SQL_INJECTION, stamp } from '../../../test/callers.ts';
import { countTables, expectFieldError, expectRefusal } from '../../../test/expectations.ts';
import { eventsAfter, failRecordingOf, lastEventId } from '../../../test/recorded-events.ts';
import { STATUSES, useReferenceDataTestApp, type Caller } from '../../../test/reference-data.ts';

const suite = useReferenceDataTestApp();
const db = () => suite.testApp.database.db;
const call = suite.call;

beforeEach(async () => {
  await emptyFormsService();
});

/**
 * Deletes every form and field through the API: a write this instance answers renews its cached
 * lists at once, where one straight to the database reaches them a moment later (its notification).
 */
async function emptyFormsService() {
  for (const { name } of await db().selectFrom('forms').select('name').execute()) {
    expect((await call('admin', 'DELETE', `/svc/formauthoring/${name}`)).statusCode).toBe(204);
  }
  for (const { id } of await db().selectFrom('form_fields').select('id').execute()) {
    expect((await call('admin', 'DELETE', `/svc/formauthoring/fields/${id}`)).statusCode).toBe(204);
  }
}

const FIELDS = '/svc/formauthoring/fields';
const list = (caller: Caller, headers?: Record<string, string>) =>
  call(caller, 'GET', '/svc/formauthoring/allfields', undefined, headers);
const create = (caller: Caller, body: unknown) => call(caller, 'POST', FIELDS, body);
const update = (caller: Caller, id: number | string, body: unknown) =>
  call(caller, 'PUT', `${FIELDS}/${id}`, body);
const remove = (caller: Caller, id: number | string) => call(caller, 'DELETE', `${FIELDS}/${id}`);

/** A field with every property of the spec set. */
const COMPANY_NAME = {
  name: 'CompanyName',
  displayName: 'Company name',
  type: 'Text',
  section: 'Basic Information',
  order: 10,
  note: 'As shown on the certificate of incorporation.',
  required: true,
  validationErrorMessage: 'Please enter the registered company name.',
  maxLength: 200,
  pattern: null,
  printLabel: 'Company',
  requireFields: ['CompanyNumber'],
  options: [],
  aliasFor: null,
  print: true,
  printSequence: 1,
  viewPermissions: [],
  editPermissions: ['staff'],
  uiGroup: 'Company',
  apiReferences: { companieshouse: 'company_name' },
  tags: ['company', 'kyb'],
  conditionalRequirements: [
    { fieldName: 'EntityType', triggerValues: ['Limited company'], validationMessage: null },
  ],
};

const LEGAL_FORM = {
  name: 'LegalForm',
  displayName: 'Legal form',
  type: 'Select',
  options: ['Limited company', 'Partnership', 'Sole trader'],
  uiGroup: 'Company',
  order: 20,
};

/** What the API answers for a field created from `body` with only the given properties. */
const DEFAULTS = {
  section: null,
  order: null,
  note: null,
  required: false,
  validationErrorMessage: null,
  maxLength: null,
  pattern: null,
  printLabel: null,
  requireFields: [],
  options: [],
  aliasFor: null,
  print: false,
  printSequence: null,
  viewPermissions: [],
  editPermissions: [],
  uiGroup: 'General',
  apiReferences: {},
  tags: [],
  conditionalRequirements: [],
};

const STAMPS = {
  id: expect.any(Number),
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
};

async function newField(body: object, caller: Caller = 'staff'): Promise<FormField> {
  const response = await create(caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const storedFields = () => db().selectFrom('form_fields').selectAll().orderBy('id').execute();

/** A field written straight to the database (a name the API would refuse, say). */
async function insertField(name: string, type = 'Text') {
  const row = await db()
    .insertInto('form_fields')
    .values({ name, display_name: name, type, ui_group: 'General', ...stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('GET /svc/formauthoring/allfields', () => {
  it('answers an empty list when the catalogue is empty', async () => {
    const response = await list('staff');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('lists every field with every property of the spec, by id', async () => {
    const legalForm = await newField(LEGAL_FORM);
    const companyName = await newField(COMPANY_NAME);
    const response = await list('admin');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([legalForm, companyName]);
    expect(companyName).toEqual({ ...COMPANY_NAME, ...STAMPS });
    expect(legalForm).toEqual({ ...DEFAULTS, ...LEGAL_FORM, ...STAMPS });
  });

  it('answers 304 to the ETag it gave while nothing changed, and a new ETag after each write', async () => {
    const etagNow = async () => {
      const response = await list('staff');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-cache');
      return String(response.headers.etag);
    };
    const first = await etagNow();
    expect(first).toMatch(/^W\/"form-fields-\d+"$/);
    const again = await list('staff', { 'if-none-match': first });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const field = await newField(LEGAL_FORM);
    const afterCreate = await etagNow();
    expect(afterCreate).not.toBe(first);
    expect((await list('staff', { 'if-none-match': first })).json()).toEqual([field]);

    await update('staff', field.id, { ...LEGAL_FORM, displayName: 'Form of company' });
    const afterUpdate = await etagNow();
    expect(afterUpdate).not.toBe(afterCreate);
    expect((await list('staff')).json()[0].displayName).toBe('Form of company');

    await remove('staff', field.id);
    expect(await etagNow()).not.toBe(afterUpdate);
    expect((await list('staff')).json()).toEqual([]);
  });

  it('matches its path in any letter case, and under the /api fallback base', async () => {
    expect((await call('staff', 'GET', '/SVC/FormAuthoring/AllFields')).statusCode).toBe(200);
    expect((await call('staff', 'GET', '/api/svc/formauthoring/allfields')).statusCode).toBe(200);
  });

  it.each(STATUSES.read)('answers %s with %i', async (caller, status) => {
    expect((await list(caller)).statusCode).toBe(status);
  });
});

describe('GET /svc/formauthoring/used-tags and used-api-service-names', () => {
  const tags = (caller: Caller = 'staff', headers?: Record<string, string>) =>
    call(caller, 'GET', '/svc/formauthoring/used-tags', undefined, headers);
  const services = (caller: Caller = 'staff') =>
    call(caller, 'GET', '/svc/formauthoring/used-api-service-names');

  it('answer the distinct names the fields use, sorted, and none of the document types', async () => {
    await call('staff', 'POST', '/api/documenttypes', {
      id: 'passport',
      displayName: 'Passport',
      tags: ['travel'],
      apiReferences: { onfido: 'passport' },
    });
    await newField(COMPANY_NAME);
    await newField({
      ...LEGAL_FORM,
      tags: ['KYB', 'entity', 'a_tag'],
      apiReferences: { Jumio: 'LEGAL_FORM', companieshouse: 'company_type' },
    });
    expect((await tags()).json()).toEqual(['a_tag', 'company', 'entity', 'kyb']);
    expect((await services()).json()).toEqual(['companieshouse', 'Jumio']);
    await db().deleteFrom('document_types').execute();
  });

  it('answer empty lists for an empty catalogue', async () => {
    expect((await tags()).json()).toEqual([]);
    expect((await services()).json()).toEqual([]);
  });

  it('are cached: 304 while unchanged, the new tag after a write', async () => {
    const first = await tags();
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"form-fields-used-tags-\d+"$/);
    expect((await tags('staff', { 'if-none-match': etag })).statusCode).toBe(304);
    await newField({ ...LEGAL_FORM, tags: ['new-tag'] });
    const after = await tags('staff', { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual(['new-tag']);
  });

  it.each(STATUSES.read)('answer %s with %i', async (caller, status) => {
    expect((await tags(caller)).statusCode).toBe(status);
    expect((await services(caller)).statusCode).toBe(status);
  });
});

describe('POST /svc/formauthoring/fields', () => {
  it('creates a field (201) with every property, stamped with the caller, and records FormFieldCreated', async () => {
    const since = await lastEventId(db());
    const response = await create('staff', COMPANY_NAME);
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toEqual({ ...COMPANY_NAME, ...STAMPS });
    const [row] = await storedFields();
    expect(row).toMatchObject({
      id: created.id,
      name: 'CompanyName',
      display_name: 'Company name',
      field_order: 10,
      max_length: 200,
      require_fields: ['CompanyNumber'],
      edit_permissions: ['staff'],
      api_references: { companieshouse: 'company_name' },
      created_by: suite.emails.staff,
      updated_by: suite.emails.staff,
    });
    expect(await eventsAfter(db(), since)).toEqual([
      {
        id: expect.any(Number),
        eventName: 'FormFieldCreated',
        tenantId: null,
        entityId: null,
        metadata: {
          actor: suite.emails.staff,
          action: 'create',
          fieldId: created.id,
          name: 'CompanyName',
          target: { type: 'FormField', id: created.id, name: 'CompanyName' },
          after: created,
        },
      },
    ]);
  });

  it('needs only a storage name, a display name and a type', async () => {
    const response = await create('admin', { name: 'Email', displayName: 'Email', type: 'Email' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      ...DEFAULTS,
      name: 'Email',
      displayName: 'Email',
      type: 'Email',
      ...STAMPS,
    });
  });

  it('creates a field of every type', async () => {
    for (const type of FORM_FIELD_TYPES) {
      const response = await create('staff', {
        name: `A${type}`,
        displayName: type,
        type,
        ...(type === 'Select' ? { options: ['One'] } : {}),
      });
      expect(response.statusCode, type).toBe(201);
      expect(response.json().type).toBe(type);
    }
  });

  it('stores the storage name and texts trimmed, tags normalised, empty options and texts dropped', async () => {
    const response = await create('staff', {
      ...LEGAL_FORM,
      name: '  LegalForm ',
      displayName: ' Legal form ',
      note: '   ',
      section: '',
      uiGroup: '  ',
      options: [' Limited company ', '', 'Partnership  '],
      tags: [' KYB ', 'kyb', 'Entity', '  '],
      apiReferences: { ' companieshouse ': ' company_type ' },
      viewPermissions: ['staff', 'tenant', 'staff'],
      requireFields: ['CompanyName', 'CompanyName'],
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      name: 'LegalForm',
      displayName: 'Legal form',
      note: null,
      section: null,
      uiGroup: 'General',
      options: ['Limited company', 'Partnership'],
      tags: ['kyb', 'entity'],
      apiReferences: { companieshouse: 'company_type' },
      viewPermissions: ['staff', 'tenant'],
      requireFields: ['CompanyName'],
    });
  });

  it("stores a 'none' conditional requirement with '!' before every value, and an 'any' one as it is", async () => {
    const requirements = [
      {
        fieldName: 'Country',
        triggerValues: ['!GB', '!IE'],
        validationMessage: 'Required outside the UK and Ireland.',
      },
      { fieldName: 'IsPep', triggerValues: ['Yes'], validationMessage: null },
    ];
    const response = await create('staff', {
      ...COMPANY_NAME,
      conditionalRequirements: requirements,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().conditionalRequirements).toEqual(requirements);
    expect((await storedFields())[0]?.conditional_requirements).toEqual(requirements);
  });

  it('answers 409 when the storage name is taken in any letter case, and keeps the existing field', async () => {
    await newField(COMPANY_NAME);
    for (const name of ['CompanyName', 'companyname', ' COMPANYNAME ']) {
      const response = await create('admin', { ...LEGAL_FORM, name });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: `A field with storage name ${name.trim()} already exists.`,
      });
    }
    expect(await storedFields()).toMatchObject([{ name: 'CompanyName', type: 'Text' }]);
  });

  it.each([
    ['missing', undefined, STORAGE_NAME_MESSAGES.required],
    ['null', null, STORAGE_NAME_MESSAGES.required],
    ['empty', '', STORAGE_NAME_MESSAGES.required],
    ['blank', '   ', STORAGE_NAME_MESSAGES.required],
    ['51 characters', `A${'b'.repeat(50)}`, STORAGE_NAME_MESSAGES.tooLong],
    ['starting with a digit', '1Name', STORAGE_NAME_MESSAGES.mustStartWith],
    ['starting with a hyphen', '-Name', STORAGE_NAME_MESSAGES.mustStartWith],
    ['with a space inside', 'Company Name', STORAGE_NAME_MESSAGES.invalidCharacters],
    ['with a hyphen', 'Company-Name', STORAGE_NAME_MESSAGES.invalidCharacters],
    ['with a dot', 'Company.Name', STORAGE_NAME_MESSAGES.invalidCharacters],
    ['with a non-ASCII letter', 'Straße', STORAGE_NAME_MESSAGES.invalidCharacters],
    [
      'an SQL look-alike',
      "a'); drop table form_fields; --",
      STORAGE_NAME_MESSAGES.invalidCharacters,
    ],
    ...['__proto__', ' constructor ', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'].map(
      (name): [string, string, string] => [
        `a name JavaScript objects reserve (${name.trim()})`,
        name,
        `Storage name must not be ${name.trim()}: JavaScript objects reserve that name.`,
      ],
    ),
  ])('refuses a storage name %s with the spec message', async (_case, name, message) => {
    const response = await create('staff', { ...COMPANY_NAME, name });
    expectFieldError(response, 'name', message);
    expect(await storedFields()).toEqual([]);
  });

  it('accepts a storage name of exactly 50 characters starting with an underscore', async () => {
    const name = `_${'a1'.repeat(24)}b`;
    expect(name).toHaveLength(50);
    expect((await create('staff', { ...COMPANY_NAME, name })).statusCode).toBe(201);
  });

  it.each([
    [
      'an id (a clone drops it)',
      { ...LEGAL_FORM, id: 5 },
      'id',
      'A new field has no id (a clone drops it)',
    ],
    [
      'a Select without options',
      { ...LEGAL_FORM, options: [] },
      'options',
      'A Select field needs options.',
    ],
    [
      'a Select with blank options only',
      { ...LEGAL_FORM, options: [' ', ''] },
      'options',
      'A Select field needs options.',
    ],
    [
      'options on a Text field',
      { ...COMPANY_NAME, options: ['A'] },
      'options',
      'Only a Select field has options.',
    ],
    [
      'an option given twice',
      { ...LEGAL_FORM, options: ['A', ' A'] },
      'options',
      "Option 'A' is given twice.",
    ],
    [
      'an invalid pattern',
      { ...COMPANY_NAME, pattern: '[A-Z' },
      'pattern',
      'Pattern is not a valid regular expression.',
    ],
    [
      'a pattern invalid under the v flag',
      { ...COMPANY_NAME, pattern: '[a-z-]' },
      'pattern',
      'Pattern is not a valid regular expression.',
    ],
    [
      'a pattern with nested repetition (catastrophic backtracking)',
      { ...COMPANY_NAME, pattern: '([A-Z]+)+X' },
      'pattern',
      'Pattern repeats a repetition (such as (a+)+) and could take too long to check. Please simplify it.',
    ],
    [
      'the reserved group tenant',
      { ...COMPANY_NAME, uiGroup: 'Tenant' },
      'uiGroup',
      'UI group cannot be named tenant or entity',
    ],
    [
      'the reserved group entity',
      { ...COMPANY_NAME, uiGroup: ' ENTITY ' },
      'uiGroup',
      'UI group cannot be named tenant or entity',
    ],
    [
      'an alias of itself',
      { ...COMPANY_NAME, aliasFor: 'companyname' },
      'aliasFor',
      'A field cannot alias itself.',
    ],
    [
      'a requirement of itself',
      { ...COMPANY_NAME, requireFields: ['CompanyName'] },
      'requireFields',
      'A field cannot require itself.',
    ],
    ['an unknown type', { ...COMPANY_NAME, type: 'Radio' }, 'type', 'Type is required.'],
    ['no type', { ...COMPANY_NAME, type: undefined }, 'type', 'Type is required.'],
    [
      'a blank display name',
      { ...COMPANY_NAME, displayName: '  ' },
      'displayName',
      'Display name is required.',
    ],
    [
      'a display name of 201 characters',
      { ...COMPANY_NAME, displayName: 'x'.repeat(201) },
      'displayName',
      'Display name must be 200 characters or less',
    ],
    [
      'a note of 2001 characters',
      { ...COMPANY_NAME, note: 'x'.repeat(2001) },
      'note',
      'note must be 2000 characters or less',
    ],
    [
      'a NUL in the display name',
      { ...COMPANY_NAME, displayName: 'Company\u0000name' },
      'displayName',
      'Display name must not contain the NUL character',
    ],
    [
      'a lone surrogate in the note',
      { ...COMPANY_NAME, note: 'a\ud800b' },
      'note',
      'note must not contain a lone surrogate (half of a UTF-16 pair, not valid Unicode)',
    ],
    [
      'a lone surrogate in a tag',
      { ...COMPANY_NAME, tags: ['a\udc00'] },
      'tags.0',
      'A tag must not contain a lone surrogate (half of a UTF-16 pair, not valid Unicode)',
    ],
    [
      'required as a string',
      { ...COMPANY_NAME, required: 'yes' },
      'required',
      'required must be true or false',
    ],
    [
      'a maxLength of 0',
      { ...COMPANY_NAME, maxLength: 0 },
      'maxLength',
      'maxLength must be from 1 to 10000',
    ],
    [
      'a maxLength of 10001',
      { ...COMPANY_NAME, maxLength: 10_001 },
      'maxLength',
      'maxLength must be from 1 to 10000',
    ],
    [
      'a fractional order',
      { ...COMPANY_NAME, order: 1.5 },
      'order',
      'order must be a whole number',
    ],
    [
      'an order beyond the integer range',
      { ...COMPANY_NAME, order: 2 ** 31 },
      'order',
      'order is out of range',
    ],
    [
      'an unknown role',
      { ...COMPANY_NAME, editPermissions: ['owner'] },
      'editPermissions.0',
      'editPermissions may only name admin, staff or tenant',
    ],
    [
      'tags as a string',
      { ...COMPANY_NAME, tags: 'company' },
      'tags',
      'tags must be an array of strings',
    ],
    [
      '51 tags',
      { ...COMPANY_NAME, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      'tags',
      'A form field can have at most 50 tags',
    ],
    [
      'an empty API reference',
      { ...COMPANY_NAME, apiReferences: { onfido: ' ' } },
      'apiReferences.onfido',
      "The reference for 'onfido' must not be empty",
    ],
    [
      'a service name JavaScript objects reserve (once trimmed)',
      { ...COMPANY_NAME, apiReferences: { ' constructor ': 'x' } },
      'apiReferences. constructor ',
      'A service name must not be constructor: JavaScript objects reserve that name',
    ],
    [
      'an alias JavaScript objects reserve',
      { ...COMPANY_NAME, aliasFor: '__proto__' },
      'aliasFor',
      'Storage name must not be __proto__: JavaScript objects reserve that name.',
    ],
    [
      'a required field JavaScript objects reserve',
      { ...COMPANY_NAME, requireFields: ['toString'] },
      'requireFields.0',
      'Storage name must not be toString: JavaScript objects reserve that name.',
    ],
    [
      'a requirement on a field JavaScript objects reserve',
      {
        ...COMPANY_NAME,
        conditionalRequirements: [{ fieldName: 'constructor', triggerValues: ['x'] }],
      },
      'conditionalRequirements.0.fieldName',
      'Storage name must not be constructor: JavaScript objects reserve that name.',
    ],
    [
      "a requirement mixing '!' and plain values",
      {
        ...COMPANY_NAME,
        conditionalRequirements: [{ fieldName: 'Country', triggerValues: ['!GB', 'IE'] }],
      },
      'conditionalRequirements.0.triggerValues',
      "Either every trigger value starts with '!' (none of them) or none does",
    ],
    [
      'a requirement without trigger values',
      { ...COMPANY_NAME, conditionalRequirements: [{ fieldName: 'Country', triggerValues: [] }] },
      'conditionalRequirements.0.triggerValues',
      'A conditional requirement needs at least one trigger value',
    ],
    [
      'a requirement on itself',
      {
        ...COMPANY_NAME,
        conditionalRequirements: [{ fieldName: 'CompanyName', triggerValues: ['x'] }],
      },
      'conditionalRequirements.0.fieldName',
      'A field cannot depend on itself.',
    ],
    [
      'a requirement on an invalid storage name',
      { ...COMPANY_NAME, conditionalRequirements: [{ fieldName: '1x', triggerValues: ['x'] }] },
      'conditionalRequirements.0.fieldName',
      STORAGE_NAME_MESSAGES.mustStartWith,
    ],
  ])('refuses %s with 400 naming the field', async (_case, body, path, message) => {
    const response = await create('staff', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors).toEqual([{ path, message: expect.stringContaining(message) }]);
    expect(await storedFields()).toEqual([]);
  });

  it.each([
    ['malformed JSON', '{"name": "A",'],
    ['a list', JSON.stringify([COMPANY_NAME])],
    ['a string', '"CompanyName"'],
    ['null', 'null'],
  ])('refuses a body that is %s with 400', async (_case, body) => {
    const response = await call('staff', 'POST', FIELDS, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('message');
    expect(await storedFields()).toEqual([]);
  });

  it('stores SQL and HTML look-alikes verbatim, and the table survives', async () => {
    const response = await create('staff', {
      ...LEGAL_FORM,
      displayName: HTML_INJECTION,
      note: SQL_INJECTION,
      options: [HTML_INJECTION, SQL_INJECTION, '"><img src=x onerror=alert(1)>'],
      apiReferences: { [HTML_INJECTION]: SQL_INJECTION },
      tags: ['quote"d', 'back\\slash', '{x}', 'a,b'],
    });
    expect(response.statusCode).toBe(201);
    const [listed] = (await list('staff')).json();
    expect(listed).toMatchObject({
      displayName: HTML_INJECTION,
      note: SQL_INJECTION,
      options: [HTML_INJECTION, SQL_INJECTION, '"><img src=x onerror=alert(1)>'],
      apiReferences: { [HTML_INJECTION]: SQL_INJECTION },
      tags: ['quote"d', 'back\\slash', '{x}', 'a,b'],
    });
    expect(await countTables(db(), ['form_fields', 'forms'])).toBe(2);
  });

  it('writes nothing when its event cannot be recorded', async () => {
    const restore = await failRecordingOf(db(), 'FormFieldCreated');
    try {
      expect((await create('staff', COMPANY_NAME)).statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await storedFields()).toEqual([]);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i', async (caller, status) => {
    expect((await create(caller, COMPANY_NAME)).statusCode).toBe(status);
    expect(await storedFields()).toEqual([]);
  });
});

describe('PUT /svc/formauthoring/fields/{id}', () => {
  let field: FormField;
  beforeEach(async () => {
    field = await newField(COMPANY_NAME);
  });

  it('replaces every property, keeps the creator, and records FormFieldUpdated with the changes', async () => {
    const since = await lastEventId(db());
    const [before] = await storedFields();
    const changes = {
      ...COMPANY_NAME,
      displayName: 'Registered name',
      note: null,
      maxLength: 160,
      tags: ['Entity'],
      conditionalRequirements: [],
    };
    const response = await update('admin', field.id, changes);
    expect(response.statusCode).toBe(200);
    const updated = response.json();
    expect(updated).toEqual({ ...changes, tags: ['entity'], ...STAMPS, id: field.id });
    expect(updated.createdAt).toBe(field.createdAt);
    const [after] = await storedFields();
    expect(after).toMatchObject({
      created_by: suite.emails.staff,
      updated_by: suite.emails.admin,
    });
    expect(after?.updated_at.getTime()).toBeGreaterThanOrEqual(before?.updated_at.getTime() ?? 0);
    const events = await eventsAfter(db(), since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      eventName: 'FormFieldUpdated',
      metadata: {
        actor: suite.emails.admin,
        action: 'update',
        fieldId: field.id,
        name: 'CompanyName',
        changes: ['displayName', 'note', 'maxLength', 'tags', 'conditionalRequirements'],
        before: field,
        after: updated,
      },
    });
  });

  it('accepts the field as the dialog sends it, id included', async () => {
    const response = await update('staff', field.id, { ...field, displayName: 'Name' });
    expect(response.statusCode).toBe(200);
    expect(response.json().displayName).toBe('Name');
  });

  it('refuses an id in the body that is not the URL one', async () => {
    const other = await newField(LEGAL_FORM);
    const response = await update('staff', field.id, { ...COMPANY_NAME, id: other.id });
    expectRefusal(
      response,
      400,
      `The id cannot be changed: the body names ${other.id}, the URL ${field.id}`,
    );
  });

  it('lets an admin change a valid storage name', async () => {
    const response = await update('admin', field.id, { ...COMPANY_NAME, name: 'RegisteredName' });
    expect(response.statusCode).toBe(200);
    expect(response.json().name).toBe('RegisteredName');
  });

  it.each([
    ['another name', 'RegisteredName'],
    ['another letter case', 'companyName'],
  ])('refuses staff changing a valid storage name to %s (403)', async (_case, name) => {
    const since = await lastEventId(db());
    const response = await update('staff', field.id, { ...COMPANY_NAME, name });
    expectRefusal(response, 403, STORAGE_NAME_ADMIN_ONLY_MESSAGE);
    expect((await storedFields())[0]?.name).toBe('CompanyName');
    expect(await eventsAfter(db(), since)).toEqual([]);
  });

  it('lets staff keep the storage name (sent trimmed or not)', async () => {
    const response = await update('staff', field.id, { ...COMPANY_NAME, name: ' CompanyName ' });
    expect(response.statusCode).toBe(200);
  });

  it.each(['Company Name 2', 'constructor'])(
    'lets staff mend an invalid storage name (%s)',
    async (name) => {
      const id = await insertField(name);
      const response = await update('staff', id, { ...COMPANY_NAME, name: 'CompanyName2' });
      expect(response.statusCode).toBe(200);
      expect(response.json().name).toBe('CompanyName2');
    },
  );

  it('answers 409 when another field has the new name in any letter case', async () => {
    await newField(LEGAL_FORM);
    const response = await update('admin', field.id, { ...COMPANY_NAME, name: 'LEGALFORM' });
    expectRefusal(response, 409, 'A field with storage name LEGALFORM already exists.');
    expect((await storedFields()).map((row) => row.name)).toEqual(['CompanyName', 'LegalForm']);
  });

  it('answers 404 for an unknown field', async () => {
    const response = await update('admin', field.id + 1000, COMPANY_NAME);
    expectRefusal(response, 404, `Form field ${field.id + 1000} not found.`);
  });

  it.each(['0', '01', '+1', '1.0', '1e0', '0x1', 'abc', '2147483648'])(
    'refuses the id %j with 400',
    async (id) => {
      const response = await update('admin', id, COMPANY_NAME);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { path: 'id', message: 'id must be a whole number from 1 to 2147483647, in plain digits' },
      ]);
    },
  );

  it.each([
    ['no body', undefined],
    ['an empty object', {}],
    ['options on a Text field', { ...COMPANY_NAME, options: ['x'] }],
    ['an id as a string', { ...COMPANY_NAME, id: 'x' }],
  ])('refuses %s with 400 and changes nothing', async (_case, body) => {
    const before = await storedFields();
    const response = await update('admin', field.id, body);
    expect(response.statusCode).toBe(400);
    expect(await storedFields()).toEqual(before);
  });

  it('changes nothing when its event cannot be recorded', async () => {
    const before = await storedFields();
    const restore = await failRecordingOf(db(), 'FormFieldUpdated');
    try {
      const response = await update('admin', field.id, { ...COMPANY_NAME, displayName: 'X' });
      expect(response.statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await storedFields()).toEqual(before);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i', async (caller, status) => {
    const response = await update(caller, field.id, { ...COMPANY_NAME, displayName: 'X' });
    expect(response.statusCode).toBe(status);
    expect((await storedFields())[0]?.display_name).toBe('Company name');
  });
});

describe('DELETE /svc/formauthoring/fields/{id}', () => {
  let field: FormField;
  beforeEach(async () => {
    field = await newField(COMPANY_NAME);
  });

  it.each(['staff', 'admin'] as const)(
    'lets %s delete a field (204) and records FormFieldDeleted',
    async (caller) => {
      const since = await lastEventId(db());
      const response = await remove(caller, field.id);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await storedFields()).toEqual([]);
      expect(await eventsAfter(db(), since)).toMatchObject([
        {
          eventName: 'FormFieldDeleted',
          metadata: {
            actor: suite.emails[caller],
            action: 'delete',
            fieldId: field.id,
            name: 'CompanyName',
            before: field,
          },
        },
      ]);
    },
  );

  it('leaves the forms that list it with the dangling id (a missing reference)', async () => {
    const legalForm = await newField(LEGAL_FORM);
    const created = await call('staff', 'POST', '/svc/formauthoring', {
      name: 'EditEntityProfile',
      fields: [field.id, legalForm.id],
    });
    expect(created.statusCode).toBe(201);
    expect((await remove('staff', field.id)).statusCode).toBe(204);
    const definition = await call(
      'staff',
      'GET',
      '/svc/formauthoring/EditEntityProfile/definition',
    );
    expect(definition.json()).toMatchObject({
      fields: [field.id, legalForm.id],
      field_definitions: [legalForm],
    });
  });

  it('answers 404 for an unknown field', async () => {
    expectRefusal(
      await remove('staff', field.id + 1000),
      404,
      `Form field ${field.id + 1000} not found.`,
    );
    expect(await storedFields()).toHaveLength(1);
  });

  it.each(['0', '01', '1.5', '-1', 'CompanyName'])('refuses the id %j with 400', async (id) => {
    expect((await remove('admin', id)).statusCode).toBe(400);
    expect(await storedFields()).toHaveLength(1);
  });

  it('refuses a body with text that cannot be stored, and keeps the field', async () => {
    const response = await call('admin', 'DELETE', `${FIELDS}/${field.id}`, { note: 'a\u0000b' });
    expect(response.statusCode).toBe(400);
    expect(await storedFields()).toHaveLength(1);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i', async (caller, status) => {
    expect((await remove(caller, field.id)).statusCode).toBe(status);
    expect(await storedFields()).toHaveLength(1);
  });
});
