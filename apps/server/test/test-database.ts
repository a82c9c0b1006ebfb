import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.ts';
import { adminQuery } from './global-setup.ts';
import { useSuiteFixture } from './suite-fixture.ts';

/**
 * A database of its own for one test file, on the suite's PostgreSQL (test/global-setup.ts):
 * migrated (a copy of the template, in milliseconds) or, with `{ empty: true }`, without any
 * table. close() drops it.
 */
export async function createTestDatabase(
  options: { empty?: boolean } = {},
): Promise<DatabaseHandle> {
  const { adminUrl, template } = inject('testDatabaseServer');
  const name = `console_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await adminQuery(
    adminUrl,
    `create database ${name}${options.empty ? '' : ` template ${template}`}`,
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase(url.toString());
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * A database of its own for the suite: made in beforeAll, dropped in afterAll. Its members read
 * the database the hook made: use them inside hooks and tests only.
 */
export function useTestDatabase(
  options: { empty?: boolean } = {},
): Pick<DatabaseHandle, 'db' | 'connectionString'> {
  const database = useSuiteFixture(() => createTestDatabase(options));
  return {
    get db() {
      return database().db;
    },
    get connectionString() {
      return database().connectionString;
    },
  };
}
