import { JSON_DEPTH_MAX } from '@console/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDatabase } from '../../test/database-snapshot.ts';
import {
  dotted,
  fieldsOf,
  isWrite,
  KEY,
  lastName,
  loadOperations,
  namesField,
  pathValues,
  sample,
  sampleParts,
  urlOf,
  withValue,
  type JsonSchema,
  type Operation,
} from '../../test/openapi.ts';
import { multipart, type TextPart } from '../../test/multipart.ts';
import { createPortalTestApp, type PortalTestApp } from '../../test/portal-test-app.ts';

/**
 * Hostile input over every endpoint of the OpenAPI document (docs/architecture.md, "Input"), so
 * that a new endpoint is covered without editing this test: for every string field of every write
 * body, a NUL, both halves of a lone surrogate, an over-long value; for every body, deep nesting
 * and a UTF-16 charset; for every query and path parameter, the same texts; for every text part
 * of a multipart body, the same texts (a lone surrogate in a part declared UTF-16). Each gets a 4xx
 * that names the field, nothing is written, and no request answers 500.
 */

let portal: PortalTestApp;
let operations: Operation[];

beforeAll(async () => {
  portal = await createPortalTestApp({ eventWorkersEnabled: false });
  operations = await loadOperations(portal.testApp.app);
});

afterAll(async () => {
  await portal.close();
});

const HOSTILE_TEXTS = [
  ['a NUL', 'a\u0000b'],
  ['a lone high surrogate', 'a\ud800b'],
  ['a lone low surrogate', 'a\udc00b'],
] as const;

/** Over the field's maximum, or far beyond any reasonable value when the schema names none. */
const overLong = (schema: JsonSchema) => 'x'.repeat((schema.maxLength ?? 100_000) + 1);

function nest(levels: number): unknown {
  let value: unknown = 'deep';
  for (let level = 0; level < levels; level++) value = { level: value };
  return value;
}

const send = (operation: Operation, body: unknown, headers?: Record<string, string>) =>
  portal.call(
    'admin',
    operation.method as 'POST',
    urlOf(operation, pathValues(operation)),
    body instanceof Buffer ? body : JSON.stringify(body),
    headers,
  );

/**
 * The database as a snapshot, but for the refused sign-ins a hostile sign-in callback records
 * (issue 31: every refused sign-in is audited, a malformed callback too) and their records.
 */
async function snapshotBesidesRefusedSignIns() {
  const snapshot = await snapshotDatabase(portal.testApp.database.db);
  const refused = new Set<number>();
  snapshot.events = (snapshot.events ?? []).filter((row) => {
    const event = JSON.parse(row) as { id: number; event_name: string };
    if (event.event_name === 'SignInRefused') refused.add(event.id);
    return !refused.has(event.id);
  });
  snapshot.processed_events = (snapshot.processed_events ?? []).filter(
    (row) => !refused.has((JSON.parse(row) as { event_id: number }).event_id),
  );
  return snapshot;
}

async function expectNothingWritten(run: () => Promise<void>) {
  const before = await snapshotBesidesRefusedSignIns();
  await run();
  expect(await snapshotBesidesRefusedSignIns()).toEqual(before);
}

