import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { HTML_INJECTION, SQL_INJECTION, stamp } from '../../../test/callers.ts';
import { countTables, expectRefusal } from '../../../test/expectations.ts';
import {
  LIST_KEYS,
  STATUSES,
  useReferenceDataTestApp,
  type Caller,
} from '../../../test/reference-data.ts';
import { isoCountryList } from '../../db/seed/countries.ts';

const suite = useReferenceDataTestApp({ id: 999, alpha2: 'ZZ', alpha3: 'ZZZ', name: 'Tenantland' });
const db = () => suite.testApp.database.db;

beforeEach(async () => {
  await db().deleteFrom('tenant_users').execute();
  await db().deleteFrom('tenants').execute();
  await db().deleteFrom('countries').execute();
});

async function insertCountry(id: number, alpha2: string, alpha3: string, name: string) {
  await db()
    .insertInto('countries')
    .values({ id, alpha2, alpha3, name, ...stamp })
    .execute();
}

async function insertTenantIn(countryId: number) {
  await db()
    .insertInto('tenants')
    .values({ company_name: 'Globex', domicile_country_id: countryId, ...stamp })
    .execute();
}

const call = suite.call;

const importCountries = (caller: Caller, body: unknown) =>
  call(caller, 'POST', '/api/countries/import', body);

async function storedCountries() {
  return db().selectFrom('countries').selectAll().orderBy('id').execute();
}

/** Statements of this database waiting for a lock another transaction holds. */
async function statementsWaitingForALock(): Promise<number> {
  const { waiting } = await db()
    .selectFrom(sql<{ datname: string; wait_event_type: string | null }>`pg_stat_activity`.as('a'))
    .select((eb) => eb.fn.countAll<number>().as('waiting'))
    .where('a.datname', '=', sql<string>`current_database()`)
    .where('a.wait_event_type', '=', 'Lock')
    .executeTakeFirstOrThrow();
  return waiting;
}

const FRANCE = { id: 250, alpha2: 'FR', alpha3: 'FRA', name: 'France' };
const GERMANY = { id: 276, alpha2: 'DE', alpha3: 'DEU', name: 'Germany' };
const JAPAN = { id: 392, alpha2: 'JP', alpha3: 'JPN', name: 'Japan' };

describe('GET /api/countries', () => {
  it('lists every country with the spec fields, by sequence then id', async () => {
    await insertCountry(276, 'DE', 'DEU', 'Germany');
    await insertCountry(250, 'FR', 'FRA', 'France');
    await insertCountry(392, 'JP', 'JPN', 'Japan');
    await db()
      .updateTable('countries')
      .set({
        sequence: 1,
        valid_from: '2020-01-01T00:00:00Z',
        valid_to: '2030-12-31T23:59:59.500Z',
        cached_risk: 'High',
        cached_risk_at: '2024-06-01T12:00:00Z',
      })
      .where('id', '=', 392)
      .execute();

    const response = await call('staff', 'GET', '/api/countries');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      {
        id: 392,
        countryName: 'Japan',
        alpha2Code: 'JP',
        alpha3Code: 'JPN',
        sequence: 1,
        validFrom: '2020-01-01T00:00:00.000Z',
        validTo: '2030-12-31T23:59:59.500Z',
        cachedRisk: 'High',
        cachedRiskAt: '2024-06-01T12:00:00.000Z',
      },
      {
        id: 250,
        countryName: 'France',
        alpha2Code: 'FR',
        alpha3Code: 'FRA',
        sequence: null,
        validFrom: null,
        validTo: null,
        cachedRisk: null,
        cachedRiskAt: null,
      },
      expect.objectContaining({ id: 276, countryName: 'Germany' }),
    ]);
  });

  it('answers an empty list when there are no countries', async () => {
    const response = await call('admin', 'GET', '/api/countries');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it.each(STATUSES.readByTenantsToo)('answers %s with %i', async (caller, status) => {
    const response = await call(caller, 'GET', '/api/countries');
    expect(response.statusCode).toBe(status);
    if (status !== 200) expect(response.json()).toHaveProperty('message');
  });

  it('answers a tenant user the choices of its profile forms only (id, countryName), staff the records', async () => {
    await insertCountry(250, 'FR', 'FRA', 'France');
    await db()
      .updateTable('countries')
      .set({ sequence: 1, cached_risk: 'High', cached_risk_at: '2024-06-01T12:00:00Z' })
      .execute();
    const choices = await call('tenant', 'GET', '/api/countries');
    expect(choices.statusCode).toBe(200);
    expect(choices.json()).toEqual([{ id: 250, countryName: 'France' }]);
    expect(Object.keys(choices.json()[0]).sort()).toEqual(LIST_KEYS.countryChoice);
    for (const caller of ['staff', 'admin'] as const) {
      const records = await call(caller, 'GET', '/api/countries');
      expect(Object.keys(records.json()[0]).sort(), caller).toEqual(LIST_KEYS.countryRecord);
      expect(records.json()[0], caller).toMatchObject({ cachedRisk: 'High', alpha2Code: 'FR' });
    }
  });

  it('answers the records to a person who is both staff and a tenant user', async () => {
    await insertCountry(250, 'FR', 'FRA', 'France');
    const token = await suite.testApp.tokenFor(suite.emails.staff, {
      roles: ['staff', 'tenant'],
      tenantId: 1,
    });
    const response = await call('anonymous', 'GET', '/api/countries', undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()[0]).sort()).toEqual(LIST_KEYS.countryRecord);
  });

  it('matches its path case-insensitively, also under the /api fallback base', async () => {
    await insertCountry(250, 'FR', 'FRA', 'France');
    for (const url of ['/API/Countries', '/api/api/countries']) {
      const response = await call('staff', 'GET', url);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toHaveLength(1);
    }
  });
});

