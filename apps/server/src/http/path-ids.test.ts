import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDatabase } from '../../test/database-snapshot.ts';
import { insertFields, insertForm } from '../../test/form-rows.ts';
import { loadOperations, urlOf, type Operation } from '../../test/openapi.ts';
import { createPortalTestApp, type PortalTestApp } from '../../test/portal-test-app.ts';

/**
 * Path ids (docs/architecture.md, "Input"): every route with a parameter in its path, found in
 * the OpenAPI document, answers 400 or 404 to a value that is not a canonical id (or, for text
 * ids, not an existing one) and changes nothing.
 */

let portal: PortalTestApp;
let operations: Operation[];
/** Every route, with or without a path parameter. */
let allOperations: Operation[];
/** A real value for every path parameter, so that only the one under test is wrong. */
let existing: Record<string, string>;
/** Values a text parameter must not be given here (they name real rows). */
let realTextIds: Set<string>;
/** A real entity: the `{id}` of the entity profile routes. */
let entityId: string;

beforeAll(async () => {
  portal = await createPortalTestApp({ eventWorkersEnabled: false });
  const { db } = portal.testApp.database;
  allOperations = await loadOperations(portal.testApp.app);
  operations = allOperations.filter((operation) =>
    operation.parameters.some((parameter) => parameter.in === 'path'),
  );
  const user = await db
    .selectFrom('entity_users')
    .select(['party_user_id', 'keys'])
    .where(sql<boolean>`keys <> '{}'::jsonb`)
    .executeTakeFirstOrThrow();
  const documentTypes = await db.selectFrom('document_types').select('id').execute();
  const users = await db.selectFrom('entity_users').select('party_user_id').execute();
  const keyName = Object.keys(user.keys as Record<string, string>)[0] ?? 'missing';
  // A form with a group and a FileUpload field, so that the forms' and profiles' paths name rows.
  const [fieldId] = await insertFields(db, [
    { name: 'PathIdsFile', type: 'FileUpload', uiGroup: 'PathIdsGroup' },
  ]);
  await insertForm(db, 'PathIdsForm', [fieldId!]);
  const forms = await db.selectFrom('forms').select(['id', 'name']).execute();
  const fields = await db.selectFrom('form_fields').select(['name', 'ui_group']).execute();
  const entities = await db.selectFrom('entities').select('party_entity_id').execute();
  existing = {
    userId: user.party_user_id,
    keyName,
    name: 'PathIdsForm',
    nameOrId: 'PathIdsForm',
    group: 'PathIdsGroup',
    field: 'PathIdsFile',
  };
  entityId = entities[0]!.party_entity_id;
  realTextIds = new Set([
    ...documentTypes.map((row) => row.id),
    ...users.map((row) => row.party_user_id),
    keyName,
    // Names are looked up whatever their letter case.
    ...[
      ...forms.map((row) => row.name),
      ...fields.flatMap((row) => [row.name, row.ui_group]),
    ].flatMap((name) => [name, name.toLowerCase(), name.toUpperCase()]),
    // `{nameOrId}` takes a form's id in plain digits too.
    ...forms.map((row) => String(row.id)),
    ...entities.map((row) => row.party_entity_id),
  ]);
});

afterAll(async () => {
  await portal.close();
});

/** Valid bodies of the routes with a path id: only the id is wrong in these requests. */
const VALID_BODIES: Record<string, unknown> = {
  'PUT /api/tenants/{id}': { companyName: 'Renamed', domicileCountryId: 250, namespaces: [] },
  'PUT /api/documenttypes/{id}': { displayName: 'Renamed' },
  'PUT /svc/formauthoring/fields/{id}': { name: 'PathIdField', displayName: 'P', type: 'Text' },
  'PUT /svc/formauthoring/{name}': { name: 'NoSuchForm', fields: [] },
  'PUT /api/emailtemplates/{id}': {
    templateKey: 'tenant-user-invitation',
    productType: 0,
    productScope: 0,
    activeVersionId: null,
  },
  'POST /svc/formauthoring/{nameOrId}/submit': { DataObject: {} },
};

const CANONICAL = /^[1-9][0-9]*$/;

