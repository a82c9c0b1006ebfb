import { beforeEach, describe, expect, it } from 'vitest';
import { HTML_INJECTION, SQL_INJECTION, stamp } from '../../../test/callers.ts';
import { countTables, expectFieldError, expectRefusal } from '../../../test/expectations.ts';
import {
  LIST_KEYS,
  STATUSES,
  useReferenceDataTestApp,
  type Caller,
} from '../../../test/reference-data.ts';

const suite = useReferenceDataTestApp();
const db = () => suite.testApp.database.db;

beforeEach(async () => {
  await db().deleteFrom('document_types').execute();
  await db().deleteFrom('forms').execute();
});

const call = suite.call;

const create = (caller: Caller, body: unknown) => call(caller, 'POST', '/api/documenttypes', body);
const update = (caller: Caller, id: string, body: unknown) =>
  call(caller, 'PUT', `/api/documenttypes/${encodeURIComponent(id)}`, body);
const remove = (caller: Caller, id: string) =>
  call(caller, 'DELETE', `/api/documenttypes/${encodeURIComponent(id)}`);
const importFile = (caller: Caller, body: unknown) =>
  call(caller, 'POST', '/api/documenttypes/import', body);

async function storedDocumentTypes() {
  return db().selectFrom('document_types').selectAll().orderBy('id').execute();
}

async function insertForm(name: string) {
  await db()
    .insertInto('forms')
    .values({ name, ...stamp })
    .execute();
}

const PASSPORT = {
  id: 'passport',
  displayName: 'Passport',
  tags: ['identity', 'travel'],
  apiReferences: { onfido: 'passport', veriff: 'PASSPORT' },
  sequence: 10,
  validFrom: null,
  validTo: null,
  validityPeriod: { years: 10 },
};
const DRIVING_LICENCE = {
  id: 'driving_licence',
  displayName: 'Driving licence',
  tags: ['identity', 'driving'],
  apiReferences: { onfido: 'driving_licence' },
};

const ID_MESSAGES = {
  required: 'ID is required',
  tooLong: 'ID must be 50 characters or less',
  start: 'ID must start with a lowercase letter',
  characters: 'ID can only contain lowercase letters, numbers, and underscores',
};

describe('GET /api/documenttypes', () => {
  it('lists every document type with the spec fields, by sequence then id', async () => {
    await create('staff', { ...DRIVING_LICENCE, sequence: null });
    await create('staff', PASSPORT);
    await create('staff', { id: 'a_card', displayName: 'A card' });

    const response = await call('staff', 'GET', '/api/documenttypes');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { ...PASSPORT },
      {
        id: 'a_card',
        displayName: 'A card',
        tags: [],
        apiReferences: {},
        sequence: null,
        validFrom: null,
        validTo: null,
        validityPeriod: null,
      },
      {
        ...DRIVING_LICENCE,
        sequence: null,
        validFrom: null,
        validTo: null,
        validityPeriod: null,
      },
    ]);
  });

  it.each(STATUSES.readByTenantsToo)('answers %s with %i', async (caller, status) => {
    const response = await call(caller, 'GET', '/api/documenttypes');
    expect(response.statusCode).toBe(status);
    if (status === 200) expect(response.json()).toEqual([]);
  });

  it('answers a tenant user the choices of its profile forms only (id, displayName), staff the records', async () => {
    await create('staff', PASSPORT);
    await create('staff', DRIVING_LICENCE);
    const choices = await call('tenant', 'GET', '/api/documenttypes');
    expect(choices.statusCode).toBe(200);
    expect(choices.json()).toEqual([
      { id: 'passport', displayName: 'Passport' },
      { id: 'driving_licence', displayName: 'Driving licence' },
    ]);
    for (const choice of choices.json())
      expect(Object.keys(choice).sort()).toEqual(LIST_KEYS.documentTypeChoice);
    // Neither the vendors' API references nor the tags reach a tenant user in any form.
    expect(choices.body).not.toMatch(/onfido|veriff|identity|travel/i);
    for (const caller of ['staff', 'admin'] as const) {
      const records = await call(caller, 'GET', '/api/documenttypes');
      expect(records.json(), caller).toEqual([
        PASSPORT,
        {
          ...DRIVING_LICENCE,
          sequence: null,
          validFrom: null,
          validTo: null,
          validityPeriod: null,
        },
      ]);
    }
  });

  it('answers the records to a person who is both staff and a tenant user', async () => {
    await create('staff', PASSPORT);
    const token = await suite.testApp.tokenFor(suite.emails.staff, {
      roles: ['staff', 'tenant'],
      tenantId: 1,
    });
    const response = await call('anonymous', 'GET', '/api/documenttypes', undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(response.json()).toEqual([PASSPORT]);
  });

  it('matches its path case-insensitively', async () => {
    expect((await call('staff', 'GET', '/API/DocumentTypes')).statusCode).toBe(200);
  });
});

