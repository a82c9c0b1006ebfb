import { KEY_DELETION_REQUIRED_MESSAGE, LIST_LIMIT_DEFAULT } from '@console/contracts';
import {
  apiPath,
  entityUserPageSchema,
  entityUsersApi,
  type EntityUserPage,
} from '@console/contracts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HTML_INJECTION, SQL_INJECTION } from '../../../test/callers.ts';
import { expectRefusal } from '../../../test/expectations.ts';
import { CALLER_EMAILS, usePortalTestApp, type Caller } from '../../../test/portal-test-app.ts';
import { itRefusesBadListQueries, tenantColumn } from '../../../test/tenant-lists.ts';
import { eventsAfter, failRecordingOf, lastEventId } from '../../../test/recorded-events.ts';

const portal = usePortalTestApp();
const db = () => portal.testApp.database.db;

/** Key names that must survive URL encoding: spaces, slashes, brackets, unicode, and more. */
const SPECIAL_KEYS = [
  'key with spaces',
  'a/b/c',
  'scopes[0]',
  'ключ ✓ 鍵 🔑',
  'percent%20literal',
  'query?x=1&y=2',
  '#fragment',
  'plus+sign',
  'back\\slash',
  '...',
  '.hidden',
  'API_Key',
  SQL_INJECTION,
  HTML_INJECTION,
];

const FIXTURE_USER = 'fixture-user-1';
const FIXTURE_ENTITY = 'fixture-entity-1';

beforeAll(async () => {
  await db()
    .insertInto('entities')
    .values({
      party_entity_id: FIXTURE_ENTITY,
      tenant_id: portal.acmeId,
      names: JSON.stringify({ names: { entityName: 'Fixture Holdings' } }),
      country: 'US',
    })
    .execute();
});

/** The fixture user of Acme, with every special key, its keys reset before each test. */
beforeEach(async () => {
  await db().deleteFrom('entity_users').where('party_user_id', '=', FIXTURE_USER).execute();
  await db()
    .insertInto('entity_users')
    .values({
      party_user_id: FIXTURE_USER,
      party_entity_id: FIXTURE_ENTITY,
      tenant_id: portal.acmeId,
      type: 7,
      state: 'active',
      email: null,
      metadata: JSON.stringify({
        givenName: 'Fix',
        familyName: 'Ture',
        nickname: 'F',
        preferredName: 42,
      }),
      keys: JSON.stringify({
        ...Object.fromEntries(SPECIAL_KEYS.map((name, index) => [name, `value-${index}`])),
        api_key: 'sk_live_x',
        numeric: 12,
      }),
    })
    .execute();
});

