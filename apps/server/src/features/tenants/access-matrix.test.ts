import { apiPath, entityUsersApi } from '@console/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CALLER_EMAILS,
  CALLERS,
  usePortalTestApp,
  type Caller,
} from '../../../test/portal-test-app.ts';

/**
 * Who may call what: every endpoint of tenants, tenant users, entities and entity users against
 * every kind of caller. Tenant users (portal@acme.example, portal@globex.example) never see or
 * change the other tenant's data: every answer to one is checked for the other's names and ids.
 */

const portal = usePortalTestApp();
const db = () => portal.testApp.database.db;

/** Texts of each demo tenant that must never reach the other tenant's user. */
const secrets: Record<'acme' | 'globex', string[]> = { acme: [], globex: [] };
/** An entity user of each demo tenant, whose keys the key-deletion rows add and delete. */
const entityUserOf: Record<'acme' | 'globex', string> = { acme: '', globex: '' };

beforeAll(async () => {
  for (const [tenant, tenantId] of [
    ['acme', portal.acmeId],
    ['globex', portal.globexId],
  ] as const) {
    const entities = await db()
      .selectFrom('entities')
      .select(['party_entity_id', 'names'])
      .where('tenant_id', '=', tenantId)
      .execute();
    const users = await db()
      .selectFrom('entity_users')
      .select(['party_user_id', 'email'])
      .where('tenant_id', '=', tenantId)
      .orderBy('party_user_id')
      .execute();
    entityUserOf[tenant] = users[0]?.party_user_id ?? '';
    secrets[tenant] = [
      tenant === 'acme' ? 'Acme Corporation' : 'Globex Limited',
      `portal@${tenant}.example`,
      ...entities.map((entity) => entity.party_entity_id),
      ...users.map((user) => user.party_user_id),
    ];
  }
});

const stamp = { created_by: 'test', updated_by: 'test', updated_at: new Date() };

interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
}

interface Row {
  endpoint: string;
  /** Expected status per caller, in the order of CALLERS: anonymous staff admin acme globex noRole. */
  statuses: string;
  /** Makes what the call needs (fresh for each caller), and says what the call is. */
  prepare(caller: Caller): Promise<Request>;
  /** After a refused call: the data it aimed at is as it was. */
  unchanged?(caller: Caller): Promise<void>;
}

const matchingKey = (caller: Caller) => `matrix-key-${caller}`;

async function addKey(partyUserId: string, name: string) {
  await sql`update entity_users set keys = keys || jsonb_build_object(${name}::text, 'secret-value')
    where party_user_id = ${partyUserId}`.execute(db());
}

async function hasKey(partyUserId: string, name: string): Promise<boolean> {
  const row = await db()
    .selectFrom('entity_users')
    .select('keys')
    .where('party_user_id', '=', partyUserId)
    .executeTakeFirstOrThrow();
  return name in row.keys;
}

