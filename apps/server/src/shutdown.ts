import type { DatabaseHandle } from './db/connection.ts';
import type { ConsoleApp } from './http/console-app.ts';
import type { Tracing } from './observability/tracing.ts';

/**
 * The graceful stop of a server process (docs/operations.md, "Stopping the console"), on the
 * first SIGTERM or SIGINT:
 *
 * 1. `/readyz` answers 503 and new connections are refused (http/lifecycle.ts, Fastify's close);
 * 2. requests in flight finish, for up to `graceSeconds`; then their connections are closed;
 * 3. meanwhile the event workers hand their claims back and import jobs pause at a batch
 *    boundary, for another instance to take over at once (runInBackground);
 * 4. the pool closes, then the embedded PostgreSQL stops (a clean, fast shutdown);
 * 5. the traces still buffered are exported, when tracing is on;
 * 6. the process exits 0, or 1 when a step failed.
 *
 * Each step logs one line at info.
 */
export function shutDownOnSignals(
  app: ConsoleApp,
  database: DatabaseHandle,
  graceSeconds: number,
  tracing?: Tracing,
): void {
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // `tsx watch` forwards the terminal's signal again: one shutdown, whatever arrives after.
    if (shuttingDown) {
      app.log.info({ signal }, 'Shutdown already under way');
      return;
    }
    shuttingDown = true;
    app.log.info(
      { signal, graceSeconds },
      `Shutting down: /readyz answers 503, new connections are refused, requests in flight have ${graceSeconds} s to finish`,
    );
    shutDown(app, database, graceSeconds, tracing).then(
      () => {
        app.log.info('Shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'Shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function shutDown(
  app: ConsoleApp,
  database: DatabaseHandle,
  graceSeconds: number,
  tracing: Tracing | undefined,
): Promise<void> {
  await closeApp(app, graceSeconds);
  await database.close();
  // Last: the spans of everything above are exported with it.
  await tracing?.shutdown();
}

/**
 * app.close(), with the requests in flight bounded: after `graceSeconds` their connections are
 * closed (the requests fail) so that the close goes on.
 */
export async function closeApp(app: ConsoleApp, graceSeconds: number): Promise<void> {
  let cutOff = false;
  const grace = setTimeout(() => {
    cutOff = true;
    app.log.warn(`Requests still in flight after ${graceSeconds} s: closing their connections`);
    app.server.closeAllConnections();
  }, graceSeconds * 1000);
  try {
    await app.close();
  } finally {
    clearTimeout(grace);
  }
  app.log.info(
    cutOff
      ? 'HTTP server closed after the grace'
      : 'HTTP server closed: every request in flight was answered',
  );
}