describe('GET /api/documenttypes/used-tags and used-api-service-names', () => {
  it('answer the distinct names in use, sorted', async () => {
    await create('staff', PASSPORT);
    await create('staff', DRIVING_LICENCE);
    await create('staff', {
      id: 'visa',
      displayName: 'Visa',
      tags: ['Travel', 'immigration', 'a_tag'],
      apiReferences: { Jumio: 'VISA', onfido: 'visa', [SQL_INJECTION]: 'x' },
    });
    const tags = await call('staff', 'GET', '/api/documenttypes/used-tags');
    expect(tags.statusCode).toBe(200);
    expect(tags.json()).toEqual(['a_tag', 'driving', 'identity', 'immigration', 'travel']);

    const services = await call('admin', 'GET', '/api/documenttypes/used-api-service-names');
    expect(services.statusCode).toBe(200);
    expect(services.json()).toEqual([SQL_INJECTION, 'Jumio', 'onfido', 'veriff']);
  });

  it('answer empty lists when there are no document types', async () => {
    expect((await call('staff', 'GET', '/api/documenttypes/used-tags')).json()).toEqual([]);
    expect(
      (await call('staff', 'GET', '/api/documenttypes/used-api-service-names')).json(),
    ).toEqual([]);
  });

  it.each(STATUSES.notStaff)('refuse %s with %i', async (caller, status) => {
    expect((await call(caller, 'GET', '/api/documenttypes/used-tags')).statusCode).toBe(status);
    expect(
      (await call(caller, 'GET', '/api/documenttypes/used-api-service-names')).statusCode,
    ).toBe(status);
  });
});