/** Whether the route of `operation` serves `path` (its parameters match any one segment). */
function servesPath(operation: Operation, path: string): boolean {
  const pattern = operation.path
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`, 'i').test(path);
}

/** Spellings of a real id that a coercion would read as that id. */
const spellingsOf = (id: number) => [
  `0${id}`,
  `+${id}`,
  ` ${id} `,
  `${id}.0`,
  `${id}e0`,
  `0x${id.toString(16)}`,
  `0b${id.toString(2)}`,
  `0o${id.toString(8)}`,
  `${id}\u0000`,
  `${id}%`,
];

const ISSUE_EXAMPLES = ['0b1', '0x71', '1.13e2', '000113', '+113', ' 113 ', '113.0', '0o7'];

function hostileValue(isNumeric: boolean) {
  const strings = fc.oneof(
    fc.constantFrom(...ISSUE_EXAMPLES),
    fc.integer({ min: 1, max: 120 }).chain((id) => fc.constantFrom(...spellingsOf(id))),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.stringMatching(/^[-+ 0]?[0-9]{0,12}([.eE][0-9]{0,3})?$/),
  );
  // A canonical number is an id (answered 404 when no row has it); a real text id is a row.
  return strings.filter((value) =>
    isNumeric ? !CANONICAL.test(value) : value !== '' && !realTextIds.has(value),
  );
}

describe('every route with a path id', () => {
  it('is known to this test (a valid body for each that needs one)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(6);
    for (const operation of operations.filter((op) => op.body && op.method !== 'POST')) {
      expect(VALID_BODIES, `${operation.method} ${operation.path}`).toHaveProperty([
        `${operation.method} ${operation.path}`,
      ]);
    }
  });

  it('refuses the spellings of the issue on tenants, tenant users and event resets', async () => {
    const before = await snapshotDatabase(portal.testApp.database.db);
    for (const path of ['/api/tenants/{id}', '/api/tenantusers/{id}', '/api/events/{id}/reset']) {
      for (const operation of operations.filter((op) => op.path === path)) {
        for (const id of ISSUE_EXAMPLES) {
          const response = await send(operation, 'id', id);
          expect(response.statusCode, `${operation.method} ${path} ${JSON.stringify(id)}`).toBe(
            400,
          );
          expect(response.json().errors).toEqual([
            { path: 'id', message: expect.stringMatching(/^id must be a whole number from 1 to /) },
          ]);
        }
      }
    }
    expect(await snapshotDatabase(portal.testApp.database.db)).toEqual(before);
  });

  it('answers 400 or 404 to any other value and changes nothing', async () => {
    const before = await snapshotDatabase(portal.testApp.database.db);
    for (const operation of operations) {
      for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
        const isNumeric = parameter.schema.pattern === CANONICAL.source;
        await fc.assert(
          fc.asyncProperty(hostileValue(isNumeric), async (value) => {
            // `GET /api/emailtemplates/` (and `/.`, the same path once resolved) is the list (a
            // trailing slash is ignored), not a read; `PUT /svc/formauthoring/fields/` is the
            // update of a form named 'fields' (refused there, under its own parameter).
            const parent = operation.path.replace(`/{${parameter.name}}`, '');
            if (
              (value === '' || value === '.') &&
              allOperations.some((o) => o.method === operation.method && servesPath(o, parent))
            ) {
              return;
            }
            const response = await send(operation, parameter.name, value);
            const where = `${operation.method} ${operation.path} ${parameter.name}=${JSON.stringify(value)}`;
            expect([400, 404], where).toContain(response.statusCode);
            if (response.statusCode === 400 && isNumeric) {
              expect(response.json().errors?.[0]?.path, where).toBe(parameter.name);
            }
          }),
          { numRuns: 40 },
        );
      }
    }
    expect(await snapshotDatabase(portal.testApp.database.db)).toEqual(before);
  });
});

function send(operation: Operation, name: string, value: string) {
  // The entity profile routes take a party entity id as their {id}.
  const id = operation.path.startsWith('/svc/formusage/entity/') ? entityId : '1';
  const values: Record<string, string> = { ...existing, id, [name]: value };
  const body = VALID_BODIES[`${operation.method} ${operation.path}`];
  return portal.call('admin', operation.method as 'PUT', urlOf(operation, values), body);
}
