import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MailKind, MailOutcome } from '../observability/metrics.ts';

/**
 * Mails counted per hour, kind and outcome in `mail_counts` (migration 21), for the dashboard
 * overview's "last 24 hours": unlike the metrics, the counts outlive a restart and add up every
 * instance's mail.
 */
export async function recordMailCount(
  db: Kysely<Database>,
  kind: MailKind,
  outcome: MailOutcome,
): Promise<void> {
  await sql`
    insert into mail_counts as counts (hour, kind, outcome, mails)
    values (date_trunc('hour', now()), ${kind}, ${outcome}, 1)
    on conflict (hour, kind, outcome) do update set mails = counts.mails + 1
  `.execute(db);
}

/** Mails sent and failed in the current hour and the 24 before it. */
export async function readMailCounts(db: Kysely<Database>): Promise<Record<MailOutcome, number>> {
  const rows = await db
    .selectFrom('mail_counts')
    .select(['outcome', (eb) => eb.fn.sum<number>('mails').as('mails')])
    .where('hour', '>=', sql<Date>`date_trunc('hour', now()) - interval '24 hours'`)
    .groupBy('outcome')
    .execute();
  const count = (outcome: MailOutcome) =>
    Number(rows.find((row) => row.outcome === outcome)?.mails ?? 0);
  return { sent: count('sent'), failed: count('failed') };
}
