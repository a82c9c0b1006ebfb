import { execFileSync } from 'node:child_process';
import { mkdtemp, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  accessTokenFor,
  adminQuery,
  benchPostgresUrl,
  load,
  median,
  ratio,
  startConsoleServer,
  verdict,
  type LoadResult,
} from './lib.ts';
import { nodeBinDir } from '../scripts/node-releases.mjs';

const OFF_PORT = 3261;
const ON_PORT = 3262;
const RECEIVER_PORT = 3263;
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef0123456789';
const ROUNDS = 3;
const PATH = '/api/countries';

/** The newest LTS line: the comparison runs on it too, whatever Node runs the bench. */
const NEWEST_LINE = '24';

/** One side of the comparison: a port, its environment and the log file it writes. */
interface Side {
  port: number;
  env: Record<string, string>;
  logFile: string;
}

type RoundResult = LoadResult & { logBytes: number };

/**
 * The request cost of metrics and tracing (issue 30). GET /api/countries (the cached list, a
 * token verified per call) under 100 connections on the same build twice, on one database: with
 * METRICS_TOKEN set and /metrics scraped once a second, and OTEL_EXPORTER_OTLP_ENDPOINT set
 * (requests traced as the console samples them by default, one in a hundred, or as
 * BENCH_OTEL_TRACES_SAMPLER says, e.g. always_on; the spans sent to an OTLP receiver here that
 * discards them); and with both off. Rounds alternate between the two (BENCH_OBSERVABILITY_SECONDS
 * each, default 10), so that load from elsewhere falls on both. Target: ≥ 0.9× the throughput
 * with both off. Both log at LOG_LEVEL=info into a file: the bytes it grows by per request are
 * printed.
 *
 * The comparison runs on the bench's Node and again on Node 24 (scripts/node-releases.mjs, from
 * the npm registry): tracing keeps each request's context in an AsyncLocalStorage, which Node 20
 * and 22 carry through a hook on every promise (some twenty per request here) and Node 24 in the
 * promise's own context frame, without one; the two runs show what that hook costs.
 */