describe('hostile input on every endpoint', () => {
  it('finds the write endpoints in the OpenAPI document', () => {
    const writes = operations.filter(isWrite).map((op) => `${op.method} ${op.path}`);
    expect(writes).toEqual(
      expect.arrayContaining([
        'POST /api/documenttypes',
        'PUT /api/tenants/{id}',
        'POST /api/countries/import',
      ]),
    );
  });

  it('gives every string field of a write body a maximum length or a pattern', () => {
    for (const operation of operations) {
      const body = operation.body ?? operation.multipart;
      if (!body) continue;
      for (const { path, schema } of fieldsOf(body).strings) {
        if (path.includes(KEY)) continue;
        const bounded = schema.maxLength ?? schema.pattern ?? schema.format ?? schema.enum;
        expect(bounded, `${operation.method} ${operation.path} ${dotted(path)}`).toBeDefined();
      }
    }
  });

  it('refuses NUL, lone surrogates and over-long text in every string field, naming it', async () => {
    await expectNothingWritten(async () => {
      for (const operation of operations.filter((op) => op.body)) {
        const schema = operation.body as JsonSchema;
        const base = sample(schema);
        for (const { path, schema: field } of fieldsOf(schema).strings) {
          const texts = [...HOSTILE_TEXTS, ['an over-long text', overLong(field)] as const];
          for (const [what, text] of texts) {
            if (path.includes(KEY) && what === 'an over-long text' && !field.maxLength) continue;
            const response = await send(operation, withValue(base, path, text));
            const where = `${operation.method} ${operation.path} ${dotted(path)}: ${what}`;
            expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
            expect(response.statusCode, where).toBeLessThan(500);
            expect(namesField(response, dotted(path), lastName(path)), where).toBe(true);
          }
        }
      }
    });
  });

  it('refuses a body nested deeper than the limit, naming the field', async () => {
    await expectNothingWritten(async () => {
      for (const operation of operations.filter(isWrite)) {
        const schema = operation.body ?? { type: 'object', properties: { note: {} } };
        const base = sample(schema);
        const nestedFields = fieldsOf(schema).nested;
        for (const { path } of nestedFields.length > 0 ? nestedFields : [{ path: ['note'] }]) {
          const response = await send(operation, withValue(base, path, nest(2000)));
          const where = `${operation.method} ${operation.path} ${dotted(path)}`;
          expect(response.statusCode, where).toBe(400);
          expect(response.json().message, where).toContain(
            `is nested too deeply: a JSON body may nest at most ${JSON_DEPTH_MAX} levels`,
          );
          expect(namesField(response, dotted(path), lastName(path)), where).toBe(true);
        }
      }
    });
  });

  it('answers 415 to a JSON body in UTF-16, on every write endpoint', async () => {
    await expectNothingWritten(async () => {
      for (const operation of operations.filter(isWrite)) {
        const body = Buffer.from(JSON.stringify(sample(operation.body ?? {})), 'utf16le');
        for (const charset of ['utf-16', 'UTF-16LE', 'iso-8859-1', 'utf8']) {
          const response = await send(operation, body, {
            'content-type': `application/json; charset=${charset}`,
          });
          const where = `${operation.method} ${operation.path} ${charset}`;
          expect(response.statusCode, where).toBe(415);
          expect(response.json().errors, where).toEqual([
            { path: 'content-type', message: expect.stringContaining(charset.toLowerCase()) },
          ]);
        }
      }
    });
  });

  it('refuses text that cannot be stored in bodies no schema describes', async () => {
    await expectNothingWritten(async () => {
      // A multipart endpoint has a schema (of its parts): the multipart tests below are its.
      for (const operation of operations.filter((op) => isWrite(op) && !op.body && !op.multipart)) {
        for (const [body, field] of [
          [{ note: 'a\u0000b' }, 'note'],
          [{ list: ['fine', 'x\udc00'] }, 'list.1'],
          [{ ['x\ud800']: 'y' }, 'body'],
        ] as const) {
          const response = await send(operation, body);
          const where = `${operation.method} ${operation.path} ${response.body}`;
          expect(response.statusCode, where).toBe(400);
          expect(response.json().errors, where).toEqual([
            { path: field, message: expect.stringMatching(/must not contain/) },
          ]);
        }
      }
    });
  });

  it('refuses NUL and over-long text in every query and path parameter; none answers 500', async () => {
    await expectNothingWritten(async () => {
      for (const operation of operations) {
        for (const parameter of operation.parameters) {
          if (parameter.in !== 'query' && parameter.in !== 'path') continue;
          const values = [
            ['a NUL', 'a%00b', true],
            ['an over-long text', 'x'.repeat((parameter.schema.maxLength ?? 10_000) + 1), true],
            // Percent-encoded UTF-8 of a lone surrogate: not valid UTF-8, never a 500.
            ['an encoded lone surrogate', 'a%ED%A0%80b', false],
          ] as const;
          for (const [what, value, mustRefuse] of values) {
            const url =
              parameter.in === 'path'
                ? urlOf(operation, {
                    ...pathValues(operation),
                    [parameter.name]: '\u0001',
                  }).replace('%01', value)
                : `${urlOf(operation, pathValues(operation))}?${parameter.name}=${value}`;
            const response = await portal.call('admin', operation.method as 'GET', url);
            const where = `${operation.method} ${url.slice(0, 80)} (${what})`;
            expect(response.statusCode, where).toBeLessThan(500);
            if (!mustRefuse || !/^\/(api|svc)\//.test(operation.path)) continue;
            expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
            // A path value no route has is a 404 (nothing named); a refused one names the field.
            if (response.statusCode === 400) {
              expect(namesField(response, parameter.name, parameter.name), where).toBe(true);
            }
          }
        }
      }
    });
  });
});

const sendParts = (operation: Operation, parts: TextPart[]) => {
  const { payload, headers } = multipart(parts);
  return portal.call(
    'admin',
    operation.method as 'POST',
    urlOf(operation, pathValues(operation)),
    payload,
    headers,
  );
};

describe('hostile input on every multipart endpoint', () => {
  const multipartOperations = () => operations.filter((op) => op.multipart);

  it('finds the multipart endpoints in the OpenAPI document', () => {
    expect(multipartOperations().map((op) => `${op.method} ${op.path}`)).toContain(
      'POST /svc/formusage/submit',
    );
  });

  it('answers 415 to a JSON body, naming the content type', async () => {
    await expectNothingWritten(async () => {
      for (const operation of multipartOperations()) {
        const body = Object.fromEntries(
          sampleParts(operation.multipart!).map((part) => [part.name, part.value]),
        );
        const response = await send(operation, body);
        const where = `${operation.method} ${operation.path}`;
        expect(response.statusCode, where).toBe(415);
        expect(response.json().errors, where).toEqual([
          { path: 'content-type', message: expect.stringContaining('multipart/form-data') },
        ]);
      }
    });
  });

  it('refuses NUL, lone surrogates and over-long text in every text part, naming it', async () => {
    await expectNothingWritten(async () => {
      for (const operation of multipartOperations()) {
        const schema = operation.multipart!;
        const base = sampleParts(schema);
        for (const [name, property] of Object.entries(schema.properties ?? {})) {
          const values: [string, TextPart][] = [
            ['a NUL', { name, value: 'a\u0000b' }],
            // UTF-8 cannot carry a lone surrogate; a part may declare another charset.
            ...HOSTILE_TEXTS.slice(1).map(([what, text]): [string, TextPart] => [
              `${what} (UTF-16)`,
              {
                name,
                value: Buffer.from(text, 'utf16le'),
                contentType: 'text/plain; charset=utf-16le',
              },
            ]),
            ['an over-long text', { name, value: overLong(property) }],
          ];
          for (const [what, part] of values) {
            const parts = base.map((other) => (other.name === name ? part : other));
            const response = await sendParts(operation, parts);
            const where = `${operation.method} ${operation.path} ${name}: ${what}`;
            expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
            expect(response.statusCode, where).toBeLessThan(500);
            expect(namesField(response, name, name), where).toBe(true);
          }
        }
      }
    });
  });
});
