import {
  accessTokenFor,
  load,
  type LoadResult,
  ratio,
  startBareServer,
  startConsoleServer,
  verdict,
} from './lib.ts';

/** The port of the bare servers the console is compared with. */
const BARE_PORT = 3202;

/**
 * (a) GET /api/countries (249 countries from the reference cache, token verified on every call)
 *     under 100 connections for 20 s, against a bare Fastify route sending the same bytes, started
 *     here in the same run. Target: ≥ 0.6× its throughput, 0 errors, p99 ≤ 3× its p99.
 * (b) GET /api/events (the screen's first page of the demo data's events, from PostgreSQL on every
 *     call) under 200 connections for BENCH_EVENTS_BARE_SECONDS (default 20) s, against plain Node
 *     (bench/bare-node.mjs) sending the same bytes (issue 31, part 6). Target: ≥ 0.5× its
 *     throughput, 0 errors.
 * (c) 200 connections for 60 s on each of countries, tenants, entities and events (demo data,
 *     embedded PostgreSQL). Target: 0 errors, no answer other than 2xx/304.
 */
export async function benchServerThroughput(): Promise<void> {
  const consoleServer = await startConsoleServer(3201);
  try {
    const token = await accessTokenFor(consoleServer.url, 'admin@example.com');
    const headers = { authorization: `Bearer ${token}` };
    await countriesAgainstBareFastify(consoleServer.url, headers);
    await eventsAgainstBareNode(consoleServer.url, headers);
    await sustainedLoad(consoleServer.url, headers);
  } finally {
    await consoleServer.stop();
  }
}

async function countriesAgainstBareFastify(serverUrl: string, headers: Record<string, string>) {
  const { measured, baseline } = await againstBareServer(serverUrl, headers, {
    path: '/api/countries',
    bare: 'bench/bare-fastify.ts',
    connections: 100,
    durationSeconds: 20,
  });
  const throughput = measured.requestsPerSecond / baseline.requestsPerSecond;
  const p99 = measured.p99Ms / Math.max(baseline.p99Ms, 1);
  console.log(
    `  target       : ≥ 0.6x, 0 errors, p99 ≤ 3x: ${verdict(
      throughput >= 0.6 && measured.errors === 0 && p99 <= 3,
      `throughput ${throughput.toFixed(2)}x, errors ${measured.errors}, p99 ${p99.toFixed(2)}x`,
    )}`,
  );
}

async function eventsAgainstBareNode(serverUrl: string, headers: Record<string, string>) {
  const { measured, baseline } = await againstBareServer(serverUrl, headers, {
    path: '/api/events',
    bare: 'bench/bare-node.mjs',
    connections: 200,
    durationSeconds: Number(process.env.BENCH_EVENTS_BARE_SECONDS ?? '20'),
  });
  const throughput = measured.requestsPerSecond / baseline.requestsPerSecond;
  console.log(
    `  target       : ≥ 0.5x, 0 errors: ${verdict(
      throughput >= 0.5 && measured.errors === 0,
      `throughput ${throughput.toFixed(2)}x, errors ${measured.errors}`,
    )}`,
  );
}

/**
 * `path` of the console under load, after a bare server (`bare`, a process of its own) answering
 * the bytes the console answers there under the same load; prints both and their ratios.
 */
async function againstBareServer(
  serverUrl: string,
  headers: Record<string, string>,
  options: {
    path: string;
    bare: Parameters<typeof startBareServer>[0];
    connections: number;
    durationSeconds: number;
  },
): Promise<{ measured: LoadResult; baseline: LoadResult }> {
  const { path, connections, durationSeconds } = options;
  const bytes = Buffer.from(await (await fetch(`${serverUrl}${path}`, { headers })).arrayBuffer());
  const bare = await startBareServer(options.bare, BARE_PORT, path, bytes);
  const baseline = await load(`http://127.0.0.1:${BARE_PORT}${path}`, {
    connections,
    durationSeconds,
  }).finally(bare.stop);
  const measured = await load(`${serverUrl}${path}`, { connections, durationSeconds, headers });
  const name = options.bare === 'bench/bare-node.mjs' ? 'plain Node' : 'bare Fastify';
  console.log(
    `server GET ${path} (${connections} connections, ${durationSeconds} s, ${bytes.length} bytes)`,
  );
  console.log(
    `  ${name.padEnd(12)} : ${baseline.requestsPerSecond.toFixed(0)} req/s, p99 ${baseline.p99Ms} ms`,
  );
  console.log(
    `  console      : ${measured.requestsPerSecond.toFixed(0)} req/s, p99 ${measured.p99Ms} ms, errors ${measured.errors}`,
  );
  console.log(
    `  ratio        : throughput ${ratio(measured.requestsPerSecond, baseline.requestsPerSecond)}x, p99 ${ratio(measured.p99Ms, baseline.p99Ms)}x`,
  );
  return { measured, baseline };
}

async function sustainedLoad(serverUrl: string, headers: Record<string, string>) {
  const seconds = Number(process.env.BENCH_SUSTAINED_SECONDS ?? '60');
  console.log(`server under 200 connections, ${seconds} s per endpoint`);
  for (const path of ['/api/countries', '/api/tenants', '/api/Entity', '/api/events']) {
    const result = await load(`${serverUrl}${path}`, {
      connections: 200,
      durationSeconds: seconds,
      headers,
    });
    console.log(
      `  ${path.padEnd(16)}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms, ` +
        `errors or non-2xx/304 ${result.errors}; target 0: ${verdict(result.errors === 0)}`,
    );
  }
  const health = performance.now();
  await fetch(`${serverUrl}/healthz`);
  console.log(`  /healthz right after: ${(performance.now() - health).toFixed(0)} ms`);
}
