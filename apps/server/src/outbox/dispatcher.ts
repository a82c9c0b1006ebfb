import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { BackgroundWork } from '../http/lifecycle.ts';
import { listenForNotifications, type NotificationListener } from '../db/notification-listener.ts';
import type { Database } from '../db/schema.ts';
import type { ConsoleMetrics } from '../observability/metrics.ts';
import { EVENTS_CHANNEL } from './outbox.ts';
import { lockEvents } from './processing.ts';
import {
  isSubscribed,
  toRecordedEvent,
  type EventWorker,
  type RecordedEvent,
  type RecordedEventRow,
} from './worker.ts';

export interface DispatcherOptions {
  db: Kysely<Database>;
  workers: readonly EventWorker[];
  logger: FastifyBaseLogger;
  /** How long a claim lasts; past it another instance may take the work over. */
  leaseSeconds: number;
  /** How often an idle worker looks for work. */
  pollIntervalMs: number;
  /** Records claimed at once per worker (default 100). */
  batchSize?: number;
  /** Claims after which a record is failed instead of tried again (default 5). */
  maxAttempts?: number;
  /** Names this instance in processed_events.locked_by (default host/pid/random). */
  instanceId?: string;
  /** PostgreSQL connection string: LISTEN for events recorded by any instance. */
  listenConnectionString?: string;
  /** Counts the records completed, by worker and outcome (METRICS_TOKEN or METRICS_PORT set). */
  metrics?: ConsoleMetrics | undefined;
}

/** One worker's claimed record, with its event. */
interface Claim {
  event: RecordedEvent;
  attempts: number;
}

type Outcome = { eventId: number; error?: string };

const ERROR_MESSAGE_MAX_LENGTH = 2000;
const FAILURE_BACKOFF_MAX_MS = 30_000;

/**
 * Runs the workers of this instance (docs/events.md). Each worker loops: claim up to `batchSize`
 * of its waiting records (FOR UPDATE SKIP LOCKED, so instances never claim the same record; the
 * claim is a lease in locked_by/locked_until), process them, mark them done or failed, recompute
 * their events' flags; then claim again, or sleep until the next poll or the "events recorded"
 * NOTIFY, which PostgreSQL delivers at commit of a write on any instance (this one included).
 *
 * Completing a record checks that this instance still holds its claim: when a lease expired and
 * another instance took the record over, the late result is discarded (rolled back for
 * in-transaction workers), so a record is done once.
 */
export class EventDispatcher implements BackgroundWork {
  readonly instanceId: string;
  private readonly db: Kysely<Database>;
  private readonly workers: readonly EventWorker[];
  private readonly logger: FastifyBaseLogger;
  private readonly leaseSeconds: number;
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxAttempts: number;
  private readonly listenConnectionString: string | undefined;
  private readonly metrics: ConsoleMetrics | undefined;
  private readonly loops = new Map<string, WorkerLoop>();
  private running: Promise<void>[] = [];
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private listener: NotificationListener | undefined;

