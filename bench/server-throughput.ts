import {
  accessTokenFor,
  load,
  ratio,
  startBareServer,
  startConsoleServer,
  verdict,
} from './lib.ts';

/**
 * (a) GET /api/countries (249 countries from the reference cache, token verified on every call)
 *     under 100 connections for 20 s, against a bare Fastify route sending the same bytes, started
 *     here in the same run. Target: ≥ 0.6× its throughput, 0 errors, p99 ≤ 3× its p99.
 * (b) 200 connections for 60 s on each of countries, tenants, entities and events (demo data,
 *     embedded PostgreSQL). Target: 0 errors, no answer other than 2xx/304.
 */
export async function benchServerThroughput(): Promise<void> {
  const consoleServer = await startConsoleServer(3201);
  try {
    const token = await accessTokenFor(consoleServer.url, 'admin@example.com');
    const headers = { authorization: `Bearer ${token}` };
    await countriesAgainstBareFastify(consoleServer.url, headers);
    await sustainedLoad(consoleServer.url, headers);
  } finally {
    await consoleServer.stop();
  }
}

async function countriesAgainstBareFastify(serverUrl: string, headers: Record<string, string>) {
  const path = '/api/countries';
  const bytes = Buffer.from(await (await fetch(`${serverUrl}${path}`, { headers })).arrayBuffer());
  const options = { connections: 100, durationSeconds: 20 };
  const bare = await startBareServer('bench/bare-fastify.ts', 3202, path, bytes);
  const baseline = await load(`http://127.0.0.1:3202${path}`, options).finally(bare.stop);
  const measured = await load(`${serverUrl}${path}`, { ...options, headers });

  const throughput = measured.requestsPerSecond / baseline.requestsPerSecond;
  const p99 = measured.p99Ms / Math.max(baseline.p99Ms, 1);
  console.log(`server GET ${path} (100 connections, 20 s, ${bytes.length} bytes)`);
  console.log(
    `  bare Fastify : ${baseline.requestsPerSecond.toFixed(0)} req/s, p99 ${baseline.p99Ms} ms`,
  );
  console.log(
    `  console      : ${measured.requestsPerSecond.toFixed(0)} req/s, p99 ${measured.p99Ms} ms, errors ${measured.errors}`,
  );
  console.log(
    `  ratio        : throughput ${ratio(measured.requestsPerSecond, baseline.requestsPerSecond)}x, p99 ${ratio(measured.p99Ms, baseline.p99Ms)}x`,
  );
  console.log(
    `  target       : ≥ 0.6x, 0 errors, p99 ≤ 3x: ${verdict(
      throughput >= 0.6 && measured.errors === 0 && p99 <= 3,
      `throughput ${throughput.toFixed(2)}x, errors ${measured.errors}, p99 ${p99.toFixed(2)}x`,
    )}`,
  );
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
