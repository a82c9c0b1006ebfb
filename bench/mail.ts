import type { Kysely } from 'kysely';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/connection.ts';
import { migrateTo } from '../apps/server/src/db/migrator.ts';
import type { Database } from '../apps/server/src/db/schema.ts';
import { EventDispatcher } from '../apps/server/src/outbox/dispatcher.ts';
import {
  createNotificationsWorker,
  createSmtpTransport,
  invitationFor,
  NOTIFICATIONS,
  type Invitation,
} from '../apps/server/src/outbox/notifications.ts';
import { recordEvents, type NewEvent } from '../apps/server/src/outbox/outbox.ts';
import { SmtpCatcher } from '../apps/server/src/outbox/smtp-catcher.ts';
import { toRecordedEvent } from '../apps/server/src/outbox/worker.ts';
import { adminQuery, alternatingRounds, benchPostgresUrl, ratio } from './lib.ts';

const FROM = 'Administration console <no-reply@bench.example>';
const PUBLIC_URL = 'http://127.0.0.1:3000';
const ROUNDS = 10;

/**
 * Invitation mail (issue 11), in a throwaway database `console_mail_bench_<timestamp>`, against the
 * development SMTP catcher (smtp-server) on a free port: BENCH_MAIL_COUNT (default 2,000)
 * `TenantUserCreated` events, sent by the notifications worker through the real dispatcher
 * (claim, mark started, send, mark done: everything it does in production), and the same
 * invitations sent by nodemailer's pooled transport alone, one after the other on one connection
 * as the worker does. In 10 rounds whose first side alternates, each round's invitations recorded
 * and rendered beforehand (untimed); the fastest round of each is kept. Mails per second for
 * both, and the ratio (target ≥ 0.8).
 */
export async function benchMail(): Promise<void> {
  const count = Number(process.env.BENCH_MAIL_COUNT ?? 2000);
  const adminUrl = `${await benchPostgresUrl()}/postgres`;
  const name = `console_mail_bench_${Date.now()}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const catcher = new SmtpCatcher({ maxMessages: count * 2 });
  const smtpUrl = `smtp://127.0.0.1:${await catcher.start(0)}`;
  let handle: DatabaseHandle | undefined;
  await adminQuery(adminUrl, `create database ${name}`);
  try {
    handle = openDatabase(url.toString());
    await migrateTo(handle.db);
    const db = handle.db;
    const dispatcher = new EventDispatcher({
      db,
      workers: [
        createNotificationsWorker({
          smtpUrl,
          from: FROM,
          publicUrl: PUBLIC_URL,
          timeoutMs: 10_000,
        }),
      ],
      logger: pino({ level: 'silent' }),
      leaseSeconds: 300,
      pollIntervalMs: 50,
    });
    // The same transport settings as the worker's (pooled, one connection): only our code differs.
    const transport = createSmtpTransport(smtpUrl, 10_000);
    const perRound = Math.max(1, Math.floor(count / ROUNDS));
    // Each round's invitations: recorded as events (the worker's work) and rendered (what the
    // transport alone sends), whichever side goes first; neither is timed.
    const rounds = new Map<number, Promise<Invitation[]>>();
    const roundInvitations = (round: number) => {
      let prepared = rounds.get(round);
      if (!prepared) {
        prepared = recordInvitations(db, round * perRound, perRound);
        rounds.set(round, prepared);
      }
      return prepared;
    };
    const [workerMs, poolMs] = await alternatingRounds(
      ROUNDS,
      async (round) => {
        await roundInvitations(round);
        const started = performance.now();
        const handled = await dispatcher.drain();
        const elapsed = performance.now() - started;
        if (handled !== perRound) throw new Error(`The worker sent ${handled} of ${perRound}`);
        return elapsed / perRound;
      },
      async (round) => {
        const invitations = await roundInvitations(round);
        const started = performance.now();
        for (const invitation of invitations) {
          await transport.sendMail({ from: FROM, ...invitation });
        }
        return (performance.now() - started) / perRound;
      },
    );
    await dispatcher.stop();
    transport.close();
    const sent = perRound * ROUNDS * 2;
    if (catcher.messages().length !== sent) {
      throw new Error(`The catcher got ${catcher.messages().length} of ${sent} mails`);
    }

    const workerRate = 1000 / workerMs;
    const poolRate = 1000 / poolMs;
    console.log(`\nInvitation mail, ${count} messages to the SMTP catcher`);
    console.log(`  notifications worker (dispatcher): ${workerRate.toFixed(0)} mails/s`);
    console.log(`  nodemailer pooled transport alone: ${poolRate.toFixed(0)} mails/s (baseline)`);
    console.log(`  ratio: ${ratio(workerRate, poolRate)}× (target ≥ 0.8)`);
  } finally {
    await handle?.close();
    await catcher.stop();
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  }
}

/** Records `count` invitation events (users `first`...) and answers their rendered invitations. */
async function recordInvitations(
  db: Kysely<Database>,
  first: number,
  count: number,
): Promise<Invitation[]> {
  const events: NewEvent[] = Array.from({ length: count }, (_, index) => ({
    eventName: 'TenantUserCreated',
    metadata: {
      actor: 'bench@example.com',
      action: 'create',
      email: `user${first + index}@bench.example`,
      companyName: 'Bench Tenant',
    },
  }));
  const recorded = await db
    .transaction()
    .execute((trx) => recordEvents(trx, events, { subscriptions: [NOTIFICATIONS] }));
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where(
      'id',
      'in',
      recorded.map((event) => event.id),
    )
    .orderBy('id')
    .execute();
  return Promise.all(rows.map((row) => invitationFor(toRecordedEvent(row), db, PUBLIC_URL)));
}
