import type { Kysely, Selectable } from 'kysely';
import type { Database, EventsTable } from '../db/schema.ts';

/** An event as a worker receives it. */
export interface RecordedEvent {
  id: number;
  eventName: string;
  tenantId: number | null;
  entityId: string | null;
  uniqueId: string;
  createdAt: Date;
  metadata: Record<string, unknown>;
}

/** The columns of an events row that a worker receives. */
export type RecordedEventRow = Pick<
  Selectable<EventsTable>,
  'id' | 'event_name' | 'tenant_id' | 'entity_id' | 'unique_id' | 'created_at' | 'metadata'
>;

export function toRecordedEvent(row: RecordedEventRow): RecordedEvent {
  return {
    id: row.id,
    eventName: row.event_name,
    tenantId: row.tenant_id,
    entityId: row.entity_id,
    uniqueId: row.unique_id,
    createdAt: new Date(row.created_at),
    metadata: row.metadata,
  };
}

/**
 * Which events a worker handles. Subscriptions are code, known to every instance: recording an
 * event creates one processing record per subscribed worker (outbox.ts), whether or not this
 * instance runs the workers.
 */
export interface EventSubscription {
  /** Stable: it is stored in processed_events.worker_name. */
  name: string;
  /** Event names, or 'all'. */
  subscribesTo: 'all' | readonly string[];
}

/**
 * A named handler. It fails by throwing; the message is kept on its record and shown on the
 * events screen, so write it for an operator ('SMTP connection refused (127.0.0.1:19025)').
 *
 * - 'in-transaction': `handle` only writes to the database, through the `db` it is given: the
 *   transaction that marks the record done. The work and the mark commit together (exactly once).
 * - 'external': `handle` has an effect outside the database (mail). The record is marked done
 *   right after it returns; a crash in between repeats the effect once the lease expires (at least
 *   once). `db` is then the plain database, for reading.
 */
export interface EventWorker extends EventSubscription {
  delivery: 'in-transaction' | 'external';
  handle(event: RecordedEvent, db: Kysely<Database>): Promise<void>;
  /**
   * In-transaction workers may do a whole batch at once (one statement instead of one per event).
   * When it throws, the batch is rolled back and each event goes through `handle`, so that only
   * the failing ones fail.
   */
  handleBatch?(events: readonly RecordedEvent[], trx: Kysely<Database>): Promise<void>;
  /** Releases what the worker holds (connections); called when the dispatcher stops. */
  close?(): Promise<void>;
}

export function isSubscribed(subscription: EventSubscription, eventName: string): boolean {
  return subscription.subscribesTo === 'all' || subscription.subscribesTo.includes(eventName);
}

/** The workers (names) that must process an event of this name. */
export function subscribersOf(
  subscriptions: readonly EventSubscription[],
  eventName: string,
): string[] {
  return subscriptions
    .filter((subscription) => isSubscribed(subscription, eventName))
    .map((subscription) => subscription.name);
}