describe('POST /api/documenttypes', () => {
  it('creates a document type (201), stamped with the caller', async () => {
    const before = Date.now();
    const response = await create('staff', PASSPORT);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual(PASSPORT);
    const [row] = await storedDocumentTypes();
    expect(row).toMatchObject({
      id: 'passport',
      display_name: 'Passport',
      tags: ['identity', 'travel'],
      api_references: PASSPORT.apiReferences,
      sequence: 10,
      validity_period: { years: 10 },
      created_by: suite.emails.staff,
      updated_by: suite.emails.staff,
    });
    expect(row?.created_at.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(row?.updated_at.getTime()).toBeGreaterThanOrEqual(before - 5_000);
  });

  it('needs only an ID and a display name', async () => {
    const response = await create('admin', { id: 'visa', displayName: 'Visa' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: 'visa',
      displayName: 'Visa',
      tags: [],
      apiReferences: {},
      sequence: null,
      validFrom: null,
      validTo: null,
      validityPeriod: null,
    });
  });

  it('stores tags trimmed, lower-cased and deduplicated', async () => {
    const response = await create('staff', {
      ...PASSPORT,
      tags: [' Identity ', 'identity', 'TRAVEL', '  ', 'travel ', 'Photo'],
    });
    expect(response.json().tags).toEqual(['identity', 'travel', 'photo']);
    expect((await storedDocumentTypes())[0]?.tags).toEqual(['identity', 'travel', 'photo']);
  });

  it('stores API references trimmed', async () => {
    const response = await create('staff', {
      ...PASSPORT,
      apiReferences: { ' onfido ': ' passport ' },
    });
    expect(response.json().apiReferences).toEqual({ onfido: 'passport' });
  });

  it.each([
    ['all three parts null', { years: null, months: null, days: null }, null],
    ['no part', {}, null],
    ['null', null, null],
    ['zeros', { years: 0, months: 0, days: 0 }, { years: 0, months: 0, days: 0 }],
    [
      'the upper bounds',
      { years: 100, months: 11, days: 30 },
      { years: 100, months: 11, days: 30 },
    ],
    ['only months', { years: null, months: 6 }, { months: 6 }],
  ])('stores a validity period of %s', async (_case, validityPeriod, expected) => {
    const response = await create('staff', { ...PASSPORT, validityPeriod });
    expect(response.statusCode).toBe(201);
    expect(response.json().validityPeriod).toEqual(expected);
    expect((await storedDocumentTypes())[0]?.validity_period).toEqual(expected);
  });

  it.each([
    ['negative years', { years: -1 }, 'validityPeriod.years'],
    ['fractional years', { years: 1.5 }, 'validityPeriod.years'],
    ['12 months', { months: 12 }, 'validityPeriod.months'],
    ['negative months', { months: -1 }, 'validityPeriod.months'],
    ['31 days', { days: 31 }, 'validityPeriod.days'],
    ['negative days', { days: -1 }, 'validityPeriod.days'],
    ['days as a string', { days: '3' }, 'validityPeriod.days'],
    ['a string', 'ten years', 'validityPeriod'],
  ])('refuses a validity period with %s', async (_case, validityPeriod, path) => {
    const response = await create('staff', { ...PASSPORT, validityPeriod });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.errors).toEqual([{ path, message: expect.any(String) }]);
    expect(body.message).toMatch(new RegExp(`^${path.replace('.', '\\.')}: `));
    expect(await storedDocumentTypes()).toEqual([]);
  });

  it.each([
    ['missing', undefined, ID_MESSAGES.required],
    ['empty', '', ID_MESSAGES.required],
    ['null', null, ID_MESSAGES.required],
    ['51 characters', 'a'.repeat(51), ID_MESSAGES.tooLong],
    ['starting with a digit', '1passport', ID_MESSAGES.start],
    ['starting with an underscore', '_passport', ID_MESSAGES.start],
    ['starting with a capital', 'Passport', ID_MESSAGES.start],
    ['with a hyphen', 'driving-licence', ID_MESSAGES.characters],
    ['with a capital inside', 'drivingLicence', ID_MESSAGES.characters],
    ['with a space', 'driving licence', ID_MESSAGES.characters],
    ['an SQL look-alike', "a'); drop table document_types; --", ID_MESSAGES.characters],
  ])('refuses an ID %s with the spec message', async (_case, id, message) => {
    const response = await create('staff', { ...PASSPORT, id });
    expectFieldError(response, 'id', message);
    expect(await storedDocumentTypes()).toEqual([]);
  });

  it('accepts an ID of exactly 50 characters', async () => {
    const response = await create('staff', { ...PASSPORT, id: `a${'_0'.repeat(24)}b` });
    expect(response.statusCode).toBe(201);
  });

  it.each([
    ['a missing display name', { id: 'visa' }, 'displayName: Required'],
    ['an empty display name', { id: 'visa', displayName: '' }, 'displayName is required'],
    ['a blank display name', { id: 'visa', displayName: '   ' }, 'displayName is required'],
    [
      'a display name that is a number',
      { id: 'visa', displayName: 5 },
      'displayName must be a string',
    ],
    [
      'tags that are a string',
      { ...PASSPORT, tags: 'identity' },
      'tags must be an array of strings',
    ],
    [
      'a tag that is a number',
      { ...PASSPORT, tags: ['identity', 7] },
      'tags.1: Each tag must be a string',
    ],
    [
      'API references that are a list',
      { ...PASSPORT, apiReferences: ['onfido'] },
      'apiReferences must be an object of service name to reference value',
    ],
    [
      'an API reference that is a number',
      { ...PASSPORT, apiReferences: { onfido: 5 } },
      'apiReferences.onfido: Each API reference value must be a string',
    ],
    [
      'an empty service name',
      { ...PASSPORT, apiReferences: { ' ': 'x' } },
      'A service name must not be empty',
    ],
    [
      'an empty reference',
      { ...PASSPORT, apiReferences: { onfido: ' ' } },
      "The reference for 'onfido' must not be empty",
    ],
    [
      'a service name JavaScript objects reserve',
      { ...PASSPORT, apiReferences: { onfido: 'x', toString: 'y' } },
      'A key of apiReferences must not be toString: JavaScript objects reserve that name',
    ],
    [
      'a service name JavaScript objects reserve, once trimmed',
      { ...PASSPORT, apiReferences: { ' __proto__ ': 'y' } },
      'A service name must not be __proto__: JavaScript objects reserve that name',
    ],
    ['a fractional sequence', { ...PASSPORT, sequence: 1.5 }, 'sequence must be a whole number'],
    ['a sequence as a string', { ...PASSPORT, sequence: '1' }, 'sequence must be a whole number'],
    [
      'a sequence beyond the integer range',
      { ...PASSPORT, sequence: 2 ** 31 },
      'sequence is out of range',
    ],
    [
      'an invalid date',
      { ...PASSPORT, validFrom: '2024-02-30' },
      'validFrom: Must be an ISO 8601 date, or date-time with Z or an offset',
    ],
    [
      'dates in the wrong order',
      { ...PASSPORT, validFrom: '2025-01-01', validTo: '2024-01-01' },
      'validTo must not be before validFrom',
    ],
    [
      'a NUL character',
      { ...PASSPORT, displayName: 'Pass\u0000port' },
      'displayName must not contain the NUL character',
    ],
    ['a body that is a list', [PASSPORT], 'Expected a document type object'],
  ])('refuses %s with 400, naming the problem', async (_case, body, message) => {
    const response = await create('staff', body);
    expectRefusal(response, 400, message);
    expect(await storedDocumentTypes()).toEqual([]);
  });

  it('refuses malformed JSON with 400', async () => {
    const response = await call('staff', 'POST', '/api/documenttypes', '{"id": "visa",', {
      'content-type': 'application/json',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/JSON/);
  });

  it('stores validity dates given as dates or date-times, in UTC', async () => {
    const response = await create('staff', {
      ...PASSPORT,
      validFrom: '2024-01-01',
      validTo: '2034-01-01T12:00:00+02:00',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      validFrom: '2024-01-01T00:00:00.000Z',
      validTo: '2034-01-01T10:00:00.000Z',
    });
  });

  it('answers 409 when the ID is taken, and keeps the existing one', async () => {
    await create('staff', PASSPORT);
    const response = await create('admin', { ...PASSPORT, displayName: 'Other' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: 'A document type with ID passport already exists.',
    });
    expect(await storedDocumentTypes()).toMatchObject([
      { display_name: 'Passport', created_by: suite.emails.staff },
    ]);
  });

  it('stores SQL and HTML look-alikes verbatim, and the table survives', async () => {
    const response = await create('staff', {
      id: 'visa',
      displayName: SQL_INJECTION,
      tags: [HTML_INJECTION, SQL_INJECTION, 'a,b', '{x}', 'quote"d', 'back\\slash'],
      apiReferences: { [HTML_INJECTION]: SQL_INJECTION, "o'neil": '"; delete from countries;' },
    });
    expect(response.statusCode).toBe(201);
    const [listed] = (await call('staff', 'GET', '/api/documenttypes')).json();
    expect(listed).toMatchObject({
      displayName: SQL_INJECTION,
      tags: [HTML_INJECTION.toLowerCase(), SQL_INJECTION, 'a,b', '{x}', 'quote"d', 'back\\slash'],
      apiReferences: { [HTML_INJECTION]: SQL_INJECTION, "o'neil": '"; delete from countries;' },
    });
    expect(await countTables(db(), ['document_types', 'countries'])).toBe(2);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i', async (caller, status) => {
    const response = await create(caller, PASSPORT);
    expect(response.statusCode).toBe(status);
    expect(await storedDocumentTypes()).toEqual([]);
  });
});

describe('PUT /api/documenttypes/{id}', () => {
  beforeEach(async () => {
    await create('staff', PASSPORT);
  });

  it('replaces every field but the ID, stamped with the caller', async () => {
    const [before] = await storedDocumentTypes();
    const changes = {
      displayName: 'Passport (ICAO)',
      tags: ['Travel', 'MRZ'],
      apiReferences: { jumio: 'PASSPORT' },
      sequence: null,
      validFrom: '2024-01-01T00:00:00.000Z',
      validTo: null,
      validityPeriod: { years: 5, months: 6 },
    };
    const response = await update('admin', 'passport', changes);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 'passport', ...changes, tags: ['travel', 'mrz'] });
    const [after] = await storedDocumentTypes();
    expect(after).toMatchObject({
      created_by: suite.emails.staff,
      updated_by: suite.emails.admin,
    });
    expect(after?.created_at).toEqual(before?.created_at);
    expect(after?.updated_at.getTime()).toBeGreaterThanOrEqual(before?.updated_at.getTime() ?? 0);
  });

  it('accepts the body of the dialog, with the same ID', async () => {
    const response = await update('staff', 'passport', { ...PASSPORT, displayName: 'Pass' });
    expect(response.statusCode).toBe(200);
    expect(response.json().displayName).toBe('Pass');
  });

  it('clears the validity period when every part is empty', async () => {
    const response = await update('staff', 'passport', {
      ...PASSPORT,
      validityPeriod: { years: null, months: null, days: null },
    });
    expect(response.json().validityPeriod).toBeNull();
    expect((await storedDocumentTypes())[0]?.validity_period).toBeNull();
  });

  it('refuses to change the ID', async () => {
    const response = await update('staff', 'passport', { ...PASSPORT, id: 'visa' });
    expectRefusal(response, 400, 'The ID cannot be changed: the body names visa, the URL passport');
  });

  it('answers 404 for an unknown document type', async () => {
    const response = await update('staff', 'visa', { displayName: 'Visa' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Document type visa not found.' });
    expect(await storedDocumentTypes()).toHaveLength(1);
  });

  it.each([
    ['an empty display name', { displayName: '' }],
    ['13 months', { displayName: 'P', validityPeriod: { months: 13 } }],
    ['no body', undefined],
  ])('refuses %s with 400 and changes nothing', async (_case, body) => {
    const [before] = await storedDocumentTypes();
    const response = await update('staff', 'passport', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('message');
    expect(await storedDocumentTypes()).toEqual([before]);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i', async (caller, status) => {
    const response = await update(caller, 'passport', { displayName: 'Changed' });
    expect(response.statusCode).toBe(status);
    expect((await storedDocumentTypes())[0]?.display_name).toBe('Passport');
  });
});

describe('DELETE /api/documenttypes/{id}', () => {
  beforeEach(async () => {
    await create('staff', PASSPORT);
    await create('staff', DRIVING_LICENCE);
  });

  it('lets an admin delete a document type (204, then gone)', async () => {
    const response = await remove('admin', 'passport');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await storedDocumentTypes()).map((row) => row.id)).toEqual(['driving_licence']);
  });

  it.each(STATUSES.notAdmin)('refuses %s with %i and keeps it', async (caller, status) => {
    const response = await remove(caller, 'passport');
    expect(response.statusCode).toBe(status);
    expect(await storedDocumentTypes()).toHaveLength(2);
  });

  it('answers 404 for an unknown ID', async () => {
    const response = await remove('admin', 'visa');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Document type visa not found.' });
    expect(await storedDocumentTypes()).toHaveLength(2);
  });

  it.each([
    ['Passport', ID_MESSAGES.start],
    ["passport'; drop table document_types; --", ID_MESSAGES.characters],
    ['pass\u0000port', ID_MESSAGES.characters],
  ])('answers 400 for the ID %j, which no document type can have', async (id, message) => {
    const response = await remove('admin', id);
    expectRefusal(response, 400, message);
    expect(await storedDocumentTypes()).toHaveLength(2);
  });

  it('answers 409 while the expected form of the document type exists', async () => {
    await insertForm('EditIndividualId_drivinglicence');
    await insertForm('EditIndividualId_passport_other');
    const response = await remove('admin', 'driving_licence');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message:
        'Cannot delete document type driving_licence because it is currently being used. Please remove references first.',
      references: [{ kind: 'form', name: 'EditIndividualId_drivinglicence' }],
    });
    expect(await storedDocumentTypes()).toHaveLength(2);

    // Forms of other names do not count.
    expect((await remove('admin', 'passport')).statusCode).toBe(204);
    await db().deleteFrom('forms').execute();
    expect((await remove('admin', 'driving_licence')).statusCode).toBe(204);
  });

  it('counts the expected form whatever the letter case of its name (form names ignore case)', async () => {
    await insertForm('editindividualid_DRIVINGLICENCE');
    const response = await remove('admin', 'driving_licence');
    expect(response.statusCode).toBe(409);
    expect(response.json().references).toEqual([
      { kind: 'form', name: 'editindividualid_DRIVINGLICENCE' },
    ]);
  });
});

