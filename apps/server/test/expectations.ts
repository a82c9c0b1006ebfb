import type { LightMyRequestResponse } from 'fastify';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../src/db/schema.ts';

/** Assertions the endpoint tests make again and again: how a refusal reads, what survived. */

/** Asserts a refusal: the answer has `status` and says `message`. */
export function expectRefusal(
  response: LightMyRequestResponse,
  status: number,
  message: string,
): void {
  expect(response.statusCode).toBe(status);
  expect(response.json().message).toBe(message);
}

/** Asserts a 400 whose whole answer is `message`, for the one field at `path`. */
export function expectFieldError(
  response: LightMyRequestResponse,
  path: string,
  message: string,
): void {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({ message, errors: [{ path, message }] });
}

/** How many of the tables `names` exist: a statement smuggled into a value would drop one. */
export async function countTables(db: Kysely<Database>, names: readonly string[]): Promise<number> {
  const tables = await sql<{ count: number }>`
    select count(*)::int as count from information_schema.tables
    where table_name in (${sql.join(names)})
  `.execute(db);
  return tables.rows[0]?.count ?? 0;
}

/**
 * Asserts that `query` reads through indexes only. The planner is told not to scan tables, so that
 * a plan without an index means there is none for the query (a small table would be scanned
 * whatever the indexes).
 */
export async function expectIndexBacked(
  db: Kysely<Database>,
  query: { sql: string; parameters: readonly unknown[] },
): Promise<void> {
  const plan = await db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const explained = await trx.executeQuery<{ 'QUERY PLAN': unknown }>({
      ...CompiledQuery.raw(query.sql, [...query.parameters]),
      sql: `explain (format json) ${query.sql}`,
    });
    return JSON.stringify(explained.rows[0]?.['QUERY PLAN']);
  });
  expect(plan).not.toContain('Seq Scan');
  expect(plan).toMatch(/Index|Bitmap/);
}
