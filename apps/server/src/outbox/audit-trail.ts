import type { Insertable } from 'kysely';
import type { AuditLogTable } from '../db/schema.ts';
import type { EventSubscription, EventWorker, RecordedEvent } from './worker.ts';

/** Every event, appended to audit_log: who did what, when, before and after. */
export const AUDIT_TRAIL: EventSubscription = { name: 'audit-trail', subscribesTo: 'all' };

const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);
const jsonOrNull = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** `metadata.target` ({type, id, name}: what the event is about), each part text or null. */
function targetOf(metadata: Record<string, unknown>) {
  const target = metadata.target;
  const part = (name: string) =>
    typeof target === 'object' && target !== null && name in target
      ? (target as Record<string, unknown>)[name]
      : undefined;
  const id = part('id');
  return {
    target_type: textOrNull(part('type')),
    target_id: typeof id === 'number' ? String(id) : textOrNull(id),
    target_name: textOrNull(part('name')),
  };
}

/**
 * Appends one audit_log row per event, in the transaction that marks the event done for this
 * worker: an event is in the audit log exactly once per processing (a database trigger rejects
 * any update or delete of the log). The event's metadata says who and what (recordEvent's
 * convention: actor, action, target {type, id, name}, before/after).
 */
export function createAuditTrailWorker(): EventWorker {
  return {
    ...AUDIT_TRAIL,
    delivery: 'in-transaction',
    async handle(event, trx) {
      await trx.insertInto('audit_log').values(auditRow(event)).execute();
    },
    async handleBatch(events, trx) {
      await trx.insertInto('audit_log').values(events.map(auditRow)).execute();
    },
  };
}

function auditRow(event: RecordedEvent): Insertable<AuditLogTable> {
  const { metadata } = event;
  return {
    event_id: event.id,
    event_name: event.eventName,
    tenant_id: event.tenantId,
    entity_id: event.entityId,
    actor: textOrNull(metadata.actor),
    action: textOrNull(metadata.action),
    before: jsonOrNull(metadata.before),
    after: jsonOrNull(metadata.after),
    metadata: JSON.stringify(metadata),
    occurred_at: event.createdAt,
    ...targetOf(metadata),
  };
}
