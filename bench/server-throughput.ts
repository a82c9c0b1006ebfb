import Fastify from 'fastify';
import { accessTokenFor, load, ratio, startConsoleServer } from './lib.ts';

/**
 * Requests per second and p99 latency of an authenticated, database-backed list endpoint
 * (GET /api/countries: 249 countries, token verified on every call) under 100 concurrent
 * connections, against a bare Fastify route returning the same JSON, started here in the same run.
 */
export async function benchServerThroughput(): Promise<void> {
  const consoleServer = await startConsoleServer(3201);
  try {
    const path = '/api/countries';
    const token = await accessTokenFor(consoleServer.url, 'staff@example.com');
    const headers = { authorization: `Bearer ${token}` };
    const body: unknown = await (await fetch(`${consoleServer.url}${path}`, { headers })).json();

    const bare = Fastify();
    bare.get(path, async () => body);
    await bare.listen({ port: 3202, host: '127.0.0.1' });
    const options = { connections: 100, durationSeconds: 10 };
    const baseline = await load(`http://127.0.0.1:3202${path}`, options);
    await bare.close();
    const measured = await load(`${consoleServer.url}${path}`, { ...options, headers });

    console.log(`server GET ${path} (100 connections, 10 s)`);
    console.log(
      `  bare Fastify : ${baseline.requestsPerSecond.toFixed(0)} req/s, p99 ${baseline.p99Ms} ms`,
    );
    console.log(
      `  console      : ${measured.requestsPerSecond.toFixed(0)} req/s, p99 ${measured.p99Ms} ms, errors ${measured.errors}`,
    );
    console.log(
      `  ratio        : throughput ${ratio(measured.requestsPerSecond, baseline.requestsPerSecond)}x, p99 ${ratio(measured.p99Ms, baseline.p99Ms)}x`,
    );
  } finally {
    await consoleServer.stop();
  }
}
