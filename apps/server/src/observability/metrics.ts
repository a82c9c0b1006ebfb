import { RATINGS_IMPORT_STATUSES, type RatingsImportStatus } from '@console/contracts';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/connection.ts';
import { REFERENCE_LISTS, type ReferenceList } from '../http/reference-cache.ts';
import type { WorkerBacklog } from '../outbox/backlog.ts';

/**
 * The server's Prometheus metrics (docs/operations.md, "Metrics"): one registry per app, never
 * prom-client's global one (tests build several apps in one process). Names carry the `console_`
 * prefix and their unit; label values are bounded (route templates, worker names, fixed outcome
 * sets), which the methods' types keep so. Node's runtime metrics keep prom-client's standard
 * names (`nodejs_*`, `process_*`), which dashboards for Node processes read.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's metrics; undefined while neither METRICS_TOKEN nor METRICS_PORT is set. */
    metrics: ConsoleMetrics | undefined;
  }
}

/** What the gauges read when scraped: state that lives elsewhere (the pool, the database). */
export interface MetricSources {
  /** The event workers every instance records work for (whether or not this one runs them). */
  workerNames: readonly string[];
  pool(): PoolStats;
  eventBacklog(): Promise<readonly WorkerBacklog[]>;
  importJobs(): Promise<Record<RatingsImportStatus, number>>;
}

export type SignInOutcome = 'succeeded' | 'refused' | 'failed';
export type MailKind = 'invitation' | 'template_test';
export type MailOutcome = 'sent' | 'failed';
export type EventRecordOutcome = 'succeeded' | 'failed';
export type CacheLookupOutcome = 'hit' | 'miss';

/** From 1 ms (a cached list) to 10 s (an import); Prometheus adds +Inf. */
const REQUEST_DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

export class ConsoleMetrics {
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly signIns: Counter<'outcome'>;
  private readonly eventRecords: Counter<'worker' | 'outcome'>;
  private readonly mails: Counter<'kind' | 'outcome'>;
  private readonly referenceCacheLookups: Counter<'list' | 'outcome'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requestDuration = new Histogram({
      name: 'console_http_request_duration_seconds',
      help: 'Time from a request’s arrival to the end of its answer, by method, route template (unmatched: no route) and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: REQUEST_DURATION_BUCKETS,
      registers,
    });
    this.signIns = zeroed(
      new Counter({
        name: 'console_sign_ins_total',
        help: 'Sign-ins by outcome: succeeded (a session began), refused (no role, an invalid or expired request, too many attempts: 4xx), failed (the identity provider or the console failed: 5xx).',
        labelNames: ['outcome'],
        registers,
      }),
      combinations({ outcome: ['succeeded', 'refused', 'failed'] }),
    );
    this.eventRecords = zeroed(
      new Counter({
        name: 'console_event_records_processed_total',
        help: 'Event records this instance’s workers completed, by worker and outcome.',
        labelNames: ['worker', 'outcome'],
        registers,
      }),
      combinations({ worker: sources.workerNames, outcome: ['succeeded', 'failed'] }),
    );
    this.mails = zeroed(
      new Counter({
        name: 'console_mails_total',
        help: 'Mails this instance handed to the SMTP server, by kind (invitation, template_test) and outcome (sent, failed).',
        labelNames: ['kind', 'outcome'],
        registers,
      }),
      combinations({ kind: ['invitation', 'template_test'], outcome: ['sent', 'failed'] }),
    );
    this.referenceCacheLookups = zeroed(
      new Counter({
        name: 'console_reference_cache_lookups_total',
        help: 'Reads of the cached reference lists, by list and outcome: hit (the kept body answered), miss (the body was read from the database).',
        labelNames: ['list', 'outcome'],
        registers,
      }),
      combinations({ list: REFERENCE_LISTS, outcome: ['hit', 'miss'] }),
    );
    registerPoolGauges(registers, sources);
    registerEventBacklogGauges(registers, sources);
    registerImportJobGauge(registers, sources);
  }

  /** The text a scrape answers (Prometheus exposition format 0.0.4). */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.requestDuration.observe({ method, route, status_code: statusCode }, seconds);
  }

  countSignIn(outcome: SignInOutcome): void {
    this.signIns.inc({ outcome });
  }

  countEventRecord(worker: string, outcome: EventRecordOutcome): void {
    this.eventRecords.inc({ worker, outcome });
  }

  countMail(kind: MailKind, outcome: MailOutcome): void {
    this.mails.inc({ kind, outcome });
  }

  countReferenceCacheLookup(list: ReferenceList, outcome: CacheLookupOutcome): void {
    this.referenceCacheLookups.inc({ list, outcome });
  }
}

