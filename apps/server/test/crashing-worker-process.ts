// A worker process for the crash test (src/outbox/crash-charging.test.ts): runs one external
// worker, 'crash-prone', which kills its own process (SIGKILL, no cleanup) when it begins an event
// named 'Poison', and otherwise notes the event as handled. Every argument comes from the
// environment: DATABASE_URL, EVENT_LEASE_SECONDS, MAX_ATTEMPTS.
import { sql } from 'kysely';
import pino from 'pino';
import { openDatabase } from '../src/db/connection.ts';
import { EventDispatcher } from '../src/outbox/dispatcher.ts';
import type { EventWorker } from '../src/outbox/worker.ts';

const database = openDatabase(process.env.DATABASE_URL ?? '');
const worker: EventWorker = {
  name: 'crash-prone',
  subscribesTo: 'all',
  delivery: 'external',
  async handle(event, db) {
    if (event.eventName === 'Poison') process.kill(process.pid, 'SIGKILL');
    await sql`select ${event.id}::bigint`.execute(db);
  },
};
const dispatcher = new EventDispatcher({
  db: database.db,
  workers: [worker],
  logger: pino({ level: 'silent' }),
  leaseSeconds: Number(process.env.EVENT_LEASE_SECONDS ?? '1'),
  pollIntervalMs: 50,
  maxAttempts: Number(process.env.MAX_ATTEMPTS ?? '3'),
});
// Until the work is done or the process is killed.
await dispatcher.drain();
await dispatcher.stop();
await database.close();