describe('POST /api/countries/import', () => {
  it('adds the records, stamped with the caller, and answers how many were written', async () => {
    const before = Date.now();
    const response = await importCountries('staff', [FRANCE, GERMANY]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ count: 2 });

    const rows = await storedCountries();
    expect(rows).toMatchObject([
      {
        ...FRANCE,
        created_by: suite.emails.staff,
        updated_by: suite.emails.staff,
        sequence: null,
      },
      {
        ...GERMANY,
        created_by: suite.emails.staff,
        updated_by: suite.emails.staff,
      },
    ]);
    for (const row of rows) {
      expect(row.created_at.getTime()).toBeGreaterThanOrEqual(before - 5_000);
      expect(row.updated_at.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    }
  });

  it('stores codes upper-cased and the name trimmed, and ignores other fields', async () => {
    const response = await importCountries('admin', [
      { id: 250, alpha2: 'fr', alpha3: 'fRa', name: '  France ', sequence: 5, cachedRisk: 'x' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(await storedCountries()).toMatchObject([
      { id: 250, alpha2: 'FR', alpha3: 'FRA', name: 'France', sequence: null, cached_risk: null },
    ]);
  });

  it('is idempotent: a second import of the same file writes nothing', async () => {
    expect((await importCountries('staff', [FRANCE, GERMANY])).json()).toEqual({ count: 2 });
    const first = await storedCountries();

    const again = await importCountries('admin', [FRANCE, GERMANY]);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ count: 0 });
    expect(await storedCountries()).toEqual(first);
  });

  it('counts only the records that changed, keeps the other columns and the creator', async () => {
    await importCountries('staff', [FRANCE, GERMANY]);
    await db()
      .updateTable('countries')
      .set({ sequence: 7, cached_risk: 'Low' })
      .where('id', '=', 250)
      .execute();

    const response = await importCountries('admin', [
      { ...FRANCE, name: 'French Republic' },
      GERMANY,
      JAPAN,
    ]);
    expect(response.json()).toEqual({ count: 2 });
    const [france, germany, japan] = await storedCountries();
    expect(france).toMatchObject({
      name: 'French Republic',
      sequence: 7,
      cached_risk: 'Low',
      created_by: suite.emails.staff,
      updated_by: suite.emails.admin,
    });
    expect(germany).toMatchObject({
      created_by: suite.emails.staff,
      updated_by: suite.emails.staff,
    });
    expect(japan).toMatchObject({
      ...JAPAN,
      created_by: suite.emails.admin,
      updated_by: suite.emails.admin,
    });
  });

  it('imports the full ISO 3166-1 list (249 countries) into an empty table, once', async () => {
    // The seed's list of the maintained package, here as an import file.
    const records = isoCountryList();
    expect(records).toHaveLength(249);
    const response = await importCountries('staff', records);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ count: 249 });

    const list = (await call('staff', 'GET', '/api/countries')).json() as { id: number }[];
    expect(list).toHaveLength(249);
    expect(list.find((country) => country.id === 826)).toMatchObject({
      alpha2Code: 'GB',
      alpha3Code: 'GBR',
    });

    expect((await importCountries('staff', records)).json()).toEqual({ count: 0 });
  });

  it('accepts an empty file', async () => {
    const response = await importCountries('staff', []);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ count: 0 });
  });

  it('stores SQL and HTML look-alikes verbatim, and the table survives', async () => {
    const response = await importCountries('staff', [
      { ...FRANCE, name: SQL_INJECTION },
      { ...GERMANY, name: HTML_INJECTION },
    ]);
    expect(response.statusCode).toBe(200);
    const list = (await call('staff', 'GET', '/api/countries')).json() as {
      countryName: string;
    }[];
    expect(list.map((country) => country.countryName)).toEqual([SQL_INJECTION, HTML_INJECTION]);
    expect(await countTables(db(), ['countries'])).toBe(1);
  });

  it.each(STATUSES.notStaff)('refuses %s with %i and writes nothing', async (caller, status) => {
    const response = await importCountries(caller, [FRANCE]);
    expect(response.statusCode).toBe(status);
    expect(await storedCountries()).toEqual([]);
  });

  it.each([
    ['a string', 'not json', /JSON/i],
    ['an object', { countries: [FRANCE] }, /^Expected an array of countries$/],
    ['a number', 42, /^Expected an array of countries$/],
    ['null', 'null', /^Expected an array of countries$/],
  ])('answers 400 for a body that is %s', async (_case, body, message) => {
    const response = await call('staff', 'POST', '/api/countries/import', body, {
      'content-type': 'application/json',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it.each([
    [
      'a record that is not an object',
      'France',
      'Record at index 2: Each record must be an object with id, alpha2, alpha3 and name',
    ],
    [
      'a missing id',
      { alpha2: 'ES', alpha3: 'ESP', name: 'Spain' },
      'Record at index 2: id: Required',
    ],
    ['an id as a string', { ...JAPAN, id: '392' }, 'Record at index 2: id must be a number'],
    ['a fractional id', { ...JAPAN, id: 392.5 }, 'Record at index 2: id must be a whole number'],
    [
      'id 0',
      { ...JAPAN, id: 0 },
      'Record at index 2: id must be an ISO 3166-1 numeric code (1-999)',
    ],
    [
      'id 1000',
      { ...JAPAN, id: 1000 },
      'Record at index 2: id must be an ISO 3166-1 numeric code (1-999)',
    ],
    [
      'a missing alpha2',
      { id: 392, alpha3: 'JPN', name: 'Japan' },
      'Record at index 2: alpha2: Required',
    ],
    [
      'a 3-letter alpha2',
      { ...JAPAN, alpha2: 'JPN' },
      'Record at index 2: alpha2 must be exactly 2 letters (A-Z)',
    ],
    [
      'a digit in alpha2',
      { ...JAPAN, alpha2: 'J1' },
      'Record at index 2: alpha2 must be exactly 2 letters (A-Z)',
    ],
    [
      'a 2-letter alpha3',
      { ...JAPAN, alpha3: 'JP' },
      'Record at index 2: alpha3 must be exactly 3 letters (A-Z)',
    ],
    ['alpha3 as a number', { ...JAPAN, alpha3: 392 }, 'Record at index 2: alpha3 must be a string'],
    ['an empty name', { ...JAPAN, name: '' }, 'Record at index 2: name must not be empty'],
    ['a blank name', { ...JAPAN, name: '   ' }, 'Record at index 2: name must not be empty'],
    [
      'a missing name',
      { id: 392, alpha2: 'JP', alpha3: 'JPN' },
      'Record at index 2: name: Required',
    ],
    [
      'a NUL in the name',
      { ...JAPAN, name: 'Ja\u0000pan' },
      'Record at index 2: name must not contain the NUL character',
    ],
  ])('writes nothing of a file with %s, and names the record', async (_case, bad, message) => {
    const response = await importCountries('staff', [FRANCE, GERMANY, bad]);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.message).toBe(message);
    expect(body.errors[0].path).toMatch(/^2(\.|$)/);
    expect(await storedCountries()).toEqual([]);
  });

  it('lists several problems of a file at once', async () => {
    const response = await importCountries('staff', [
      { ...FRANCE, alpha2: 'F' },
      { ...GERMANY, name: '' },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message:
        'Record at index 0: alpha2 must be exactly 2 letters (A-Z); Record at index 1: name must not be empty',
      errors: [
        { path: '0.alpha2', message: 'Record at index 0: alpha2 must be exactly 2 letters (A-Z)' },
        { path: '1.name', message: 'Record at index 1: name must not be empty' },
      ],
    });
  });

  it.each([
    ['id', { ...GERMANY, id: 250 }, 'Record at index 1: Duplicate id 250 (already at index 0)'],
    [
      'alpha2',
      { ...GERMANY, alpha2: 'fr' },
      'Record at index 1: Duplicate alpha2 FR (already at index 0)',
    ],
    [
      'alpha3',
      { ...GERMANY, alpha3: 'FRA' },
      'Record at index 1: Duplicate alpha3 FRA (already at index 0)',
    ],
  ])('refuses a file that repeats an %s', async (_field, second, message) => {
    const response = await importCountries('staff', [FRANCE, second, JAPAN]);
    expectRefusal(response, 400, message);
    expect(await storedCountries()).toEqual([]);
  });

  it('answers 409 when a code belongs to another country, and writes nothing', async () => {
    await importCountries('staff', [FRANCE]);
    const before = await storedCountries();
    for (const [clash, field] of [
      [{ id: 251, alpha2: 'FR', alpha3: 'FRX', name: 'Not France' }, 'alpha2 FR'],
      [{ id: 251, alpha2: 'FX', alpha3: 'fra', name: 'Not France' }, 'alpha3 FRA'],
    ] as const) {
      const response = await importCountries('staff', [GERMANY, clash]);
      expectRefusal(
        response,
        409,
        `Record at index 1: ${field} is already used by country 250 (France)`,
      );
      expect(await storedCountries()).toEqual(before);
    }
  });

  it('names the first clash in file order, alpha-2 before alpha-3', async () => {
    await importCountries('staff', [FRANCE, GERMANY]);
    const before = await storedCountries();
    const response = await importCountries('staff', [
      JAPAN,
      // Alpha-2 of Germany and alpha-3 of France: the alpha-2 is named.
      { id: 251, alpha2: 'DE', alpha3: 'FRA', name: 'Both' },
      { id: 252, alpha2: 'FR', alpha3: 'XXX', name: 'Later' },
    ]);
    expectRefusal(
      response,
      409,
      'Record at index 1: alpha2 DE is already used by country 276 (Germany)',
    );
    expect(response.json().errors).toEqual([
      { path: '1.alpha2', message: 'Already used by country 276' },
    ]);
    expect(await storedCountries()).toEqual(before);
  });

  it.each([
    ['in file order', (records: unknown[]) => records],
    ['in reverse order', (records: unknown[]) => [...records].reverse()],
  ])('moves and swaps codes between countries of one import, %s', async (_order, arrange) => {
    await importCountries('staff', [FRANCE, GERMANY, JAPAN]);
    const response = await importCountries(
      'admin',
      arrange([
        // France and Germany swap their alpha-2 codes; Japan gives JPN to France and takes JPX.
        { ...FRANCE, alpha2: 'DE', alpha3: 'JPN' },
        { ...GERMANY, alpha2: 'FR' },
        { ...JAPAN, alpha3: 'JPX' },
      ]),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ count: 3 });
    expect(
      (await storedCountries()).map(({ id, alpha2, alpha3 }) => ({ id, alpha2, alpha3 })),
    ).toEqual([
      { id: 250, alpha2: 'DE', alpha3: 'JPN' },
      { id: 276, alpha2: 'FR', alpha3: 'DEU' },
      { id: 392, alpha2: 'JP', alpha3: 'JPX' },
    ]);
  });

  it.each([
    ['commits', 409],
    ['rolls back', 200],
  ] as const)(
    'waits for a transaction writing the same code; when it %s, answers %i',
    async (outcome, status) => {
      const rival = { id: 300, alpha2: 'QQ', alpha3: 'QQQ', name: 'Rival' };
      const importer = { id: 301, alpha2: 'QQ', alpha3: 'QQR', name: 'Importer' };
      const trx = await db().startTransaction().execute();
      await trx
        .insertInto('countries')
        .values({ ...rival, ...stamp })
        .execute();
      const pending = importCountries('staff', [importer]);
      // The import's statement ends by checking its codes, which waits for the rival to end.
      await expect.poll(statementsWaitingForALock, { timeout: 10_000 }).toBe(1);
      await (outcome === 'commits' ? trx.commit() : trx.rollback()).execute();

      const response = await pending;
      const holders = await db()
        .selectFrom('countries')
        .select('id')
        .where('alpha2', '=', 'QQ')
        .execute();
      if (status === 409) {
        expectRefusal(
          response,
          409,
          'Record at index 0: alpha2 QQ is already used by country 300 (Rival)',
        );
        expect(holders).toEqual([{ id: 300 }]);
      } else {
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ count: 1 });
        expect(holders).toEqual([{ id: 301 }]);
      }
    },
  );

  it('records one CountriesImported event per import with the count written, none when refused', async () => {
    const importEvents = () =>
      db()
        .selectFrom('events')
        .select(['metadata'])
        .where('event_name', '=', 'CountriesImported')
        .orderBy('id')
        .execute();
    const before = (await importEvents()).length;
    await importCountries('staff', [FRANCE, GERMANY]);
    await importCountries('admin', [FRANCE, { ...GERMANY, name: 'Deutschland' }, JAPAN]);
    const clash = { id: 251, alpha2: 'FR', alpha3: 'FRX', name: 'Not France' };
    expect((await importCountries('staff', [JAPAN, clash])).statusCode).toBe(409);

    const recorded = (await importEvents()).slice(before).map((event) => event.metadata);
    // The audit log's before/after: the ids the import created and the ids it changed.
    const target = { type: 'Country', name: 'Countries import' };
    expect(recorded).toEqual([
      {
        actor: suite.emails.staff,
        action: 'import',
        count: 2,
        records: 2,
        target,
        after: { count: 2, records: 2, created: [FRANCE.id, GERMANY.id], changed: [] },
      },
      {
        actor: suite.emails.admin,
        action: 'import',
        count: 2,
        records: 3,
        target,
        after: { count: 2, records: 3, created: [JAPAN.id], changed: [GERMANY.id] },
      },
    ]);
  });

  it('answers 413 with a JSON message for a 10 MB body, and reads one of 1 MB', async () => {
    const huge = JSON.stringify([{ ...FRANCE, name: 'x'.repeat(10 * 1024 * 1024) }]);
    const tooLarge = await call('staff', 'POST', '/api/countries/import', huge, {
      'content-type': 'application/json',
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.headers['content-type']).toMatch(/application\/json/);
    expect(tooLarge.json()).toEqual({ message: expect.stringMatching(/too large/i) });

    // Strings have their own limits (countries.ts): 1 MB of white space is a large valid body.
    const padded = `${JSON.stringify([FRANCE])}${' '.repeat(1024 * 1024)}`;
    const large = await call('staff', 'POST', '/api/countries/import', padded, {
      'content-type': 'application/json',
    });
    expect(large.statusCode).toBe(200);
    expect(await storedCountries()).toHaveLength(1);
  });

  it('answers 413 over a real connection too, before reading the body', async () => {
    const response = await fetch(`${suite.testApp.config.publicUrl}/api/countries/import`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${suite.tokenOf('staff')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify([{ ...FRANCE, name: 'x'.repeat(10 * 1024 * 1024) }]),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Request body is too large' });
    expect(await storedCountries()).toEqual([]);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await call('staff', 'POST', '/api/countries/import', 'id,alpha2', {
      'content-type': 'text/csv',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toHaveProperty('message');
  });
});

describe('DELETE /api/countries/{id}', () => {
  beforeEach(async () => {
    await insertCountry(250, 'FR', 'FRA', 'France');
  });

  it('lets an admin delete a country (204, then gone)', async () => {
    const response = await call('admin', 'DELETE', '/api/countries/250');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await storedCountries()).toEqual([]);
  });

  it.each(STATUSES.notAdmin)('refuses %s with %i and keeps the country', async (caller, status) => {
    const response = await call(caller, 'DELETE', '/api/countries/250');
    expect(response.statusCode).toBe(status);
    expect(response.json()).toHaveProperty('message');
    expect(await storedCountries()).toHaveLength(1);
  });

  it('answers 404 for an unknown country, and for one already deleted', async () => {
    const unknown = await call('admin', 'DELETE', '/api/countries/251');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Country 251 not found.' });

    expect((await call('admin', 'DELETE', '/api/countries/250')).statusCode).toBe(204);
    expect((await call('admin', 'DELETE', '/api/countries/250')).statusCode).toBe(404);
  });

  it.each(['abc', '1.5', '0', '1000', "250'; drop table countries; --"])(
    'answers 400 for the id %s',
    async (id) => {
      const response = await call('admin', 'DELETE', `/api/countries/${encodeURIComponent(id)}`);
      expectRefusal(response, 400, 'id must be a whole number from 1 to 999, in plain digits');
      expect(await storedCountries()).toHaveLength(1);
    },
  );

  it('answers 409 while a tenant is domiciled in the country, and keeps it', async () => {
    await insertTenantIn(250);
    const response = await call('admin', 'DELETE', '/api/countries/250');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message:
        'Cannot delete country France because it is currently being used by existing tenants. Please reassign or remove the tenants first.',
      tenants: 1,
    });
    expect(await storedCountries()).toHaveLength(1);
  });
});
