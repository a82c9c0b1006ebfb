import { TEST_EVENT_NAME, type EventItem } from '@console/contracts';
import type { Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { recordEvent, resetProcessing } from '../../outbox/index.ts';
import { notFound } from '../../http/errors.ts';
import { toEventItem } from './queries.ts';

/**
 * POST /api/events/{id}/reset: returns the event (one worker's record, or all of them) to the
 * workers. The reset is itself recorded ('EventReset', for the audit trail: who made the console
 * repeat what). Answers the event as it is after the reset.
 */
export async function resetEvent(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: number,
  workerName: string | undefined,
): Promise<EventItem> {
  return db.transaction().execute(async (trx) => {
    const outcome = await resetProcessing(trx, id, workerName);
    if (outcome.kind === 'unknown-event') throw notFound(`Event ${id} not found.`);
    if (outcome.kind === 'unknown-worker') {
      throw notFound(`Event ${id} has no record of worker ${workerName ?? ''}.`);
    }
    await recordEvent(trx, {
      eventName: 'EventReset',
      metadata: {
        actor: actor.email,
        action: 'reset',
        eventId: id,
        eventName: outcome.eventName,
        target: { type: 'Event', id: String(id), name: outcome.eventName },
        workers: outcome.workers,
        before: outcome.before.map((record) => ({
          ...record,
          processedAt: record.processedAt?.toISOString() ?? null,
        })),
      },
    });
    const event = await trx
      .selectFrom('events')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const processed = await trx
      .selectFrom('processed_events')
      .selectAll()
      .where('event_id', '=', id)
      .orderBy('worker_name')
      .execute();
    return toEventItem(event, processed);
  });
}

/** POST /api/events/test: a 'TestEvent' that goes through the whole pipeline. */
export async function recordTestEvent(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
): Promise<{ id: number }> {
  return db.transaction().execute(async (trx) => {
    const { id } = await recordEvent(trx, {
      eventName: TEST_EVENT_NAME,
      metadata: {
        actor: actor.email,
        action: 'test',
        message: 'Test event from the console',
        target: { type: 'Event', id: TEST_EVENT_NAME, name: 'Test event' },
      },
    });
    return { id };
  });
}