/** The connections of the pg pool, read when scraped. */
function registerPoolGauges(registers: Registry[], sources: MetricSources): void {
  const gauges: [name: string, help: string, read: (stats: PoolStats) => number][] = [
    ['console_db_pool_connections', 'Connections the pool holds open.', (stats) => stats.total],
    ['console_db_pool_idle_connections', 'Open connections no query uses.', (stats) => stats.idle],
    [
      'console_db_pool_waiting_clients',
      'Queries waiting for a connection (the pool is at its maximum).',
      (stats) => stats.waiting,
    ],
    [
      'console_db_pool_max_connections',
      'Most connections the pool opens (DATABASE_POOL_MAX).',
      (stats) => stats.max,
    ],
  ];
  for (const [name, help, read] of gauges) {
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read(sources.pool()));
      },
    });
  }
}

/**
 * Records waiting per worker and the age of the oldest: one query per scrape for both. These
 * gauges and the import jobs' read the database when scraped; while it does not answer they are
 * left out of the scrape (the rest still answers, the pool gauges and /readyz tell why).
 */
function registerEventBacklogGauges(registers: Registry[], sources: MetricSources): void {
  const backlog = singleFlight(() => sources.eventBacklog());
  const gauges: [name: string, help: string, read: (row: WorkerBacklog) => number][] = [
    [
      'console_event_records_waiting',
      'Event records not processed yet (neither done nor failed), by worker, across every instance.',
      (row) => row.waiting,
    ],
    [
      'console_event_oldest_waiting_age_seconds',
      'Age of the event of the oldest waiting record, by worker (0 when none waits).',
      (row) => row.oldestAgeSeconds,
    ],
    [
      'console_event_records_failed',
      'Event records a worker failed and nobody has reset yet, by worker, across every instance.',
      (row) => row.failed,
    ],
  ];
  for (const [name, help, read] of gauges) {
    new Gauge({
      name,
      help,
      labelNames: ['worker'],
      registers,
      async collect() {
        await setFromDatabase(this, backlog, (rows) => {
          for (const row of rows) this.set({ worker: row.worker }, read(row));
        });
      },
    });
  }
}

function registerImportJobGauge(registers: Registry[], sources: MetricSources): void {
  new Gauge({
    name: 'console_ratings_import_jobs',
    help: 'FATF ratings import jobs in the database, by status.',
    labelNames: ['status'],
    registers,
    async collect() {
      await setFromDatabase(this, sources.importJobs, (counts) => {
        for (const status of RATINGS_IMPORT_STATUSES) this.set({ status }, counts[status]);
      });
    },
  });
}

/** Sets `gauge` from what `read` answers, or empties it when the database did not answer. */
async function setFromDatabase<T, L extends string>(
  gauge: Gauge<L>,
  read: () => Promise<T>,
  set: (value: T) => void,
): Promise<void> {
  let value: T;
  try {
    value = await read();
  } catch {
    gauge.reset();
    return;
  }
  set(value);
}

/**
 * `read`, shared by the calls made while one is running: the gauges of one scrape (collected side
 * by side) get the same answer from one query.
 */
function singleFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= read().finally(() => {
      running = undefined;
    });
    return running;
  };
}

/** Every combination of the label values, so that each series exists (at 0) from the start. */
function combinations<L extends string>(
  values: Record<L, readonly string[]>,
): Partial<Record<L, string>>[] {
  return Object.entries<readonly string[]>(values).reduce<Partial<Record<L, string>>[]>(
    (sets, [name, options]) =>
      sets.flatMap((set) => options.map((option) => ({ ...set, [name]: option }))),
    [{}],
  );
}

function zeroed<L extends string>(
  counter: Counter<L>,
  labelSets: Partial<Record<L, string>>[],
): Counter<L> {
  for (const labels of labelSets) counter.inc(labels, 0);
  return counter;
}