async function storedKeys(userId = FIXTURE_USER): Promise<Record<string, unknown>> {
  const row = await db()
    .selectFrom('entity_users')
    .select('keys')
    .where('party_user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.keys;
}

/** A page as the API answers it, checked against the contract (the route does not check it). */
const list = async (caller: Caller, query = ''): Promise<EntityUserPage> => {
  const response = await portal.call(caller, 'GET', `/api/EntityUser${query}`);
  expect(response.statusCode).toBe(200);
  const page: EntityUserPage = response.json();
  // Parsing drops what the schema does not name: equal means nothing more and nothing wrong.
  expect(entityUserPageSchema.parse(page)).toEqual(page);
  return page;
};

const deleteKey = (caller: Caller, userId: string, keyName: string) =>
  portal.call(caller, 'DELETE', apiPath(entityUsersApi.deleteKey, { userId, keyName }));

const userIdsInOrder = (tenantId: number) =>
  tenantColumn(db(), 'entity_users', 'party_user_id', tenantId);

describe('GET /api/EntityUser', () => {
  it('answers a page of the spec fields with keys and the entity name', async () => {
    const page = await list('staff', `?tenantId=${portal.acmeId}&limit=1000`);
    const ids = await userIdsInOrder(portal.acmeId);
    expect(page.totalCount).toBe(ids.length);
    expect(page.data.map((user) => user.partyUserId)).toEqual(ids);
    expect(page.data.find((user) => user.partyUserId === FIXTURE_USER)).toEqual({
      partyUserId: FIXTURE_USER,
      partyEntityId: FIXTURE_ENTITY,
      entityName: 'Fixture Holdings',
      tenantId: portal.acmeId,
      type: 7,
      state: 'active',
      email: null,
      metadata: { givenName: 'Fix', familyName: 'Ture' },
      keys: {
        ...Object.fromEntries(SPECIAL_KEYS.map((name, index) => [name, `value-${index}`])),
        api_key: 'sk_live_x',
        numeric: '12',
      },
    });
    const demoUser = page.data.find((user) => user.partyUserId !== FIXTURE_USER);
    const stored = await db()
      .selectFrom('entity_users')
      .selectAll()
      .where('party_user_id', '=', demoUser?.partyUserId ?? '')
      .executeTakeFirstOrThrow();
    expect(demoUser).toMatchObject({
      partyEntityId: stored.party_entity_id,
      type: stored.type,
      state: stored.state,
      email: stored.email,
      metadata: stored.metadata,
      keys: stored.keys,
    });
  });

  it('lists every tenant for staff, 100 rows by default, in pages that add up', async () => {
    const first = await list('admin');
    expect(first.limit).toBe(LIST_LIMIT_DEFAULT);
    expect(first.data).toHaveLength(LIST_LIMIT_DEFAULT);
    const rest = await list('admin', `?offset=${LIST_LIMIT_DEFAULT}&limit=1000`);
    expect(rest.totalCount).toBe(first.totalCount);
    const all = [...first.data, ...rest.data].map((user) => user.partyUserId);
    expect(all).toHaveLength(first.totalCount);
    expect(new Set(all).size).toBe(all.length);
  });

  it('pages through a tenant in both orders, also past the middle', async () => {
    const expected = await userIdsInOrder(portal.globexId);
    for (const [sort, order] of [
      ['', expected],
      ['&sort=-partyUserId', [...expected].reverse()],
    ] as const) {
      const seen: string[] = [];
      for (let offset = 0; offset < expected.length; offset += 9) {
        const page = await list('globex', `?offset=${offset}&limit=9${sort}`);
        seen.push(...page.data.map((user) => user.partyUserId));
      }
      expect(seen).toEqual(order);
    }
  });

  it("shows a tenant user only its own tenant's users; another tenant's id answers 404", async () => {
    const page = await list('globex', '?limit=1000');
    expect(page.data.map((user) => user.partyUserId)).toEqual(
      await userIdsInOrder(portal.globexId),
    );
    expect(page.data.every((user) => user.tenantId === portal.globexId)).toBe(true);

    const acme = await portal.call('globex', 'GET', `/api/EntityUser?tenantId=${portal.acmeId}`);
    expect(acme.statusCode).toBe(404);
    expect(acme.json()).toEqual({ message: `Tenant ${portal.acmeId} not found.` });
    expect(acme.body).not.toContain(FIXTURE_USER);
    expect(acme.body).not.toContain('sk_live');
  });

  itRefusesBadListQueries(portal, '/api/EntityUser', [
    ['?sort=-partyEntityId', 'sort must be one of partyUserId, -partyUserId'],
  ]);

  it(`lowers a limit above the cap, and answers an empty page past the end`, async () => {
    expect((await list('staff', '?limit=100000')).limit).toBe(1000);
    const past = await list('staff', '?offset=100000&limit=5');
    expect(past.data).toEqual([]);
    expect(past.totalCount).toBeGreaterThan(100);
  });
});

describe('DELETE /api/EntityUser/{userId}/keys/{keyName}', () => {
  it('lets an admin delete a key (204): only that key goes, the row is stamped', async () => {
    const response = await deleteKey('admin', FIXTURE_USER, 'api_key');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const keys = await storedKeys();
    expect(keys).not.toHaveProperty('api_key');
    expect(Object.keys(keys)).toHaveLength(SPECIAL_KEYS.length + 1);
    const row = await db()
      .selectFrom('entity_users')
      .select(['updated_by', 'updated_at'])
      .where('party_user_id', '=', FIXTURE_USER)
      .executeTakeFirstOrThrow();
    expect(row.updated_by).toBe(CALLER_EMAILS.admin);
    expect(row.updated_at?.getTime()).toBeGreaterThan(Date.now() - 60_000);

    const listed = await list('admin', `?tenantId=${portal.acmeId}&limit=1000`);
    expect(listed.data.find((user) => user.partyUserId === FIXTURE_USER)?.keys).not.toHaveProperty(
      'api_key',
    );
  });

  it.each(SPECIAL_KEYS)('deletes the key %j named URL-encoded', async (keyName) => {
    const response = await deleteKey('admin', FIXTURE_USER, keyName);
    expect(response.statusCode).toBe(204);
    const keys = await storedKeys();
    expect(keys).not.toHaveProperty([keyName]);
    expect(Object.keys(keys)).toHaveLength(SPECIAL_KEYS.length + 1);
  });

  it("answers 404 'Key no longer exists' for a key the user does not have (names are case-sensitive)", async () => {
    for (const keyName of ['api_KEY', 'missing', 'api_key ']) {
      const response = await deleteKey('admin', FIXTURE_USER, keyName);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        message: 'Key no longer exists',
        partyUserId: FIXTURE_USER,
        keyName,
      });
    }
    expect(await deleteKey('admin', FIXTURE_USER, 'api_key')).toHaveProperty('statusCode', 204);
    const again = await deleteKey('admin', FIXTURE_USER, 'api_key');
    expectRefusal(again, 404, 'Key no longer exists');
  });

  it('answers 404 for an unknown user', async () => {
    const response = await deleteKey('admin', 'no-such-user', 'api_key');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      message: 'Entity user no-such-user not found.',
      partyUserId: 'no-such-user',
    });
  });

  it.each([
    '/api/EntityUser/fixture-user-1/keys/',
    '/api/EntityUser/fixture-user-1/keys',
    '/api/EntityUser//keys/api_key',
    '/api/entityuser/fixture-user-1/KEYS/',
  ])(`answers 400 '${KEY_DELETION_REQUIRED_MESSAGE}' for %s`, async (url) => {
    const response = await portal.call('admin', 'DELETE', url);
    expectRefusal(response, 400, KEY_DELETION_REQUIRED_MESSAGE);
    expect(Object.keys(await storedKeys())).toHaveLength(SPECIAL_KEYS.length + 2);
  });

  it('answers 400 for a NUL in the key name, and for a malformed escape', async () => {
    const nul = await portal.call('admin', 'DELETE', `/api/EntityUser/${FIXTURE_USER}/keys/a%00b`);
    expectRefusal(nul, 400, 'keyName must not contain the NUL character');
    const malformed = await portal.call(
      'admin',
      'DELETE',
      `/api/EntityUser/${FIXTURE_USER}/keys/%ZZ`,
    );
    expect(malformed.statusCode).toBe(400);
  });

  it.each([
    ['anonymous', 401],
    ['staff', 403],
    ['acme', 403],
    ['globex', 403],
    ['noRole', 403],
  ] as const)('refuses %s with %i and keeps the key', async (caller, status) => {
    const response = await deleteKey(caller, FIXTURE_USER, 'api_key');
    expect(response.statusCode).toBe(status);
    expect(response.body).not.toContain('sk_live');
    expect(await storedKeys()).toHaveProperty('api_key', 'sk_live_x');
  });
});