describe('POST /api/documenttypes/import', () => {
  it('adds the records, stamped with the caller, and answers how many were written', async () => {
    const response = await importFile('staff', [PASSPORT, DRIVING_LICENCE]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ count: 2 });
    expect(await storedDocumentTypes()).toMatchObject([
      {
        id: 'driving_licence',
        tags: ['identity', 'driving'],
        created_by: suite.emails.staff,
        updated_by: suite.emails.staff,
      },
      {
        id: 'passport',
        validity_period: { years: 10 },
        created_by: suite.emails.staff,
        updated_by: suite.emails.staff,
      },
    ]);
  });

  it('stores every field of a record as creating it one at a time does', async () => {
    const fullRecord = {
      ...PASSPORT,
      tags: ['identity', 'travel', 'with "quotes", commas'],
      apiReferences: { onfido: 'passport', 'vendor {x}': 'a\\b "c"' },
      validFrom: '2024-01-01T00:00:00.000Z',
      validTo: '2030-12-31T12:30:00.000Z',
      validityPeriod: { years: 10, months: 6, days: 1 },
    };
    await create('staff', fullRecord);
    const created = await storedDocumentTypes();
    await db().deleteFrom('document_types').execute();
    await importFile('staff', [fullRecord]);
    const omitStamps = ({
      created_at: _created,
      updated_at: _updated,
      ...row
    }: Record<string, unknown>) => row;
    expect((await storedDocumentTypes()).map(omitStamps)).toEqual(created.map(omitStamps));
    expect(created[0]).toMatchObject({ valid_to: new Date('2030-12-31T12:30:00.000Z') });
  });

  it('is idempotent: a second import of the same file writes nothing', async () => {
    await importFile('staff', [PASSPORT, DRIVING_LICENCE]);
    const first = await storedDocumentTypes();
    const again = await importFile('admin', [PASSPORT, DRIVING_LICENCE]);
    expect(again.json()).toEqual({ count: 0 });
    expect(await storedDocumentTypes()).toEqual(first);
  });

  it('counts records equal after normalisation as unchanged', async () => {
    await importFile('staff', [PASSPORT]);
    const again = await importFile('staff', [
      {
        ...PASSPORT,
        tags: [' IDENTITY', 'travel', 'Travel'],
        apiReferences: { veriff: 'PASSPORT', onfido: 'passport' },
        validityPeriod: { years: 10, months: null },
      },
    ]);
    expect(again.json()).toEqual({ count: 0 });
  });

  it('replaces the fields of changed records only, and keeps their creator', async () => {
    await importFile('staff', [PASSPORT, DRIVING_LICENCE]);
    const response = await importFile('admin', [
      { ...PASSPORT, tags: ['identity'] },
      DRIVING_LICENCE,
      { id: 'visa', displayName: 'Visa', tags: [], apiReferences: {} },
    ]);
    expect(response.json()).toEqual({ count: 2 });
    const rows = await storedDocumentTypes();
    expect(rows).toMatchObject([
      { id: 'driving_licence', updated_by: suite.emails.staff },
      {
        id: 'passport',
        tags: ['identity'],
        created_by: suite.emails.staff,
        updated_by: suite.emails.admin,
      },
      { id: 'visa', created_by: suite.emails.admin },
    ]);
  });

  it('imports more records than one statement holds', async () => {
    const records = Array.from({ length: 2_500 }, (_, index) => ({
      id: `type_${index}`,
      displayName: `Type ${index}`,
      tags: ['bulk'],
      apiReferences: { vendor: `T${index}` },
      sequence: index,
    }));
    expect((await importFile('staff', records)).json()).toEqual({ count: 2_500 });
    expect((await importFile('staff', records)).json()).toEqual({ count: 0 });
  });

  it.each([
    [
      'an invalid ID',
      { ...DRIVING_LICENCE, id: 'Driving' },
      `Record at index 1: ${ID_MESSAGES.start}`,
    ],
    [
      'a missing ID',
      { ...DRIVING_LICENCE, id: undefined },
      `Record at index 1: ${ID_MESSAGES.required}`,
    ],
    ['missing tags', { ...DRIVING_LICENCE, tags: undefined }, 'Record at index 1: tags: Required'],
    [
      'tags that are not an array',
      { ...DRIVING_LICENCE, tags: 'identity' },
      'Record at index 1: tags must be an array of strings',
    ],
    [
      'missing API references',
      { ...DRIVING_LICENCE, apiReferences: undefined },
      'Record at index 1: apiReferences: Required',
    ],
    [
      'API references that are not an object',
      { ...DRIVING_LICENCE, apiReferences: 'x' },
      'Record at index 1: apiReferences must be an object of service name to reference value',
    ],
    [
      'a missing display name',
      { ...DRIVING_LICENCE, displayName: undefined },
      'Record at index 1: displayName: Required',
    ],
    [
      '13 months',
      { ...DRIVING_LICENCE, validityPeriod: { months: 13 } },
      'Record at index 1: validityPeriod.months: Too big: expected number to be <=11',
    ],
    [
      'a record that is not an object',
      'passport',
      'Record at index 1: Each record must be an object with id, displayName, tags and apiReferences',
    ],
    [
      'a repeated ID',
      { ...DRIVING_LICENCE, id: 'passport' },
      'Record at index 1: Duplicate id passport (already at index 0)',
    ],
  ])('writes nothing of a file with %s, and names the record', async (_case, bad, message) => {
    const response = await importFile('staff', [
      PASSPORT,
      bad,
      { id: 'visa', displayName: 'Visa', tags: [], apiReferences: {} },
    ]);
    expectRefusal(response, 400, message);
    expect(await storedDocumentTypes()).toEqual([]);
  });

  it.each([
    ['an object', JSON.stringify({ documentTypes: [PASSPORT] })],
    ['a string', '"passport"'],
    ['null', 'null'],
  ])('refuses a body that is %s', async (_case, body) => {
    const response = await call('staff', 'POST', '/api/documenttypes/import', body, {
      'content-type': 'application/json',
    });
    expectRefusal(response, 400, 'Expected an array of document types');
  });

  it('answers 413 with a JSON message for a 10 MB body', async () => {
    const huge = JSON.stringify([{ ...PASSPORT, displayName: 'x'.repeat(10 * 1024 * 1024) }]);
    const response = await call('staff', 'POST', '/api/documenttypes/import', huge, {
      'content-type': 'application/json',
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: expect.stringMatching(/too large/i) });
    expect(await storedDocumentTypes()).toEqual([]);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i', async (caller, status) => {
    expect((await importFile(caller, [PASSPORT])).statusCode).toBe(status);
    expect(await storedDocumentTypes()).toEqual([]);
  });

  it('allows admins', async () => {
    expect((await importFile('admin', [PASSPORT])).json()).toEqual({ count: 1 });
  });
});

