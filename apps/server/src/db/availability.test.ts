import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { freePort } from '../net/free-port.ts';
import { openDatabase, type DatabaseHandle } from './connection.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.ts';
import { migrateTo } from './migrator.ts';

// A database that is down or saturated is the server's problem, not the client's: 503 with
// Retry-After, never a 500 or a request left hanging; and service resumes when it is back.

describe('a database stopped under a running server', () => {
  let root: string;
  let port: number;
  let embedded: EmbeddedPostgres;
  let database: DatabaseHandle;
  let testApp: TestApp;
  let token: string;

  // Tenants, not a reference list: those may be answered from the cache without a connection.
  const tenants = () =>
    testApp.app.inject({
      method: 'GET',
      url: '/api/tenants',
      headers: { authorization: `Bearer ${token}` },
    });

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'console-availability-'));
    port = await freePort();
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(root, 'pg'),
      port,
      initdbNoSync: true,
    });
    database = openDatabase(embedded.connectionString(), {
      max: 4,
      statementTimeoutMs: 5_000,
      connectionTimeoutMs: 1_000,
    });
    await migrateTo(database.db);
    testApp = await createTestApp({}, { database });
    token = await testApp.tokenFor('staff@example.com');
  });
  afterAll(async () => {
    await testApp?.close();
    await database?.close();
    await embedded?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while it is down, and serves again once it is back', async () => {
    expect((await tenants()).statusCode).toBe(200);

    await embedded.stop();
    const down = await tenants();
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.json()).toEqual({
      message: 'The database is not available right now. Please try again shortly.',
    });
    const readiness = await testApp.app.inject({ method: 'GET', url: '/readyz' });
    expect(readiness.statusCode).toBe(503);
    expect(readiness.headers['retry-after']).toBe('5');

    embedded = await startEmbeddedPostgres({ dataDir: path.join(root, 'pg'), port });
    const back = await tenants();
    expect(back.statusCode).toBe(200);
    expect(back.json().length).toBe(0);
    expect((await testApp.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('a saturated database pool', () => {
  let shared: DatabaseHandle;
  let saturated: DatabaseHandle;
  let testApp: TestApp;

  beforeAll(async () => {
    shared = await createTestDatabase();
    // One connection, and a short wait for it: the test holds it while a request comes in. One
    // second, not less: the app's own background reads (event workers, cache versions) share the
    // connection, and on a loaded machine 200 ms was too short for the sign-in before the test.
    saturated = openDatabase(shared.connectionString, {
      max: 1,
      statementTimeoutMs: 0,
      connectionTimeoutMs: 1000,
    });
    testApp = await createTestApp({}, { database: saturated });
  });
  afterAll(async () => {
    await testApp?.close();
    await saturated?.close();
    await shared?.close();
  });

  it('answers 503 with Retry-After instead of waiting forever for a connection', async () => {
    const token = await testApp.tokenFor('staff@example.com');
    // Tenants, not a reference list: those may be answered from the cache without a connection.
    const request = () =>
      testApp.app.inject({
        method: 'GET',
        url: '/api/tenants',
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await request()).statusCode).toBe(200);
    const response = await saturated.db.connection().execute(() => request());
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect((await request()).statusCode).toBe(200);
  });
});
