import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { charsetOf, findUnstorableText } from './input.ts';

/** How JSON bodies are read (docs/architecture.md, "Input"). */

let testApp: TestApp;
let token: string;

beforeAll(async () => {
  testApp = await createTestApp({ eventWorkersEnabled: false });
  token = await testApp.tokenFor('admin@example.com');
  await testApp.database.db
    .insertInto('countries')
    .values({
      id: 250,
      alpha2: 'FR',
      alpha3: 'FRA',
      name: 'France',
      created_by: 't',
      updated_by: 't',
      updated_at: new Date(),
    })
    .execute();
});

afterAll(async () => {
  await testApp.close();
});

const createTenant = (payload: string | Buffer, contentType: string) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/tenants',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });

const tenants = () => testApp.database.db.selectFrom('tenants').select('company_name').execute();

describe('JSON bodies', () => {
  it('are read when the charset is absent or UTF-8 in any letter case', async () => {
    for (const [index, contentType] of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/json; charset="Utf-8"',
    ].entries()) {
      const body = JSON.stringify({ companyName: `Société ${index}`, domicileCountryId: 250 });
      const response = await createTenant(body, contentType);
      expect(response.statusCode, contentType).toBe(201);
    }
    expect(await tenants()).toHaveLength(4);
  });

  it('answer 415 for any other charset, before reading the body', async () => {
    const body = JSON.stringify({ companyName: 'Utf Sixteen', domicileCountryId: 250 });
    for (const [charset, bytes] of [
      ['utf-16', Buffer.from(body, 'utf16le')],
      ['UTF-16BE', Buffer.from(body, 'utf16le').swap16()],
      ['latin1', Buffer.from(body, 'latin1')],
      ['', Buffer.from(body)],
    ] as const) {
      const response = await createTenant(bytes, `application/json; charset=${charset}`);
      expect(response.statusCode, charset).toBe(415);
      expect(response.json().message).toBe(
        `Content-Type: charset ${charset.toLowerCase()} is not supported; send JSON as UTF-8`,
      );
    }
    expect(await tenants()).toHaveLength(4);
  });

  it('answer 400 for bytes that are not UTF-8 (instead of storing U+FFFD)', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"companyName": "Bad '),
      Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]),
      Buffer.from('", "domicileCountryId": 250}'),
    ]);
    const response = await createTenant(bytes, 'application/json');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The body is not valid UTF-8' });
    expect(await tenants()).toHaveLength(4);
  });
});

describe('charsetOf', () => {
  it('reads the charset parameter, unquoted and lower-cased', () => {
    expect(charsetOf('application/json')).toBeNull();
    expect(charsetOf('application/json; charset=UTF-8')).toBe('utf-8');
    expect(charsetOf('application/json; boundary=x; Charset="UTF-16"')).toBe('utf-16');
    expect(charsetOf('application/json; charset=')).toBe('');
  });
});

describe('findUnstorableText', () => {
  /** Strings that are often unstorable: any UTF-16 code units, NUL among them. */
  const anyText = fc.string({ unit: 'binary', maxLength: 6 });
  const anyJson = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      anyText,
      fc.integer(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(anyText, tie('value'), { maxKeys: 4 }),
    ),
  })).value;
  // UTF-8 round trip as the oracle: a lone surrogate comes back as U+FFFD.
  const storable = (text: string) =>
    Buffer.from(text).toString() === text && !text.includes('\u0000');
  const texts = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, child]) => [key, ...texts(child)])
        : [];

  it('finds a problem exactly when some string or key cannot be stored', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        expect(findUnstorableText(value, 'body') === null).toBe(texts(value).every(storable));
      }),
    );
  });

  it('names the path of the string, or the object holding the key', () => {
    const body = { records: [{ id: 'ok' }, { id: 'a\u0000b' }], meta: { ['k\ud800']: 1 } };
    expect(findUnstorableText(body, 'body')).toEqual({
      path: 'records.1.id',
      message: 'records.1.id must not contain the NUL character',
    });
    expect(findUnstorableText({ meta: body.meta }, 'body')).toEqual({
      path: 'meta',
      message:
        'A key of meta must not contain a lone surrogate (half of a UTF-16 pair, not valid Unicode)',
    });
    expect(findUnstorableText('\u0000', 'query')?.path).toBe('query');
  });
});
