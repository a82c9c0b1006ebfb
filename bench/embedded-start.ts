import { startConsoleServer, verdict } from './lib.ts';

/**
 * The first-time user's start: the compiled server with no DATABASE_URL on an empty data
 * directory (initdb, migrations, demo seed) until /readyz answers; then a restart on the same
 * directory. Targets: ≤ 15 s and ≤ 3 s.
 */
export async function benchEmbeddedStart(): Promise<void> {
  const port = 3231;
  const firstStarted = performance.now();
  const first = await startConsoleServer(port);
  const firstMs = performance.now() - firstStarted;
  await first.stop();
  const restarted = performance.now();
  const second = await startConsoleServer(port, { dataDir: first.dataDir });
  const restartMs = performance.now() - restarted;
  await second.stop();
  console.log('embedded PostgreSQL start (server process start to /readyz)');
  console.log(
    `  empty data directory : ${(firstMs / 1000).toFixed(1)} s; target ≤ 15 s: ${verdict(firstMs <= 15_000)}`,
  );
  console.log(
    `  restart              : ${(restartMs / 1000).toFixed(1)} s; target ≤ 3 s: ${verdict(restartMs <= 3_000)}`,
  );
}
