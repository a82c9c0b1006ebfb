import { PROTOTYPE_KEYS } from '@console/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDatabase } from '../../test/database-snapshot.ts';
import { multipart, type Part } from '../../test/multipart.ts';
import {
  fieldsOf,
  isWrite,
  KEY,
  loadOperations,
  pathValues,
  sample,
  sampleParts,
  urlOf,
  withValue,
  type Operation,
  type Step,
} from '../../test/openapi.ts';
import { createPortalTestApp, type PortalTestApp } from '../../test/portal-test-app.ts';

/**
 * No prototype key anywhere (docs/architecture.md, "Input"; contracts' keys.ts). Every route of
 * the OpenAPI document that takes a body is sent each prototype key as a JSON key: at the top of
 * its body, in every object it nests and as the key of every record (API references, DataObject).
 * A route that reads multipart is sent each as a part name (bare and `DataObject.<key>`, as text
 * and as a file) and as a key of FormData, top level and nested. As an admin, and as a tenant
 * user wherever the route admits one (Acme's portal user, on its own entity). Every answer is a
 * 400 naming the key, nothing is written, and no prototype holds anything new afterwards. Every
 * route, reads too, then gets each key as a path value, a query value and a query parameter's
 * name: no answer is a 500 and no prototype changes. Derived from the served document, so a new
 * route is walked without editing this test.
 */

let portal: PortalTestApp;
let operations: Operation[];
let acmeEntity: string;

beforeAll(async () => {
  portal = await createPortalTestApp({ eventWorkersEnabled: false });
  operations = await loadOperations(portal.testApp.app);
  const { db } = portal.testApp.database;
  acmeEntity = (
    await db
      .selectFrom('entities')
      .select('party_entity_id')
      .where('tenant_id', '=', portal.acmeId)
      .orderBy('party_entity_id')
      .executeTakeFirstOrThrow()
  ).party_entity_id;
});

afterAll(async () => {
  await portal.close();
});

type Caller = 'admin' | 'acme';
const CALLERS: readonly Caller[] = ['admin', 'acme'];

/** What a key carries: what would land on a prototype if code merged it into an object. */
const POLLUTER = { polluted: 'yes', prototype: { polluted: 'yes' } };

/** The guard's refusal of a caller the route does not admit (before the body is read). */
const isGuardRefusal = (response: LightMyRequestResponse) =>
  response.statusCode === 403 &&
  response.json<{ message: string }>().message === 'You do not have permission to do this';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at `path` of a body (a path to a value: no record-key step). */
function valueAt(body: unknown, path: readonly Step[]): unknown {
  return path.reduce<unknown>(
    (at, step) => (at as Record<string | number, unknown>)[step as string | number],
    body,
  );
}

interface Placement {
  /** The body with the key in its place. */
  body: unknown;
  /** The path the answer must name: where the key is, the key last. */
  path: string;
}

/**
 * `key` in every place of the route's body: a key of the body and of each object it nests, and
 * in place of each record's sample key. A route without a body schema still reads a JSON body.
 */
function placements(operation: Operation, key: string): Placement[] {
  if (!operation.body) {
    return [
      { body: { note: 'x', [key]: POLLUTER }, path: key },
      { body: { note: { [key]: POLLUTER } }, path: `note.${key}` },
    ];
  }
  const base = sample(operation.body);
  const { strings, nested } = fieldsOf(operation.body);
  const named = (path: readonly Step[]) => [...path.filter((step) => step !== KEY), key].join('.');
  const inObjects = nested
    .map(({ path }) => path)
    .filter((path) => isPlainObject(valueAt(base, path)))
    .map((path) => ({
      body: withValue(base, path, { ...(valueAt(base, path) as object), [key]: POLLUTER }),
      path: named(path),
    }));
  const asRecordKeys = strings
    .filter(({ path }) => path.includes(KEY))
    .map(({ path }) => ({ body: withValue(base, path, key), path: named(path) }));
  return [...inObjects, ...asRecordKeys];
}

function sendJson(
  caller: Caller,
  operation: Operation,
  body: unknown,
  url = urlOf(operation, pathValues(operation)),
) {
  return portal.call(caller, operation.method as 'POST', url, JSON.stringify(body));
}

function sendParts(
  caller: Caller,
  operation: Operation,
  parts: Part[],
  url = urlOf(operation, pathValues(operation)),
) {
  const { payload, headers } = multipart(parts);
  return portal.call(caller, operation.method as 'POST', url, payload, headers);
}

/** A 400 whose errors name `path`, and whose message names the key. */
function expectRefused(response: LightMyRequestResponse, path: string, key: string, where: string) {
  expect(response.statusCode, `${where}: ${response.body}`).toBe(400);
  const body = response.json<{ message: string; errors: { path: string }[] }>();
  expect(
    body.errors.map((error) => error.path),
    where,
  ).toContain(path);
  expect(body.message, where).toContain(key);
}

