import {
  entityDisplayName,
  entityPageSchema,
  entityUserPageSchema,
  type Entity,
  type EntityUser,
} from '@console/contracts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/test-database.ts';
import { seedCountries } from '../../db/seed/countries.ts';
import { parseJsonText } from '../../http/json-text.ts';
import { listEntityUsers } from '../entity-users/queries.ts';
import { listEntities } from './queries.ts';

// The list rows PostgreSQL keeps (migrations 16 and 17) against the rules of the API, written here in
// TypeScript: whatever the platform stored in the jsonb columns, the pages show what these
// functions say, and the display name is the one the browser derives (entityDisplayName).

const database = useTestDatabase();
const db = () => database.db;
let tenantId: number;

beforeAll(async () => {
  await seedCountries(db());
  const { rows } = await sql<{ id: number }>`
    insert into tenants (company_name, domicile_country_id, created_by, updated_by)
    values ('List "Rows" \\ Ltd', 250, 'test', 'test') returning id
  `.execute(db());
  tenantId = rows[0]!.id;
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Only the text values of an object; {} for anything else. */
function textValues(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => {
      return typeof entry[1] === 'string';
    }),
  );
}

/** The entity row the API shows for what was stored. */
function expectedEntity(id: string, names: Json, country: string | null): Entity {
  const shown = { names: textValues(isObject(names) ? names.names : undefined) };
  return {
    partyEntityId: id,
    tenantId,
    tenantName: 'List "Rows" \\ Ltd',
    names: shown,
    country,
    displayName: entityDisplayName({ partyEntityId: id, names: shown }),
  };
}

/** metadata: the three names, when text. */
function expectedMetadata(metadata: Json): EntityUser['metadata'] {
  const texts = textValues(metadata);
  const shown: EntityUser['metadata'] = {};
  for (const field of ['preferredName', 'givenName', 'familyName'] as const) {
    if (texts[field] !== undefined) shown[field] = texts[field];
  }
  return shown;
}

/** keys: every key; a value that is not text shows as JSON text of the same value. */
function expectKeys(shown: Record<string, string>, stored: Json): void {
  const storedKeys = isObject(stored) ? stored : {};
  expect(Object.keys(shown).sort()).toEqual(Object.keys(storedKeys).sort());
  for (const [name, value] of Object.entries(storedKeys)) {
    if (typeof value === 'string') expect(shown[name]).toBe(value);
    else expect(JSON.parse(shown[name]!)).toEqual(value);
  }
}

// Characters JavaScript's trim removes, and look-alikes it keeps (NEL, Mongolian vowel separator,
// zero-width space, word joiner).
const TRIMMED = '\t\n\v\f\r \u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
const KEPT = '\u0085\u180e\u200b\u2060';

/** Every character of the text is ASCII. */
const isAscii = (text: string) => [...text].every((character) => character.charCodeAt(0) < 0x80);

/** Text as PostgreSQL stores it (no NUL, no lone surrogate), often with odd spaces. */
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom(...TRIMMED, ...KEPT, 'a', 'Ω', '"', '\\', '🔑') }),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map((value) => value.replaceAll('\0', '')),
);
const json: fc.Arbitrary<Json> = fc
  .jsonValue({ maxDepth: 2 })
  .map((value) => JSON.parse(JSON.stringify(value).replaceAll('\\u0000', '')) as Json);
const textOrJson = fc.oneof(text, json);

const storedNames = fc.oneof(
  { weight: 4, arbitrary: fc.record({ names: fc.dictionary(text, textOrJson, { maxKeys: 3 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      names: fc.record({ entityName: textOrJson }),
    }),
  },
  { weight: 1, arbitrary: json },
);
const storedMetadata = fc.oneof(
  fc.record(
    { preferredName: textOrJson, givenName: textOrJson, familyName: textOrJson, other: text },
    { requiredKeys: [] },
  ),
  json,
);
const storedKeys = fc.oneof(fc.dictionary(text, textOrJson, { maxKeys: 4 }), json);

/**
 * The stored JSON without members named `__proto__`: the contracts' records (zod) set a prototype
 * for that name instead of a key, so a client reading the page through them loses such a member
 * (a limit of the contracts, not of the rows, which keep it).
 */
function withoutProtoMembers<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (name, member: unknown) =>
    name === '__proto__' ? undefined : member,
  ) as T;
}

const rowsArbitrary = fc.array(
  fc
    .record({
      names: storedNames,
      country: fc.option(fc.constantFrom('GB', 'FR', 'DE')),
      metadata: storedMetadata,
      keys: storedKeys,
    })
    .map(withoutProtoMembers),
  { minLength: 1, maxLength: 8 },
);

