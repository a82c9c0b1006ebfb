import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_KEYS } from '../../test/reference-data.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { ReferenceCache, VERSION_CHECK_INTERVAL_MS } from './reference-cache.ts';
import { listCountries } from '../features/countries/queries.ts';

// Two instances on one database (A writes, B reads), over real HTTP.
let instanceA: TestApp;
let instanceB: TestApp;
// Each instance's own tokens: a new signing key of one is not known to the other at once.
const staff = new Map<TestApp, string>();
let admin: string;

const stamp = { created_by: 'test', updated_by: 'test', updated_at: new Date() };

const LISTS = [
  '/api/countries',
  '/api/documenttypes',
  '/api/documenttypes/used-tags',
  '/api/documenttypes/used-api-service-names',
  '/svc/formauthoring/list',
  '/svc/formauthoring/allfields',
  '/svc/formauthoring/used-tags',
  '/svc/formauthoring/used-api-service-names',
] as const;

beforeAll(async () => {
  instanceA = await createTestApp();
  instanceB = await createTestApp({}, { database: instanceA.database });
  for (const instance of [instanceA, instanceB]) {
    staff.set(instance, await instance.tokenFor('staff@example.com'));
  }
  admin = await instanceA.tokenFor('admin@example.com');
});

afterAll(async () => {
  await instanceB?.close();
  await instanceA?.close();
});

