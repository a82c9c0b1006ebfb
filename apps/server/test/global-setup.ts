import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/connection.ts';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrateTo } from '../src/db/migrator.ts';

/**
 * Once per `vitest run`: a PostgreSQL for the server suites, either the server named by
 * TEST_DATABASE_URL (its user may create databases) or an embedded cluster started here in a
 * temporary directory, plus a migrated template database. Each test file then gets its own
 * database copied from the template (test/test-database.ts), which takes milliseconds.
 */

export interface TestDatabaseServer {
  /** A connection string to the server's `postgres` database, as a user who may create databases. */
  adminUrl: string;
  /** The migrated template that createTestDatabase() copies. */
  template: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseServer: TestDatabaseServer;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopEmbedded = async () => {};
  if (!adminUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'console-test-postgres-'));
    const embedded = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, 'cluster'),
      port: 0,
      database: 'postgres',
      initdbNoSync: true,
      // A throwaway cluster: durability buys nothing here, speed does.
      settings: {
        fsync: 'off',
        synchronous_commit: 'off',
        full_page_writes: 'off',
        max_connections: '300',
      },
    });
    adminUrl = embedded.connectionString('postgres');
    stopEmbedded = async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const template = `console_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const database = openDatabase(url.toString());
  try {
    await migrateTo(database.db);
  } finally {
    await database.close();
  }
  project.provide('testDatabaseServer', { adminUrl, template });
  return async () => {
    await adminQuery(adminUrl, `drop database if exists ${template} with (force)`).catch(() => {});
    await stopEmbedded();
  };
}

export async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
