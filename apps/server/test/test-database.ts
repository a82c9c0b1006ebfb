import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.ts';

/** The PostgreSQL server the suites run against (TEST_DATABASE=postgres). */
export const POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const testDatabaseKind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, empty database for one test file: in-memory PGlite, or a throwaway database on the
 * PostgreSQL server that close() drops again.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  if (testDatabaseKind === 'pglite') {
    return openDatabase({ kind: 'pglite', dataDir: 'memory://' });
  }
  const name = `console_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: 'postgres', connectionString: url.toString() });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await withAdminClient((client) =>
        client.query(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