describe('domain event of a key deletion', () => {
  it("records EntityUserKeyDeleted for the user's tenant and entity, naming the key, never its value", async () => {
    const since = await lastEventId(db());
    expect((await deleteKey('admin', FIXTURE_USER, 'api_key')).statusCode).toBe(204);
    const events = await eventsAfter(db(), since);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        eventName: 'EntityUserKeyDeleted',
        tenantId: portal.acmeId,
        entityId: FIXTURE_ENTITY,
        metadata: {
          actor: CALLER_EMAILS.admin,
          action: 'delete',
          partyUserId: FIXTURE_USER,
          keyName: 'api_key',
          target: { type: 'EntityUser', id: FIXTURE_USER, name: null },
          // The audit log's key list: names before and after, never a value.
          before: { keys: expect.arrayContaining(['api_key', 'numeric']) },
          after: { keys: expect.not.arrayContaining(['api_key']) },
        },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('sk_live');
  });

  it('records nothing for a deletion that fails (404, 403)', async () => {
    const since = await lastEventId(db());
    expect((await deleteKey('admin', FIXTURE_USER, 'missing')).statusCode).toBe(404);
    expect((await deleteKey('admin', 'no-such-user', 'api_key')).statusCode).toBe(404);
    expect((await deleteKey('acme', FIXTURE_USER, 'api_key')).statusCode).toBe(403);
    expect(await eventsAfter(db(), since)).toEqual([]);
  });

  it('records the event in the transaction of the write: no event, no deletion', async () => {
    const since = await lastEventId(db());
    const restore = await failRecordingOf(db(), 'EntityUserKeyDeleted');
    try {
      const response = await deleteKey('admin', FIXTURE_USER, 'api_key');
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain('sk_live');
    } finally {
      await restore();
    }
    expect(await storedKeys()).toHaveProperty('api_key', 'sk_live_x');
    expect(await eventsAfter(db(), since)).toEqual([]);
  });
});
