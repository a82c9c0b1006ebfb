import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { usePortalTestApp } from '../../../test/portal-test-app.ts';

// The totals of the entity lists come from list_counts (migration 8), kept by triggers: after
// every kind of write, the API's totalCount must equal count(*), per tenant and over all tenants.

const portal = usePortalTestApp();
const db = () => portal.testApp.database.db;
let tenants: number[];

const LISTS = [
  { table: 'entities', path: '/api/Entity' },
  { table: 'entity_users', path: '/api/EntityUser' },
] as const;

beforeAll(async () => {
  const created = await portal.call('staff', 'POST', '/api/tenants', {
    companyName: 'Counted Tenant',
    domicileCountryId: 250,
    namespaces: ['counted'],
  });
  tenants = [portal.acmeId, portal.globexId, created.json<{ id: number }>().id];
});

async function apiTotal(path: string, tenantId?: number): Promise<number> {
  const query = tenantId === undefined ? '' : `&tenantId=${tenantId}`;
  const response = await portal.call('staff', 'GET', `${path}?limit=1${query}`);
  expect(response.statusCode).toBe(200);
  return response.json<{ totalCount: number }>().totalCount;
}

async function expectExactTotals(step: string) {
  for (const { table, path } of LISTS) {
    const counted = await sql<{ tenant_id: number; rows: number }>`
      select tenant_id, count(*)::int as rows from ${sql.table(table)} group by tenant_id
    `.execute(db());
    const rowsOf = (tenantId: number) =>
      counted.rows.find((row) => row.tenant_id === tenantId)?.rows ?? 0;
    const all = counted.rows.reduce((sum, row) => sum + row.rows, 0);
    expect(await apiTotal(path), `${step}: ${table}, all tenants`).toBe(all);
    for (const tenantId of tenants) {
      expect(await apiTotal(path, tenantId), `${step}: ${table}, tenant ${tenantId}`).toBe(
        rowsOf(tenantId),
      );
    }
  }
}

/** `rows` entities (with one user each) spread over `tenants`, ids starting with `prefix`. */
async function insertRows(prefix: string, rows: number, tenantIds: readonly number[]) {
  await sql`
    insert into entities (party_entity_id, tenant_id)
    select ${prefix} || i, (${sql.val(tenantIds)}::int[])[1 + i % ${tenantIds.length}]
    from generate_series(1, ${rows}::int) as i
  `.execute(db());
  await sql`
    insert into entity_users (party_user_id, party_entity_id, tenant_id, type, state)
    select 'user-' || party_entity_id, party_entity_id, tenant_id, 1, 'active'
    from entities where party_entity_id like ${`${prefix}%`}
  `.execute(db());
}

describe('totalCount of the entity lists', () => {
  it('equals count(*) after inserts, updates, moves and deletes, per tenant and overall', async () => {
    await expectExactTotals('seeded');

    await insertRows('count-a-', 57, tenants);
    await expectExactTotals('multi-row insert over three tenants');

    await db()
      .updateTable('entities')
      .set({ country: 'FR' })
      .where('party_entity_id', 'like', 'count-a-%')
      .execute();
    await expectExactTotals('update that moves nothing');

    await db()
      .updateTable('entity_users')
      .set({ tenant_id: tenants[2]! })
      .where('party_user_id', 'like', 'user-count-a-1%')
      .execute();
    await expectExactTotals('users moved to another tenant');

    await db()
      .deleteFrom('entity_users')
      .where('party_user_id', 'like', 'user-count-a-2%')
      .execute();
    await db()
      .deleteFrom('entities')
      .where('party_entity_id', 'like', 'count-a-2%')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('entity_users')
              .select('party_user_id')
              .whereRef('entity_users.party_entity_id', '=', 'entities.party_entity_id'),
          ),
        ),
      )
      .execute();
    await expectExactTotals('deletes');
  });

  it('stays exact under concurrent writers and rolled-back writes', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, writer) =>
        insertRows(`count-c${writer}-`, 25, writer % 2 ? tenants : [...tenants].reverse()),
      ),
    );
    await expectExactTotals('eight concurrent multi-tenant inserts');

    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('entities')
            .values({
              party_entity_id: 'count-rolled-back',
              tenant_id: tenants[0]!,
              names: '{"names":{}}',
            })
            .execute();
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    await expectExactTotals('rolled back insert');
  });

  it('counts one page and the same total in the same snapshot as the rows', async () => {
    const response = await portal.call('staff', 'GET', `/api/Entity?tenantId=${tenants[2]}`);
    const page = response.json<{ data: unknown[]; totalCount: number }>();
    expect(page.data).toHaveLength(Math.min(page.totalCount, 100));
  });

  it('answers 404 for an unknown tenant, as before', async () => {
    for (const { path } of LISTS) {
      expect((await portal.call('staff', 'GET', `${path}?tenantId=999999`)).statusCode).toBe(404);
    }
  });

  it('is emptied by a truncate', async () => {
    await sql`truncate entity_users`.execute(db());
    await expectExactTotals('truncate');
    expect(await apiTotal('/api/EntityUser')).toBe(0);
  });
});