async function tenantRow(id: number) {
  return db().selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const demoTenantBody = (tenant: 'acme' | 'globex') =>
  tenant === 'acme'
    ? { companyName: 'Acme Corporation', domicileCountryId: 840, namespaces: ['acme'] }
    : { companyName: 'Globex Limited', domicileCountryId: 826, namespaces: ['globex'] };

const rows: Row[] = [
  {
    endpoint: 'GET /api/tenants',
    statuses: '401 200 200 403 403 403',
    prepare: async () => ({ method: 'GET', url: '/api/tenants' }),
  },
  {
    endpoint: 'POST /api/tenants',
    statuses: '401 201 201 403 403 403',
    prepare: async (caller) => ({
      method: 'POST',
      url: '/api/tenants',
      body: {
        companyName: `Matrix ${caller}`,
        domicileCountryId: 250,
        namespaces: [`m-${caller}`],
      },
    }),
    async unchanged(caller) {
      const created = await db()
        .selectFrom('tenants')
        .select('id')
        .where('company_name', '=', `Matrix ${caller}`)
        .execute();
      expect(created).toEqual([]);
    },
  },
  ...(['acme', 'globex'] as const).map((tenant): Row => ({
    endpoint: `PUT /api/tenants/{${tenant}}`,
    statuses: '401 200 200 403 403 403',
    prepare: async () => ({
      method: 'PUT',
      url: `/api/tenants/${tenant === 'acme' ? portal.acmeId : portal.globexId}`,
      body: demoTenantBody(tenant),
    }),
    async unchanged(caller) {
      const row = await tenantRow(tenant === 'acme' ? portal.acmeId : portal.globexId);
      if (caller !== 'anonymous') expect(row.updated_by).not.toBe(CALLER_EMAILS[caller]);
    },
  })),
  {
    endpoint: 'DELETE /api/tenants/{empty tenant}',
    statuses: '401 204 204 403 403 403',
    async prepare(caller) {
      const { id } = await db()
        .insertInto('tenants')
        .values({ company_name: `Doomed ${caller}`, domicile_country_id: 250, ...stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { method: 'DELETE', url: `/api/tenants/${id}` };
    },
    async unchanged(caller) {
      const kept = await db()
        .selectFrom('tenants')
        .select('id')
        .where('company_name', '=', `Doomed ${caller}`)
        .execute();
      expect(kept).toHaveLength(1);
    },
  },
  {
    endpoint: 'DELETE /api/tenants/{acme}',
    statuses: '401 409 409 403 403 403',
    prepare: async () => ({ method: 'DELETE', url: `/api/tenants/${portal.acmeId}` }),
    async unchanged() {
      expect((await tenantRow(portal.acmeId)).company_name).toBe('Acme Corporation');
    },
  },
  {
    endpoint: 'GET /api/tenantusers',
    statuses: '401 200 200 403 403 403',
    prepare: async () => ({ method: 'GET', url: '/api/tenantusers' }),
  },
  {
    endpoint: 'POST /api/tenantusers {acme}',
    statuses: '401 201 201 403 403 403',
    prepare: async (caller) => ({
      method: 'POST',
      url: '/api/tenantusers',
      body: { email: `matrix-${caller}@acme.example`, tenantId: portal.acmeId },
    }),
    async unchanged(caller) {
      const created = await db()
        .selectFrom('tenant_users')
        .select('id')
        .where('email', '=', `matrix-${caller}@acme.example`)
        .execute();
      expect(created).toEqual([]);
    },
  },
  {
    endpoint: 'DELETE /api/tenantusers/{acme user}',
    statuses: '401 204 204 403 403 403',
    async prepare(caller) {
      const { id } = await db()
        .insertInto('tenant_users')
        .values({ email: `doomed-${caller}@acme.example`, tenant_id: portal.acmeId, ...stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { method: 'DELETE', url: `/api/tenantusers/${id}` };
    },
    async unchanged(caller) {
      const kept = await db()
        .selectFrom('tenant_users')
        .select('id')
        .where('email', '=', `doomed-${caller}@acme.example`)
        .execute();
      expect(kept).toHaveLength(1);
    },
  },
  ...(['Entity', 'EntityUser'] as const).flatMap((resource): Row[] => [
    {
      endpoint: `GET /api/${resource}`,
      statuses: '401 200 200 200 200 403',
      prepare: async () => ({ method: 'GET', url: `/api/${resource}?limit=1000` }),
    },
    {
      endpoint: `GET /api/${resource}?tenantId={acme}`,
      statuses: '401 200 200 200 404 403',
      prepare: async () => ({ method: 'GET', url: `/api/${resource}?tenantId=${portal.acmeId}` }),
    },
    {
      endpoint: `GET /api/${resource}?tenantId={globex}`,
      statuses: '401 200 200 404 200 403',
      prepare: async () => ({
        method: 'GET',
        url: `/api/${resource}?tenantId=${portal.globexId}`,
      }),
    },
  ]),
  ...(['acme', 'globex'] as const).map((tenant): Row => ({
    endpoint: `DELETE /api/EntityUser/{${tenant} user}/keys/{key}`,
    statuses: '401 403 204 403 403 403',
    async prepare(caller) {
      await addKey(entityUserOf[tenant], matchingKey(caller));
      return {
        method: 'DELETE',
        url: apiPath(entityUsersApi.deleteKey, {
          userId: entityUserOf[tenant],
          keyName: matchingKey(caller),
        }),
      };
    },
    async unchanged(caller) {
      expect(await hasKey(entityUserOf[tenant], matchingKey(caller))).toBe(true);
    },
  })),
  {
    endpoint: 'DELETE /api/EntityUser/{acme user}/keys (no key name)',
    statuses: '401 403 400 403 403 403',
    prepare: async () => ({ method: 'DELETE', url: `/api/EntityUser/${entityUserOf.acme}/keys/` }),
  },
];

it('knows enough of each demo tenant to tell a leak', () => {
  for (const tenant of ['acme', 'globex'] as const) {
    expect(secrets[tenant].length).toBeGreaterThan(50);
    expect(entityUserOf[tenant]).not.toBe('');
  }
});

describe.each(rows)('$endpoint', (row) => {
  const expected = row.statuses.split(' ').map(Number);

  it.each(CALLERS.map((caller, index) => [caller, expected[index] ?? 0] as const))(
    'answers %s with %i',
    async (caller, status) => {
      const request = await row.prepare(caller);
      const response = await portal.call(caller, request.method, request.url, request.body);
      expect(response.statusCode).toBe(status);

      if (status >= 400) {
        expect(response.json()).toEqual(expect.objectContaining({ message: expect.any(String) }));
        await row.unchanged?.(caller);
      }
      // A tenant user sees nothing of the other tenant, whatever the answer.
      if (caller === 'acme' || caller === 'globex') {
        const other = caller === 'acme' ? 'globex' : 'acme';
        for (const secret of secrets[other]) expect(response.body).not.toContain(secret);
        if (status === 200 && request.method === 'GET') {
          const own = caller === 'acme' ? portal.acmeId : portal.globexId;
          const page = response.json() as { data: { tenantId: number }[]; totalCount: number };
          expect(page.data.length).toBeGreaterThan(0);
          for (const item of page.data) expect(item.tenantId).toBe(own);
        }
      }
    },
  );
});
