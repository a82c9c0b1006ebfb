import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { signalEventWork } from './outbox.ts';
import { EVENT_SUBSCRIPTIONS } from './subscriptions.ts';
import { isSubscribed, type EventSubscription } from './worker.ts';

/**
 * The state of an event follows its workers' records: processed when every record succeeded,
 * errored when any failed. Whoever changes records (dispatcher, reset) first locks the events
 * rows concerned, in id order, then recomputes: two workers finishing one event at the same time
 * on two instances cannot both miss the other's success.
 */

/** Locks the events rows (in id order, so that two lockers never deadlock); answers those found. */
export async function lockEvents(trx: Kysely<Database>, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('events')
    .select('id')
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Recomputes is_processed and has_error of these events from their records (lock them first):
 * migration 18's refresh_event_flags, the rule the dispatcher's completion applies too.
 */
export async function refreshEventFlags(
  trx: Kysely<Database>,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  await sql`select refresh_event_flags(${[...ids]}::bigint[])`.execute(trx);
}

export interface ProcessingRecord {
  workerName: string;
  hasError: boolean;
  errorMessage: string | null;
  processedAt: Date | null;
  attempts: number;
}

export type ResetOutcome =
  | { kind: 'reset'; eventName: string; before: ProcessingRecord[]; workers: string[] }
  | { kind: 'unknown-event' }
  | { kind: 'unknown-worker' };

/**
 * Returns an event to its workers (spec 4: "Events can be reset, optionally per worker name"):
 * the record of `workerName`, or every record of the event, goes back to waiting (no error, not
 * processed, 0 attempts, no claim), and the event's flags follow. A subscribed worker that has no
 * record yet (events written before it existed, or by the demo seed) gets one. A claim still held
 * by an instance is dropped: that instance will find the record no longer its own and discard its
 * result (docs/events.md). Run inside a transaction.
 */
export async function resetProcessing(
  trx: Kysely<Database>,
  eventId: number,
  workerName: string | undefined,
  subscriptions: readonly EventSubscription[] = EVENT_SUBSCRIPTIONS,
): Promise<ResetOutcome> {
  const event = await trx
    .selectFrom('events')
    .select(['id', 'event_name'])
    .where('id', '=', eventId)
    .forUpdate()
    .executeTakeFirst();
  if (!event) return { kind: 'unknown-event' };

  const records = await trx
    .selectFrom('processed_events')
    .select(['worker_name', 'has_error', 'error_message', 'processed_at', 'attempts'])
    .where('event_id', '=', eventId)
    .orderBy('worker_name')
    .forUpdate()
    .execute();
  const subscribed = subscriptions
    .filter((subscription) => isSubscribed(subscription, event.event_name))
    .map((subscription) => subscription.name);
  const existing = records.map((record) => record.worker_name);
  const workers =
    workerName === undefined
      ? [...new Set([...existing, ...subscribed])].sort()
      : existing.includes(workerName) || subscribed.includes(workerName)
        ? [workerName]
        : [];
  if (workers.length === 0) return { kind: 'unknown-worker' };

  const missing = workers.filter((worker) => !existing.includes(worker));
  if (missing.length > 0) {
    await trx
      .insertInto('processed_events')
      .values(
        missing.map((worker) => ({
          event_id: eventId,
          worker_name: worker,
          has_error: false,
          attempts: 0,
        })),
      )
      .execute();
  }
  await trx
    .updateTable('processed_events')
    .set({
      has_error: false,
      error_message: null,
      processed_at: null,
      attempts: 0,
      locked_by: null,
      locked_until: null,
    })
    .where('event_id', '=', eventId)
    .where('worker_name', 'in', workers)
    .execute();
  await refreshEventFlags(trx, [eventId]);
  await signalEventWork(trx);

  return {
    kind: 'reset',
    eventName: event.event_name,
    workers,
    before: records
      .filter((record) => workers.includes(record.worker_name))
      .map((record) => ({
        workerName: record.worker_name,
        hasError: record.has_error,
        errorMessage: record.error_message,
        processedAt: record.processed_at,
        attempts: record.attempts,
      })),
  };
}