describe('list rows kept by PostgreSQL', () => {
  it('show what the rules say, whatever the platform stored', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(rowsArbitrary, async (rows) => {
        run += 1;
        const ids = rows.map((_, index) => `r${run}-${String(index).padStart(2, '0')}`);
        await db()
          .transaction()
          .execute(async (trx) => {
            await sql`delete from entity_users`.execute(trx);
            await sql`delete from entities`.execute(trx);
            for (const [index, row] of rows.entries()) {
              const id = ids[index]!;
              await sql`
              insert into entities (party_entity_id, tenant_id, names, country)
              values (${id}, ${tenantId}, ${JSON.stringify(row.names)}::jsonb, ${row.country})
            `.execute(trx);
              await sql`
              insert into entity_users
                (party_user_id, party_entity_id, tenant_id, type, state, metadata, keys)
              values (${`u-${id}`}, ${id}, ${tenantId}, 1, 'active',
                ${JSON.stringify(row.metadata)}::jsonb, ${JSON.stringify(row.keys)}::jsonb)
            `.execute(trx);
            }
          });
        const query = { offset: 0, limit: 100, tenantId } as const;
        const entityPage = await listEntities(db(), tenantId, { ...query, sort: 'partyEntityId' });
        const userPage = await listEntityUsers(db(), tenantId, { ...query, sort: 'partyUserId' });
        // Kept as ASCII (migration 17): what lies beyond it is escaped, and parses back below.
        expect(isAscii(entityPage.text)).toBe(true);
        expect(isAscii(userPage.text)).toBe(true);
        const entities = parseJsonText(entityPage);
        const users = parseJsonText(userPage);
        expect(entityPageSchema.parse(entities)).toEqual(entities);
        expect(entityUserPageSchema.parse(users)).toEqual(users);

        const expected = rows.map((row, index) =>
          expectedEntity(ids[index]!, row.names, row.country),
        );
        expect(entities.data).toEqual(expected);
        expect(users.data.map((user) => user.entityName)).toEqual(
          expected.map((entity) => entity.displayName),
        );
        for (const [index, row] of rows.entries()) {
          const user = users.data[index]!;
          expect(user.metadata).toEqual(expectedMetadata(row.metadata));
          expectKeys(user.keys, row.keys);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('trim names exactly as JavaScript does, for every character of the BMP', async () => {
    // Each character around a letter: trimmed on both sides or kept on both sides.
    const { rows } = await sql<{ code: number; trimmed: string }>`
      select code, console_js_trim(chr(code) || 'x' || chr(code)) as trimmed
      from generate_series(1, 65535) as code
      where code not between 55296 and 57343
    `.execute(db());
    expect(rows).toHaveLength(65535 - 2048);
    const differing = rows.filter(({ code, trimmed }) => {
      const character = String.fromCharCode(code);
      return trimmed !== `${character}x${character}`.trim();
    });
    expect(differing.map(({ code }) => code.toString(16))).toEqual([]);
  });

  it('follow a renamed tenant and a renamed entity', async () => {
    await sql`delete from entity_users`.execute(db());
    await sql`delete from entities`.execute(db());
    await sql`
      insert into entities (party_entity_id, tenant_id, names)
      values ('renamed', ${tenantId}, '{"names":{"entityName":"Before"}}')
    `.execute(db());
    await sql`
      insert into entity_users (party_user_id, party_entity_id, tenant_id, type, state)
      values ('renamed-user', 'renamed', ${tenantId}, 1, 'active')
    `.execute(db());
    await sql`update entities set names = '{"names":{"entityName":" Łódź 🔑 "}}'`.execute(db());
    await sql`update tenants set company_name = 'Żabka Sp. z o.o.' where id = ${tenantId}`.execute(
      db(),
    );
    const query = { offset: 0, limit: 100, tenantId } as const;
    const entityPage = await listEntities(db(), tenantId, { ...query, sort: 'partyEntityId' });
    const userPage = await listEntityUsers(db(), tenantId, { ...query, sort: 'partyUserId' });
    expect(isAscii(entityPage.text)).toBe(true);
    expect(isAscii(userPage.text)).toBe(true);
    expect(parseJsonText(entityPage).data[0]).toMatchObject({
      tenantName: 'Żabka Sp. z o.o.',
      displayName: 'Łódź 🔑',
    });
    expect(parseJsonText(userPage).data[0]?.entityName).toBe('Łódź 🔑');
  });
});
