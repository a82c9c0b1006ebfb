import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database.ts';
import type { DatabaseHandle } from '../db/connection.ts';
import type { Database } from '../db/schema.ts';
import { recordEvents, type NewEvent } from './outbox.ts';
import { SmtpCatcher } from './smtp-catcher.ts';
import { auditCounts, eventually } from './test-support.ts';
import { freePort } from '../net/free-port.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MAIN = 'apps/server/src/main.ts';
const TEST_EVENTS = 10_000;
const INVITATIONS = 200;
const LEASE_SECONDS = 2;

interface ServerProcess {
  child: ChildProcess;
  port: number;
  output: string[];
  exited: Promise<number | null>;
}

/** A real server process (main.ts) on the test database, running the event workers. */
async function startServer(databaseUrl: string, smtpUrl: string): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'false',
      SEED_DEMO_DATA: 'false',
      EVENT_LEASE_SECONDS: String(LEASE_SECONDS),
      EVENT_POLL_INTERVAL_MS: '100',
      SMTP_URL: smtpUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, output, exited };
}

/** Resolves once the server answers /readyz (its workers start when it is ready). */
async function ready(server: ServerProcess): Promise<void> {
  await eventually(
    async () => {
      if (server.child.exitCode !== null) {
        throw new Error(`The server exited: ${server.output.join('')}`);
      }
      const response = await fetch(`http://127.0.0.1:${server.port}/readyz`).catch(() => null);
      return response?.ok ?? false;
    },
    30_000,
    'the server to start',
  );
}

async function count(db: Kysely<Database>, query: ReturnType<typeof sql<{ count: number }>>) {
  const result = await query.execute(db);
  return Number(result.rows[0]?.count ?? 0);
}

describe('two server processes sharing the work on PostgreSQL (one killed mid-run)', () => {
  let database: DatabaseHandle;
  let databaseUrl = '';
  const catcher = new SmtpCatcher({ maxMessages: 10_000 });
  let smtpUrl = '';
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    databaseUrl = database.connectionString;
    smtpUrl = `smtp://127.0.0.1:${await catcher.start(0)}`;
  });
  afterAll(async () => {
    for (const server of servers) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    }
    await catcher.stop();
    await database?.close();
  });

  it('processes 10,000 events once per worker, losing and doubling none', async () => {
    const { db } = database;
    // Both servers up first, so that both take part from the first event on.
    const [doomed, survivor] = await Promise.all([
      startServer(databaseUrl, smtpUrl),
      startServer(databaseUrl, smtpUrl),
    ]);
    servers.push(doomed, survivor);
    await Promise.all([ready(doomed), ready(survivor)]);

    const events: NewEvent[] = [
      ...Array.from({ length: TEST_EVENTS }, (_, index) => ({
        eventName: 'TestEvent',
        metadata: { actor: 'load@example.com', action: 'test', index },
      })),
      ...Array.from({ length: INVITATIONS }, (_, index) => ({
        eventName: 'TenantUserCreated',
        metadata: {
          actor: 'admin@example.com',
          action: 'create',
          email: `user${index}@load.example`,
          companyName: 'Load Test Tenant',
        },
      })),
    ];
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < events.length; start += 2000) {
        await recordEvents(trx, events.slice(start, start + 2000));
      }
    });
    const total = TEST_EVENTS + INVITATIONS;

    const processedBy = (pid: number | undefined, claimed: 'done' | 'held') =>
      count(
        db,
        claimed === 'done'
          ? sql<{ count: number }>`select count(*)::int as count from processed_events
                where locked_by like ${`%/${pid}/%`} and processed_at is not null`
          : sql<{ count: number }>`select count(*)::int as count from processed_events
                where locked_by like ${`%/${pid}/%`} and processed_at is null and not has_error
                  and locked_until > now()`,
      );

    // Both at work; then kill one while it holds claims it has not finished.
    await eventually(
      async () =>
        (await processedBy(doomed.child.pid, 'done')) >= 300 &&
        (await processedBy(survivor.child.pid, 'done')) >= 300,
      30_000,
      'both processes to work',
    );
    await eventually(
      async () => (await processedBy(doomed.child.pid, 'held')) > 0,
      10_000,
      'a claim to kill',
    );
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const killedAt = Date.now();

    // The survivor finishes everything, taking over the dead one's claims once they expire.
    await eventually(
      async () =>
        (await count(
          db,
          sql<{ count: number }>`select count(*)::int as count from events where is_processed`,
        )) === total,
      40_000,
      'every event to be processed',
    );
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000 - 500);

    // Nothing lost, nothing failed.
    expect(
      await count(
        db,
        sql<{ count: number }>`select count(*)::int as count from processed_events
            where processed_at is null or has_error`,
      ),
    ).toBe(0);
    // The audit trail holds every event exactly once.
    const audits = await auditCounts(db);
    const ids = await db.selectFrom('events').select('id').execute();
    expect(ids).toHaveLength(total);
    expect(ids.filter((row) => audits.get(row.id) !== 1)).toEqual([]);
    // The dead process's claims were taken over (claimed twice), not lost.
    const retaken = sql<{ count: number }>`select count(*)::int as count from processed_events
        where attempts >= 2`;
    expect(await count(db, retaken)).toBeGreaterThan(0);
    // Every invitation went out; at most the one in flight at the kill went out twice
    // (mail is at least once: docs/events.md).
    const mail = catcher.messages();
    const recipients = new Set(mail.flatMap((message) => message.to));
    expect(recipients.size).toBe(INVITATIONS);
    expect(mail.length - INVITATIONS).toBeLessThanOrEqual(1);

    // The survivor stops cleanly on SIGTERM.
    survivor.child.kill('SIGTERM');
    expect(await survivor.exited).toBe(0);
  }, 90_000);
});