export async function benchObservability(): Promise<void> {
  const seconds = Number(process.env.BENCH_OBSERVABILITY_SECONDS ?? '10');
  const receiver = await startDiscardingReceiver();
  const databaseName = `console_bench_observability_${Date.now()}`;
  const postgresUrl = await benchPostgresUrl();
  await adminQuery(`${postgresUrl}/postgres`, `create database ${databaseName}`);
  const logDir = await mkdtemp(path.join(tmpdir(), 'console-bench-logs-'));
  const env = {
    DATABASE_URL: `${postgresUrl}/${databaseName}`,
    MIGRATE_ON_START: 'true',
    SEED_DEMO_DATA: 'true',
    LOG_LEVEL: 'info',
    EVENT_WORKERS_ENABLED: 'false',
  };
  const sides: Record<'off' | 'on', Side> = {
    off: { port: OFF_PORT, env, logFile: path.join(logDir, 'off.log') },
    on: {
      port: ON_PORT,
      env: {
        ...env,
        METRICS_TOKEN,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${RECEIVER_PORT}`,
        ...(process.env.BENCH_OTEL_TRACES_SAMPLER
          ? { OTEL_TRACES_SAMPLER: process.env.BENCH_OTEL_TRACES_SAMPLER }
          : {}),
      },
      logFile: path.join(logDir, 'on.log'),
    },
  };
  const nodes = [process.execPath];
  if (process.versions.node.split('.')[0] !== NEWEST_LINE) {
    nodes.push(path.join(nodeBinDir(NEWEST_LINE), 'node'));
  }
  try {
    for (const node of nodes) await compareOn(node, sides, seconds, receiver);
  } finally {
    await receiver.stop();
    await adminQuery(
      `${postgresUrl}/postgres`,
      `drop database if exists ${databaseName} with (force)`,
    );
  }
}

/** The rounds of both sides on the Node binary `node`, and their report. */
async function compareOn(
  node: string,
  sides: Record<'off' | 'on', Side>,
  seconds: number,
  receiver: Receiver,
): Promise<void> {
  const version = execFileSync(node, ['--version']).toString().trim();
  console.log(`  on Node ${version}:`);
  const start = (side: Side) =>
    startConsoleServer(side.port, { env: side.env, logFile: side.logFile, node });
  const off = await start(sides.off);
  const on = await start(sides.on);
  const exportsBefore = receiver.exports();
  try {
    const headers = {
      off: { authorization: `Bearer ${await accessTokenFor(off.url, 'staff@example.com')}` },
      on: { authorization: `Bearer ${await accessTokenFor(on.url, 'staff@example.com')}` },
    };
    const results: Record<'off' | 'on', RoundResult[]> = { off: [], on: [] };
    let scrapes = 0;
    let failedScrapes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      for (const side of order) {
        const url = side === 'on' ? on.url : off.url;
        const logBefore = (await stat(sides[side].logFile)).size;
        const scraper =
          side === 'on'
            ? setInterval(() => {
                scrapes += 1;
                void fetch(`${on.url}/metrics`, {
                  headers: { authorization: `Bearer ${METRICS_TOKEN}` },
                })
                  .then(async (response) => {
                    await response.text();
                    if (!response.ok) failedScrapes += 1;
                  })
                  .catch(() => (failedScrapes += 1));
              }, 1000)
            : undefined;
        const result = await load(`${url}${PATH}`, {
          connections: 100,
          durationSeconds: seconds,
          headers: headers[side],
        }).finally(() => clearInterval(scraper));
        const logBytes = (await stat(sides[side].logFile)).size - logBefore;
        results[side].push({ ...result, logBytes });
        console.log(
          `  round ${round + 1} ${side.padEnd(3)}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms, errors ${result.errors}`,
        );
      }
    }
    report(version, results, {
      scrapes,
      failedScrapes,
      spanExports: receiver.exports() - exportsBefore,
    });
  } finally {
    await Promise.all([off.stop(), on.stop()]);
  }
}

function report(
  version: string,
  results: Record<'off' | 'on', RoundResult[]>,
  counts: { scrapes: number; failedScrapes: number; spanExports: number },
): void {
  const summary = (side: 'off' | 'on') => {
    const runs = results[side];
    const requests = runs.reduce((sum, run) => sum + run.requests, 0);
    return {
      requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
      p99Ms: median(runs.map((run) => run.p99Ms)),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
      logBytesPerRequest: runs.reduce((sum, run) => sum + run.logBytes, 0) / requests,
    };
  };
  const off = summary('off');
  const on = summary('on');
  const throughput = on.requestsPerSecond / off.requestsPerSecond;
  const sampler =
    process.env.BENCH_OTEL_TRACES_SAMPLER ?? 'the default (1 in 100, and as the caller asks)';
  console.log(
    `metrics and tracing on Node ${version}: GET ${PATH}, 100 connections, median of ${ROUNDS} rounds, traces sampled by ${sampler}`,
  );
  console.log(
    `  both off     : ${off.requestsPerSecond.toFixed(0)} req/s, p99 ${off.p99Ms} ms, errors ${off.errors}`,
  );
  console.log(
    `  both on      : ${on.requestsPerSecond.toFixed(0)} req/s, p99 ${on.p99Ms} ms, errors ${on.errors} ` +
      `(${counts.scrapes} scrapes, ${counts.failedScrapes} failed; ${counts.spanExports} span exports received)`,
  );
  console.log(
    `  ratio        : throughput ${ratio(on.requestsPerSecond, off.requestsPerSecond)}x, p99 ${ratio(on.p99Ms, off.p99Ms)}x`,
  );
  console.log(
    `  target       : ≥ 0.9x, 0 errors: ${verdict(
      throughput >= 0.9 && on.errors === 0 && off.errors === 0 && counts.failedScrapes === 0,
      `throughput ${throughput.toFixed(2)}x, errors ${on.errors + off.errors}, failed scrapes ${counts.failedScrapes}`,
    )}`,
  );
  console.log(
    `  log at info  : ${off.logBytesPerRequest.toFixed(0)} bytes per request, ${on.logBytesPerRequest.toFixed(0)} with tracing (a traceId on traced requests only)`,
  );
}

interface Receiver {
  /** How many exports arrived so far. */
  exports(): number;
  stop(): Promise<void>;
}

/** An OTLP/HTTP receiver that reads every export and throws it away; counts the exports. */
async function startDiscardingReceiver(): Promise<Receiver> {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(RECEIVER_PORT, '127.0.0.1', resolve));
  return {
    exports: () => exports,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