  constructor(options: DispatcherOptions) {
    this.db = options.db;
    this.workers = options.workers;
    this.logger = options.logger;
    this.leaseSeconds = options.leaseSeconds;
    this.pollIntervalMs = options.pollIntervalMs;
    this.batchSize = options.batchSize ?? 100;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.instanceId =
      options.instanceId ?? `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
    this.listenConnectionString = options.listenConnectionString;
    this.metrics = options.metrics;
    const names = new Set(this.workers.map((worker) => worker.name));
    if (names.size !== this.workers.length) throw new Error('Two event workers share a name');
  }

  /** Starts one loop per worker; they run until stop(). */
  start(): void {
    if (this.running.length > 0 || this.stopping) return;
    for (const worker of this.workers) {
      const loop = new WorkerLoop();
      this.loops.set(worker.name, loop);
      this.running.push(this.run(worker, loop));
    }
    if (this.listenConnectionString) this.listen(this.listenConnectionString);
    this.logger.info(
      {
        instanceId: this.instanceId,
        workers: this.workers.map((worker) => worker.name),
        leaseSeconds: this.leaseSeconds,
      },
      'Event workers started',
    );
  }

  /** Wakes every idle worker now (something was recorded or reset). */
  wake(): void {
    for (const loop of this.loops.values()) loop.wake();
  }

  /**
   * Stops claiming, lets the batches in hand finish (records not started yet are handed back),
   * and closes the workers. The database stays open. Every call answers the same promise.
   */
  stop(): Promise<void> {
    this.stopped ??= this.stopLoops();
    return this.stopped;
  }

  private async stopLoops(): Promise<void> {
    this.stopping = true;
    for (const loop of this.loops.values()) loop.stop();
    await Promise.all(this.running);
    await this.listener?.close();
    for (const worker of this.workers) {
      await worker.close?.().catch((error: unknown) => {
        this.logger.warn({ err: error, worker: worker.name }, 'Event worker did not close cleanly');
      });
    }
    this.logger.info({ instanceId: this.instanceId }, 'Event workers stopped');
  }

  /**
   * Processes everything waiting, worker by worker, until nothing is left; answers the number of
   * records handled. For tests and scripts that run no loops.
   */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      let round = 0;
      for (const worker of this.workers) round += await this.processBatch(worker);
      total += round;
      if (round === 0) return total;
    }
  }

  private async run(worker: EventWorker, loop: WorkerLoop): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let handled = 0;
      try {
        handled = await this.processBatch(worker);
        failures = 0;
      } catch (error) {
        failures += 1;
        if (this.stopping) break;
        this.logger.error(
          { err: error, worker: worker.name, failures },
          'Event worker could not process its work; trying again',
        );
      }
      if (this.stopping) break;
      if (handled > 0) continue;
      const backoff = Math.min(this.pollIntervalMs * 2 ** failures, FAILURE_BACKOFF_MAX_MS);
      await loop.sleep(failures > 0 ? backoff : this.pollIntervalMs);
    }
  }

  /** Claims and processes one batch of `worker`'s records; answers how many were claimed. */
  private async processBatch(worker: EventWorker): Promise<number> {
    const claims = await this.claim(worker);
    if (claims.length === 0) return 0;
    // Stop starting work well before the lease ends: a late result would be discarded.
    const deadline = performance.now() + (this.leaseSeconds * 1000 * 2) / 3;
    if (worker.delivery === 'in-transaction') {
      await this.completeInTransaction(worker, claims);
    } else {
      await this.completeOneByOne(worker, claims, deadline);
    }
    return claims.length;
  }

  private async claim(worker: EventWorker): Promise<Claim[]> {
    const result = await sql<RecordedEventRow & { attempts: number }>`
      with claimable as (
        select event_id, worker_name
        from processed_events
        where worker_name = ${worker.name}
          and processed_at is null
          and not has_error
          and (locked_until is null or locked_until < now())
        order by event_id
        limit ${this.batchSize}
        for update skip locked
      ),
      claimed as (
        update processed_events
        set locked_by = ${this.instanceId},
          locked_until = now() + make_interval(secs => ${this.leaseSeconds}::double precision),
          -- A claim is charged an attempt, except the expired claim of an instance that stopped
          -- before it began this record: that attempt was never made, so this claim reuses it.
          attempts = processed_events.attempts + case
            when processed_events.locked_until is not null and processed_events.unstarted then 0
            else 1 end,
          unstarted = true
        from claimable
        where processed_events.event_id = claimable.event_id
          and processed_events.worker_name = claimable.worker_name
        returning processed_events.event_id, processed_events.attempts
      )
      select events.id, events.event_name, events.tenant_id, events.entity_id, events.unique_id,
        events.created_at, events.metadata, claimed.attempts
      from claimed
      join events on events.id = claimed.event_id
      order by events.id
    `.execute(this.db);
    return result.rows.map((row) => ({ attempts: row.attempts, event: toRecordedEvent(row) }));
  }

  /**
   * In-transaction workers: one transaction for the batch, whose work commits together with the
   * 'done' marks. The batch runs under one savepoint (through `handleBatch` when the worker has
   * it); when an event fails, the batch is rolled back to it and run again event by event, each
   * under its own savepoint, so that a failing event rolls back alone.
   */
  private async completeInTransaction(worker: EventWorker, claims: Claim[]): Promise<void> {
    const ids = claims.map((claim) => claim.event.id);
    // The batch's work begins together (one transaction): a crash in it charges all of them.
    await this.markStarted(worker, ids);
    await this.db.transaction().execute(async (trx) => {
      await lockEvents(trx, ids);
      const owned = await this.ownedRecords(trx, worker, ids);
      const mine = claims.filter((claim) => owned.has(claim.event.id));
      let outcomes: Outcome[] = [];
      await sql`savepoint batch_work`.execute(trx);
      try {
        if (worker.handleBatch) {
          const work: RecordedEvent[] = [];
          for (const claim of mine) {
            const early = this.outcomeWithoutWork(worker, claim);
            if (early) outcomes.push(early);
            else work.push(claim.event);
          }
          if (work.length > 0) await worker.handleBatch(work, trx);
          outcomes.push(...work.map((event) => ({ eventId: event.id })));
        } else {
          for (const claim of mine) outcomes.push(await this.runInTransaction(worker, claim, trx));
        }
        await sql`release savepoint batch_work`.execute(trx);
      } catch {
        await sql`rollback to savepoint batch_work`.execute(trx);
        outcomes = [];
        for (const claim of mine) {
          await sql`savepoint event_work`.execute(trx);
          try {
            outcomes.push(await this.runInTransaction(worker, claim, trx));
            await sql`release savepoint event_work`.execute(trx);
          } catch (error) {
            await sql`rollback to savepoint event_work`.execute(trx);
            outcomes.push({ eventId: claim.event.id, error: errorMessage(error) });
          }
        }
      }
      await this.record(trx, worker, outcomes);
      this.logLost(worker, ids, owned);
    });
  }

  private async runInTransaction(
    worker: EventWorker,
    claim: Claim,
    trx: Kysely<Database>,
  ): Promise<Outcome> {
    const early = this.outcomeWithoutWork(worker, claim);
    if (early) return early;
    await worker.handle(claim.event, trx);
    return { eventId: claim.event.id };
  }

  /**
   * External workers: one event at a time, each marked right after its effect, which keeps the
   * window for a repeated effect (a crash between the two) to one event. The statement that
   * records an event also marks the next one started, before its work begins: one round trip per
   * event besides the work.
   */
  private async completeOneByOne(
    worker: EventWorker,
    claims: Claim[],
    deadline: number,
  ): Promise<void> {
    const goOn = () => !this.stopping && performance.now() <= deadline;
    // Whether the statement that recorded the event before marked this one started.
    let startedByPrevious = false;
    for (const [index, claim] of claims.entries()) {
      if (!goOn()) {
        await this.release(worker, claims.slice(index));
        return;
      }
      let outcome = this.outcomeWithoutWork(worker, claim);
      if (!outcome) {
        if (!startedByPrevious) await this.markStarted(worker, [claim.event.id]);
        try {
          await worker.handle(claim.event, this.db);
          outcome = { eventId: claim.event.id };
        } catch (error) {
          outcome = { eventId: claim.event.id, error: errorMessage(error) };
        }
      }
      const next = claims[index + 1];
      const startNext = next !== undefined && !this.outcomeWithoutWork(worker, next) && goOn();
      const owned = await this.record(this.db, worker, [outcome], startNext ? [next.event.id] : []);
      startedByPrevious = startNext;
      this.logLost(worker, [claim.event.id], owned);
    }
  }

  /**
   * Notes, committed before the work, that this instance began these records: if it stops before
   * recording them, their expired claims are charged an attempt (the others are not).
   */
  private async markStarted(worker: EventWorker, ids: number[]): Promise<void> {
    await this.db
      .updateTable('processed_events')
      .set({ unstarted: false })
      .where('worker_name', '=', worker.name)
      .where('event_id', 'in', ids)
      .where('locked_by', '=', this.instanceId)
      .execute();
  }

  /** Records that need no handler: too many claims already, or an event the worker ignores. */
  private outcomeWithoutWork(worker: EventWorker, claim: Claim): Outcome | undefined {
    if (claim.attempts > this.maxAttempts) {
      return {
        eventId: claim.event.id,
        error: `Gave up after ${claim.attempts - 1} attempts: each time the instance processing this event stopped before finishing (its ${this.leaseSeconds} s lease expired)`,
      };
    }
    // A record for an event the worker does not subscribe to (demo data, or a subscription
    // changed since the event was recorded): nothing to do.
    if (!isSubscribed(worker, claim.event.eventName)) return { eventId: claim.event.id };
    return undefined;
  }

  /** The records among `ids` this instance still holds the claim of (locked for the update). */
  private async ownedRecords(
    trx: Kysely<Database>,
    worker: EventWorker,
    ids: number[],
  ): Promise<Set<number>> {
    const rows = await trx
      .selectFrom('processed_events')
      .select('event_id')
      .where('worker_name', '=', worker.name)
      .where('event_id', 'in', ids)
      .where('locked_by', '=', this.instanceId)
      .where('processed_at', 'is', null)
      .where(sql<boolean>`not has_error`)
      .forUpdate()
      .execute();
    return new Set(rows.map((row) => row.event_id));
  }

  /**
   * Marks the records of `outcomes` this instance still holds done or failed and recomputes their
   * events' flags (migration 18's complete_event_records: one statement), then marks the records
   * of `startedIds` started. Answers the event ids recorded; the others' claims were lost.
   */
  private async record(
    db: Kysely<Database>,
    worker: EventWorker,
    outcomes: Outcome[],
    startedIds: number[] = [],
  ): Promise<Set<number>> {
    const result = await sql<{ event_id: number }>`
      select complete_event_records(
        ${worker.name},
        ${this.instanceId},
        ${outcomes.map((outcome) => outcome.eventId)}::bigint[],
        ${outcomes.map((outcome) => outcome.error ?? null)}::text[],
        ${startedIds}::bigint[]
      ) as event_id
    `.execute(db);
    const recorded = new Set(result.rows.map((row) => row.event_id));
    // Outcomes are counted, and failures logged, once recorded: a result whose claim was lost is
    // only logged as lost.
    for (const outcome of outcomes) {
      if (!recorded.has(outcome.eventId)) continue;
      const failed = outcome.error !== undefined;
      this.metrics?.countEventRecord(worker.name, failed ? 'failed' : 'succeeded');
      if (!failed) continue;
      this.logger.warn(
        { worker: worker.name, eventId: outcome.eventId, error: outcome.error },
        'Event worker failed',
      );
    }
    return recorded;
  }

  /**
   * Hands claimed records back (not attempted) and wakes this worker on every instance, so that
   * another takes them at once rather than at its next poll.
   */
  private async release(worker: EventWorker, claims: Claim[]): Promise<void> {
    await sql`
      with released as (
        update processed_events
        set locked_until = null, attempts = greatest(attempts - 1, 0)
        where worker_name = ${worker.name}
          and event_id = any(${claims.map((claim) => claim.event.id)}::bigint[])
          and locked_by = ${this.instanceId}
          and processed_at is null
          and not has_error
        returning event_id
      )
      select pg_notify(${EVENTS_CHANNEL}, ${worker.name}) where exists (select from released)
    `.execute(this.db);
  }

  private logLost(worker: EventWorker, ids: number[], owned: Set<number>): void {
    const lost = ids.filter((id) => !owned.has(id));
    if (lost.length > 0) {
      this.logger.warn(
        { worker: worker.name, eventIds: lost },
        'Claim lost before the work was recorded (lease expired and taken over, or reset): result discarded',
      );
    }
  }

  /**
   * Wakes on NOTIFY from any instance (db/notification-listener.ts reconnects until stopped): the
   * worker the payload names, or every worker for an empty payload.
   */
  private listen(connectionString: string): void {
    this.listener = listenForNotifications({
      connectionString,
      channel: EVENTS_CHANNEL,
      logger: this.logger,
      onNotify: (workerName) => {
        if (workerName) this.loops.get(workerName)?.wake();
        else this.wake();
      },
      // Anything recorded while the listener was away.
      onConnected: () => this.wake(),
    });
  }
}

/** Sleeps until woken, stopped or timed out; a wake while awake makes the next sleep return at once. */
class WorkerLoop {
  private woken = false;
  private stopped = false;
  private resolveSleep: (() => void) | undefined;

  wake(): void {
    this.woken = true;
    this.resolveSleep?.();
  }

  stop(): void {
    this.stopped = true;
    this.resolveSleep?.();
  }

  sleep(ms: number): Promise<void> {
    if (this.woken || this.stopped) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.resolveSleep = undefined;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.resolveSleep = done;
    });
  }
}

function errorMessage(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).trim();
  if (!message) return 'The worker failed without a message';
  return message.length > ERROR_MESSAGE_MAX_LENGTH
    ? `${message.slice(0, ERROR_MESSAGE_MAX_LENGTH - 1)}…`
    : message;
}