/** The own member names of the prototypes a polluting merge would reach. */
const prototypeMembers = () =>
  [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((prototype) =>
    Object.getOwnPropertyNames(prototype).sort(),
  );

describe('prototype keys on every route that takes a body', () => {
  const before = { members: [] as string[][], database: {} as Record<string, string[]> };
  beforeAll(async () => {
    before.members = prototypeMembers();
    before.database = await snapshotDatabase(portal.testApp.database.db);
  });

  it('finds the routes that take a body, JSON and multipart, in the OpenAPI document', () => {
    const writes = operations.filter(isWrite).map((op) => `${op.method} ${op.path}`);
    expect(writes).toEqual(
      expect.arrayContaining([
        'POST /api/documenttypes',
        'POST /svc/formauthoring/{nameOrId}/submit',
        'POST /svc/formusage/submit',
      ]),
    );
  });

  it('refuses each as a JSON key, top level and nested, naming it, as an admin and a tenant user', async () => {
    const admittedForTenants = new Set<string>();
    for (const operation of operations.filter(isWrite)) {
      for (const key of PROTOTYPE_KEYS) {
        for (const { body, path } of placements(operation, key)) {
          for (const caller of CALLERS) {
            const where = `${caller} ${operation.method} ${operation.path} ${path}`;
            const response = await sendJson(caller, operation, body);
            if (caller === 'acme' && isGuardRefusal(response)) continue;
            if (caller === 'acme') admittedForTenants.add(`${operation.method} ${operation.path}`);
            expectRefused(response, path, key, where);
          }
        }
      }
    }
    // The walk reached a body as a tenant user where one is admitted.
    expect([...admittedForTenants]).toContain('POST /svc/formusage/submit');
  });

  it('refuses each as a part name and as a FormData key, naming it, as an admin and a tenant user', async () => {
    const multipartOperations = operations.filter((op) => op.multipart);
    expect(multipartOperations.map((op) => `${op.method} ${op.path}`)).toEqual([
      'POST /svc/formusage/submit',
    ]);
    // An entity of the tenant user's own tenant: both callers may save its profile.
    const target: Part[] = [
      { name: 'Target', value: 'Entity' },
      { name: 'EntityId', value: acmeEntity },
    ];
    const formData = (value: object): Part => ({ name: 'FormData', value: JSON.stringify(value) });
    for (const operation of multipartOperations) {
      for (const key of PROTOTYPE_KEYS) {
        const input = `DataObject.${key}`;
        const file = (name: string): Part => ({ name, fileName: 'f.txt', content: 'f' });
        const cases: [string, Part[], string][] = [
          ['a file part', [formData({}), file(input)], input],
          ['a text part', [formData({}), { name: input, value: 'x' }], input],
          ['a FormData input', [formData({ [input]: 'x' })], `FormData.${input}`],
          ['a FormData key', [formData({ [key]: 'x' })], `FormData.${key}`],
          [
            'a nested FormData key',
            [formData({ 'DataObject.Name': { [key]: POLLUTER } })],
            `FormData.DataObject.Name.${key}`,
          ],
        ];
        for (const caller of CALLERS) {
          for (const [what, parts, path] of cases) {
            const response = await sendParts(caller, operation, [...target, ...parts]);
            expectRefused(response, path, key, `${caller} ${what} ${path}`);
          }
          // A bare name: @fastify/multipart refuses Object.prototype's members itself, without
          // saying which (our answer names the rule); `prototype` is an unknown part of ours.
          for (const part of [file(key), { name: key, value: 'x' }]) {
            const response = await sendParts(caller, operation, [...target, formData({}), part]);
            const where = `${caller} bare part ${key}: ${response.body}`;
            expect(response.statusCode, where).toBe(400);
            expect(response.json<{ message: string }>().message, where).toMatch(
              new RegExp(`${key}|A part name must not be`),
            );
          }
        }
      }
    }
  });

  it('leaves every prototype as it was, and the database unchanged', async () => {
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { prototype?: unknown }).prototype).toBeUndefined();
    expect(prototypeMembers()).toEqual(before.members);
    expect(await snapshotDatabase(portal.testApp.database.db)).toEqual(before.database);
  });
});

/**
 * The operation's URLs with `key` in one place each: as the value of each path parameter, as
 * the value of each query parameter, and as a query parameter's name.
 */
function urlsWith(operation: Operation, key: string): string[] {
  const valid = pathValues(operation);
  const base = urlOf(operation, valid);
  const inPath = operation.parameters
    .filter((parameter) => parameter.in === 'path')
    .map((parameter) => urlOf(operation, { ...valid, [parameter.name]: key }));
  const inQuery = operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => `${base}?${parameter.name}=${encodeURIComponent(key)}`);
  return [...inPath, ...inQuery, `${base}?${encodeURIComponent(key)}=polluted`];
}

/** A call of `url` as the route expects it: with a sample of its body, JSON or multipart. */
function sendTo(caller: Caller, operation: Operation, url: string) {
  if (operation.multipart)
    return sendParts(caller, operation, sampleParts(operation.multipart), url);
  if (operation.body) return sendJson(caller, operation, sample(operation.body), url);
  return portal.call(caller, operation.method as 'GET', url);
}

describe('prototype keys as path and query values, on every route', () => {
  it('never answers 500 and reaches no prototype, as an admin and a tenant user', async () => {
    const before = prototypeMembers();
    const answered = new Set<number>();
    for (const operation of operations) {
      for (const key of PROTOTYPE_KEYS) {
        for (const url of urlsWith(operation, key)) {
          for (const caller of CALLERS) {
            const response = await sendTo(caller, operation, url);
            const where = `${caller} ${operation.method} ${url}: ${response.body.slice(0, 200)}`;
            expect(response.statusCode, where).toBeLessThan(500);
            answered.add(response.statusCode);
          }
        }
      }
    }
    // The walk got past the guard and the schemas: some answers are the routes' own.
    expect([...answered]).toEqual(expect.arrayContaining([200, 400, 403, 404]));
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(prototypeMembers()).toEqual(before);
  });
});