async function call(
  instance: TestApp,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(new URL(path, instance.config.publicUrl), {
    method,
    headers: {
      authorization: `Bearer ${options.token ?? staff.get(instance)}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
}

function rawGet(instance: TestApp, path: string, headers: Record<string, string>) {
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const url = new URL(path, instance.config.publicUrl);
      const authorization = `Bearer ${staff.get(instance)}`;
      const request = httpRequest(url, { headers: { ...headers, authorization } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end();
    },
  );
}

async function etagOf(instance: TestApp, path: string): Promise<string> {
  const response = await call(instance, 'GET', path);
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return response.headers.get('etag') ?? '';
}

async function write(method: string, path: string, body?: unknown) {
  const response = await call(instanceA, method, path, { token: admin, body });
  expect(response.status).toBeLessThan(300);
  await response.arrayBuffer();
}

/** Polls `path` on `instance` until `done` holds; answers how long it took. */
async function timeUntil(
  instance: TestApp,
  path: string,
  done: (body: unknown) => boolean,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    const response = await call(instance, 'GET', path);
    if (done(await response.json())) return Date.now() - started;
    if (Date.now() - started > 5_000) throw new Error(`${path} still stale after 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('cached reference lists', () => {
  it('answer 304 with the same ETag while the list is unchanged, 200 to another ETag', async () => {
    for (const path of LISTS) {
      const first = await call(instanceB, 'GET', path);
      const body = await first.text();
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^W\/".+-\d+"$/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');

      const again = await call(instanceB, 'GET', path, { headers: { 'if-none-match': etag! } });
      expect(again.status, path).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');

      const other = await call(instanceB, 'GET', path, { headers: { 'if-none-match': 'W/"x-1"' } });
      expect(other.status).toBe(200);
      expect(await other.text()).toBe(body);
    }
  });

  it('send the same body gzipped to a caller that accepts gzip, and plain to one that does not', async () => {
    for (const path of LISTS) {
      const plain = await call(instanceB, 'GET', path, {
        headers: { 'accept-encoding': 'identity' },
      });
      expect(plain.headers.get('content-encoding'), path).toBeNull();
      const text = await plain.text();
      // fetch would unzip by itself: read the bytes on the wire.
      const zipped = await rawGet(instanceB, path, { 'accept-encoding': 'br;q=0.5, gzip' });
      expect(zipped.headers['content-encoding'], path).toBe('gzip');
      expect(zipped.headers.vary, path).toContain('accept-encoding');
      expect(zipped.headers.etag, path).toBe(plain.headers.get('etag'));
      expect(gunzipSync(zipped.body).toString('utf8'), path).toBe(text);
    }
  });

  it("answer staff and tenant users each their own shape under ETags of their own, never the other's", async () => {
    const tenant = await instanceB.tokenFor('portal@tenant.test', {
      roles: ['tenant'],
      tenantId: 1,
    });
    await write('POST', '/api/documenttypes', { id: 'cache_choice', displayName: 'Card' });
    const read = (path: string, token?: string, etag?: string) =>
      call(instanceB, 'GET', path, {
        ...(token ? { token } : {}),
        headers: etag ? { 'if-none-match': etag } : {},
      });
    // Whoever reads first after a write, the other gets its own shape (both orders).
    for (const first of ['staff', 'tenant'] as const) {
      await write('POST', '/api/countries/import', [
        { id: 276, alpha2: 'DE', alpha3: 'DEU', name: `Germany ${first}` },
      ]);
      await write('PUT', '/api/documenttypes/cache_choice', { displayName: `Card ${first}` });
      for (const [path, choiceKeys] of [
        ['/api/countries', LIST_KEYS.countryChoice],
        ['/api/documenttypes', LIST_KEYS.documentTypeChoice],
      ] as const) {
        const staffFirst = first === 'staff';
        const firstAnswer = await read(path, staffFirst ? undefined : tenant);
        const secondAnswer = await read(path, staffFirst ? tenant : undefined);
        const [staffAnswer, tenantAnswer] = staffFirst
          ? [firstAnswer, secondAnswer]
          : [secondAnswer, firstAnswer];
        const records = (await staffAnswer.json()) as object[];
        const choices = (await tenantAnswer.json()) as object[];
        expect(Object.keys(records[0]!).length, path).toBeGreaterThan(choiceKeys.length);
        expect(choices.length, path).toBe(records.length);
        for (const choice of choices) expect(Object.keys(choice).sort(), path).toEqual(choiceKeys);
        const staffEtag = staffAnswer.headers.get('etag')!;
        const tenantEtag = tenantAnswer.headers.get('etag')!;
        expect(staffEtag, path).not.toBe(tenantEtag);
        for (const answer of [staffAnswer, tenantAnswer]) {
          expect(answer.headers.get('vary'), path).toBe('authorization, accept-encoding');
          expect(answer.headers.get('cache-control'), path).toBe('private, no-cache');
        }
        // An ETag of the other shape is no match: the whole answer, in the caller's own shape.
        const crossed = await read(path, tenant, staffEtag);
        expect(crossed.status, path).toBe(200);
        expect(await crossed.json(), path).toEqual(choices);
        const crossedBack = await read(path, undefined, tenantEtag);
        expect(crossedBack.status, path).toBe(200);
        expect(await crossedBack.json(), path).toEqual(records);
        expect((await read(path, tenant, tenantEtag)).status, path).toBe(304);
        expect((await read(path, undefined, staffEtag)).status, path).toBe(304);
      }
    }
  });

  it('check permissions before the cache', async () => {
    await etagOf(instanceB, '/api/countries');
    const noRole = await instanceB.tokenFor('visitor@elsewhere.test');
    for (const path of LISTS) {
      expect((await call(instanceB, 'GET', path, { token: noRole })).status, path).toBe(403);
      expect((await call(instanceB, 'GET', path, { token: 'not-a-token' })).status, path).toBe(401);
    }
  });

  it('change their ETag after every kind of write, on both instances', async () => {
    const countryWrites: [string, string, unknown][] = [
      ['POST', '/api/countries/import', [{ id: 250, alpha2: 'FR', alpha3: 'FRA', name: 'France' }]],
      ['POST', '/api/countries/import', [{ id: 250, alpha2: 'FR', alpha3: 'FRA', name: 'Franc' }]],
      ['DELETE', '/api/countries/250', undefined],
    ];
    const passport = { id: 'passport', displayName: 'Passport', tags: ['identity'] };
    const typeWrites: [string, string, unknown][] = [
      ['POST', '/api/documenttypes', passport],
      ['PUT', '/api/documenttypes/passport', { ...passport, tags: ['travel'] }],
      ['DELETE', '/api/documenttypes/passport', undefined],
      ['POST', '/api/documenttypes/import', [{ ...passport, apiReferences: { onfido: 'p' } }]],
    ];
    const field = { name: 'CompanyName', displayName: 'Company name', type: 'Text' };
    const fieldWrites = (id: number): [string, string, unknown][] => [
      ['PUT', `/svc/formauthoring/fields/${id}`, { ...field, tags: ['company'] }],
      ['PUT', `/svc/formauthoring/fields/${id}`, { ...field, apiReferences: { crm: 'name' } }],
    ];
    const formWrites = (id: number): [string, string, unknown][] => [
      ['POST', '/svc/formauthoring', { name: 'EditTenantProfile', fields: [id] }],
      ['PUT', '/svc/formauthoring/edittenantprofile', { name: 'EditTenantProfile' }],
      ['DELETE', '/svc/formauthoring/EditTenantProfile', undefined],
    ];
    const created = await call(instanceA, 'POST', '/svc/formauthoring/fields', {
      token: admin,
      body: field,
    });
    const { id: fieldId } = (await created.json()) as { id: number };
    for (const [paths, writes] of [
      [['/api/countries'], countryWrites],
      [LISTS.slice(1, 4), typeWrites],
      [LISTS.slice(5, 8), fieldWrites(fieldId)],
      [['/svc/formauthoring/list'], formWrites(fieldId)],
      [LISTS.slice(5, 8), [['DELETE', `/svc/formauthoring/fields/${fieldId}`, undefined]]],
    ] as const) {
      for (const [method, writePath, body] of writes) {
        const before = new Map<string, string[]>();
        for (const path of paths) {
          before.set(path, [await etagOf(instanceA, path), await etagOf(instanceB, path)]);
        }
        await write(method, writePath, body);
        for (const path of paths) {
          const [onA, onB] = before.get(path)!;
          // The writing instance knows at once; the other within a second.
          expect(await etagOf(instanceA, path), `${method} ${writePath}: ${path}`).not.toBe(onA);
          const elapsed = await timeUntilEtagChanges(instanceB, path, onB!);
          expect(elapsed, `${method} ${writePath}: ${path}`).toBeLessThanOrEqual(1_000);
        }
      }
    }
  });

  it('show a write of another instance within one second, and never a stale list after an import', async () => {
    const path = '/api/countries';
    await etagOf(instanceB, path);
    const records = [
      { id: 392, alpha2: 'JP', alpha3: 'JPN', name: 'Japan' },
      { id: 410, alpha2: 'KR', alpha3: 'KOR', name: 'Korea' },
    ];
    await write('POST', '/api/countries/import', records);
    const names = (body: unknown) => (body as { countryName: string }[]).map((c) => c.countryName);
    // The importing instance answers the imported list right away.
    const onA = await call(instanceA, 'GET', path);
    expect(names(await onA.json())).toEqual(expect.arrayContaining(['Japan', 'Korea']));
    const elapsed = await timeUntil(instanceB, path, (body) => names(body).includes('Korea'));
    expect(elapsed).toBeLessThanOrEqual(1_000);
  });

  it('follow a form written straight into the database, as a write of the API', async () => {
    const path = '/svc/formauthoring/list';
    const before = await etagOf(instanceB, path);
    await instanceA.database.db
      .insertInto('forms')
      .values({ name: 'EditTenantProfile', ...stamp })
      .execute();
    expect(await timeUntilEtagChanges(instanceB, path, before)).toBeLessThanOrEqual(1_000);
  });
});

async function timeUntilEtagChanges(instance: TestApp, path: string, etag: string) {
  const started = Date.now();
  while ((await etagOf(instance, path)) === etag) {
    if (Date.now() - started > 5_000) throw new Error(`${path} still at ${etag} after 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

describe('ReferenceCache without notifications', () => {
  it('reads the version again once a second, so a missed notification is stale one second at most', async () => {
    let now = 1_000_000;
    const cache = new ReferenceCache(instanceA.database.db, () => now);
    const { db } = instanceA.database;
    const read = { list: 'countries' as const, variant: 'countries', read: listCountries };
    const names = async () => {
      let sent: Buffer | undefined;
      const reply = {
        header: () => reply,
        type: () => reply,
        code: () => reply,
        send: (body?: Buffer) => {
          sent = body;
          return reply;
        },
      };
      await cache.reply({ headers: {}, server: {} } as never, reply as never, read);
      return (JSON.parse(String(sent)) as { countryName: string }[]).map((c) => c.countryName);
    };
    await db.deleteFrom('countries').where('id', '=', 104).execute();
    expect(await names()).not.toContain('Myanmar');

    await db
      .insertInto('countries')
      .values({ id: 104, alpha2: 'MM', alpha3: 'MMR', name: 'Myanmar', ...stamp })
      .execute();
    now += VERSION_CHECK_INTERVAL_MS - 1;
    expect(await names()).not.toContain('Myanmar');
    now += 1;
    expect(await names()).toContain('Myanmar');
  });
});
