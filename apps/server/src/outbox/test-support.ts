import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { expect } from 'vitest';
import type { Database } from '../db/schema.ts';

/** What the event tests share. */

export const silentLogger: FastifyBaseLogger = pino({
  level: process.env.TEST_LOG_LEVEL ?? 'silent',
});

/** Polls `check` until it answers a truthy value (then answered); fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
  what = 'the condition',
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface EventState {
  id: number;
  eventName: string;
  isProcessed: boolean;
  hasError: boolean;
  records: {
    workerName: string;
    hasError: boolean;
    errorMessage: string | null;
    processed: boolean;
    attempts: number;
    lockedBy: string | null;
  }[];
}

/** An event with its processing records, by worker name. */
export async function eventState(db: Kysely<Database>, id: number): Promise<EventState> {
  const event = await db
    .selectFrom('events')
    .select(['id', 'event_name', 'is_processed', 'has_error'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const records = await db
    .selectFrom('processed_events')
    .selectAll()
    .where('event_id', '=', id)
    .orderBy('worker_name')
    .execute();
  return {
    id: event.id,
    eventName: event.event_name,
    isProcessed: event.is_processed,
    hasError: event.has_error,
    records: records.map((record) => ({
      workerName: record.worker_name,
      hasError: record.has_error,
      errorMessage: record.error_message,
      processed: record.processed_at !== null,
      attempts: record.attempts,
      lockedBy: record.locked_by,
    })),
  };
}

/** Audit rows per event id. */
export async function auditCounts(db: Kysely<Database>): Promise<Map<number, number>> {
  const rows = await sql<{ event_id: number; count: number }>`
    select event_id, count(*)::int as count from audit_log group by event_id
  `.execute(db);
  return new Map(rows.rows.map((row) => [Number(row.event_id), row.count]));
}

/** What eventState says of a worker that finished the event without an error. */
export function finishedBy(workerName: string): unknown {
  return expect.objectContaining({ workerName, processed: true, hasError: false });
}

/** What eventState says of a worker whose last try at the event failed with `errorMessage`. */
export function failedBy(workerName: string, errorMessage: string): unknown {
  return expect.objectContaining({ workerName, processed: false, hasError: true, errorMessage });
}
