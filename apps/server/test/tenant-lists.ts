import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import type { Database } from '../src/db/schema.ts';
import type { PortalTestApp } from './portal-test-app.ts';

/** What the tests of the tenant-scoped lists share: their rows in order, and their bad queries. */

/** `column` of the rows of `table` that belong to `tenantId`, in the database's order of it. */
export async function tenantColumn(
  db: Kysely<Database>,
  table: 'entities' | 'entity_users' | 'tenant_namespaces',
  column: string,
  tenantId: number,
): Promise<string[]> {
  const { rows } = await sql<{ value: string }>`
    select ${sql.ref(column)} as value from ${sql.table(table)}
    where tenant_id = ${tenantId} order by ${sql.ref(column)}
  `.execute(db);
  return rows.map((row) => row.value);
}

const OFFSET = 'offset must be a whole number from 0 to 9007199254740991';
const LIMIT = 'limit must be a whole number from 1 to 9007199254740991';
const TENANT_ID = 'tenantId must be a whole number from 1 to 2147483647';

/** Paging and tenant queries every entity list refuses, with the message that names the field. */
const BAD_LIST_QUERIES: readonly (readonly [string, string])[] = [
  ['?offset=-1', OFFSET],
  ['?offset=abc', OFFSET],
  ['?offset=1.5', OFFSET],
  ['?offset=1e3', OFFSET],
  ['?offset=99999999999999999', OFFSET],
  ['?offset=1&offset=2', OFFSET],
  ['?limit=0', LIMIT],
  ['?limit=-10', LIMIT],
  ['?limit=ten', LIMIT],
  ['?limit=2.5', LIMIT],
  ['?limit=10;drop table entities', LIMIT],
  ['?tenantId=0', TENANT_ID],
  ['?tenantId=-3', TENANT_ID],
  ['?tenantId=acme', TENANT_ID],
];

/**
 * One test for each bad query of the list at `path` (BAD_LIST_QUERIES, then the list's own
 * `badSorts`): each answers 400 with its message.
 */
export function itRefusesBadListQueries(
  portal: Pick<PortalTestApp, 'call'>,
  path: string,
  badSorts: readonly (readonly [string, string])[],
): void {
  it.each([...BAD_LIST_QUERIES, ...badSorts])('answers 400 for %s', async (query, message) => {
    const response = await portal.call('staff', 'GET', `${path}${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });
}