interface JsonSchema {
  type?: string;
  required?: string[];
  properties?: Record<string, unknown>;
  items?: JsonSchema;
}
type Operation = { requestBody?: { content: Record<string, { schema: JsonSchema }> } };
type ListOperation = {
  responses: Record<number, { content: Record<string, { schema: { anyOf?: JsonSchema[] } }> }>;
};

describe('the OpenAPI document', () => {
  it('describes the calls with their schemas', async () => {
    const response = await suite.testApp.app.inject({ method: 'GET', url: '/docs/api/json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json().paths as Record<string, Record<string, Operation>>;
    for (const path of [
      '/api/countries',
      '/api/countries/{id}',
      '/api/countries/import',
      '/api/documenttypes',
      '/api/documenttypes/{id}',
      '/api/documenttypes/import',
      '/api/documenttypes/used-tags',
      '/api/documenttypes/used-api-service-names',
      '/svc/formauthoring/list',
    ]) {
      expect(paths, path).toHaveProperty([path]);
    }
    const createBody =
      paths['/api/documenttypes']?.post?.requestBody?.content?.['application/json']?.schema;
    expect(createBody?.required).toEqual(['id', 'displayName']);
    expect(createBody?.properties?.validityPeriod).toBeDefined();
    const importBody =
      paths['/api/countries/import']?.post?.requestBody?.content?.['application/json']?.schema;
    expect(importBody?.type).toBe('array');
    expect(importBody?.items?.required).toEqual(['id', 'alpha2', 'alpha3', 'name']);
  });

  it('describes both answers of the countries and document types lists: records and choices', async () => {
    const response = await suite.testApp.app.inject({ method: 'GET', url: '/docs/api/json' });
    const paths = response.json().paths as Record<string, Record<string, ListOperation>>;
    const itemKeys = (path: string) =>
      paths[path]?.get?.responses[200]?.content['application/json']?.schema.anyOf?.map((list) =>
        Object.keys(list.items?.properties ?? {}).sort(),
      );
    expect(itemKeys('/api/countries')).toEqual([LIST_KEYS.countryRecord, LIST_KEYS.countryChoice]);
    expect(itemKeys('/api/documenttypes')).toEqual([
      LIST_KEYS.documentTypeRecord,
      LIST_KEYS.documentTypeChoice,
    ]);
  });
});
