import nodemailer from 'nodemailer';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/connection.ts';
import { migrateTo } from '../apps/server/src/db/migrator.ts';
import { EventDispatcher } from '../apps/server/src/outbox/dispatcher.ts';
import {
  createNotificationsWorker,
  invitationFor,
  NOTIFICATIONS,
} from '../apps/server/src/outbox/notifications.ts';
import { recordEvents, type NewEvent } from '../apps/server/src/outbox/outbox.ts';
import { SmtpCatcher } from '../apps/server/src/outbox/smtp-catcher.ts';
import { toRecordedEvent } from '../apps/server/src/outbox/worker.ts';
import { adminQuery, benchPostgresUrl, ratio } from './lib.ts';

const FROM = 'Administration console <no-reply@bench.example>';
const PUBLIC_URL = 'http://127.0.0.1:3000';

/**
 * Invitation mail (issue 11), in a throwaway database `console_mail_bench_<timestamp>`, against the
 * development SMTP catcher (smtp-server) on a free port: BENCH_MAIL_COUNT (default 2,000)
 * `TenantUserCreated` events, sent by the notifications worker through the real dispatcher
 * (claim, mark started, send, mark done: everything it does in production), and the same
 * invitations sent by nodemailer's pooled transport alone, one after the other on one connection
 * as the worker does. Mails per second for both, and the ratio (target ≥ 0.8).
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
    const events: NewEvent[] = Array.from({ length: count }, (_, index) => ({
      eventName: 'TenantUserCreated',
      metadata: {
        actor: 'bench@example.com',
        action: 'create',
        email: `user${index}@bench.example`,
        companyName: 'Bench Tenant',
      },
    }));
    await db
      .transaction()
      .execute((trx) => recordEvents(trx, events, { subscriptions: [NOTIFICATIONS] }));

    // The worker, through the dispatcher.
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
    let started = performance.now();
    const handled = await dispatcher.drain();
    const workerSeconds = (performance.now() - started) / 1000;
    await dispatcher.stop();
    if (handled !== count || catcher.messages().length !== count) {
      throw new Error(`The worker sent ${catcher.messages().length} of ${count} mails`);
    }

    // The same invitations through nodemailer's pooled transport alone.
    const rows = await db.selectFrom('events').selectAll().orderBy('id').execute();
    const invitations = await Promise.all(
      rows.map((row) => invitationFor(toRecordedEvent(row), db, PUBLIC_URL)),
    );
    const transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: 1 });
    started = performance.now();
    for (const invitation of invitations) await transport.sendMail({ from: FROM, ...invitation });
    const poolSeconds = (performance.now() - started) / 1000;
    transport.close();

    const workerRate = count / workerSeconds;
    const poolRate = count / poolSeconds;
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
