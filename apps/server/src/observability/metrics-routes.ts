import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { bearerToken } from '../auth/index.ts';
import { countImportJobsByStatus } from '../features/ratings-import/queries.ts';
import type { AppDependencies, ConsoleApp } from '../http/console-app.ts';
import { unauthorized } from '../http/errors.ts';
import { readWorkerBacklog } from '../outbox/backlog.ts';
import { EVENT_SUBSCRIPTIONS } from '../outbox/subscriptions.ts';
import { ConsoleMetrics } from './metrics.ts';
import { METRICS_PATH, pathOf, routeTemplate } from './routes.ts';

/**
 * Prometheus metrics (docs/operations.md, "Metrics"), on when METRICS_TOKEN or METRICS_PORT is
 * set: GET /metrics on the app's port for a caller that sends `Authorization: Bearer
 * <METRICS_TOKEN>` (a browser session never suffices), and a listener of its own on
 * 127.0.0.1:METRICS_PORT without a token (only this machine reaches it), closed with the app.
 * With neither, nothing is counted and /metrics does not exist. Call it before the modules that
 * count (auth, features, event services) are registered: they read `app.metrics`.
 */
export function registerMetrics(app: ConsoleApp, { config, database }: AppDependencies): void {
  const { metricsToken, metricsPort } = config;
  const workerNames = EVENT_SUBSCRIPTIONS.map((subscription) => subscription.name);
  const metrics =
    metricsToken === undefined && metricsPort === undefined
      ? undefined
      : new ConsoleMetrics({
          workerNames,
          pool: () => database.poolStats(),
          eventBacklog: () => readWorkerBacklog(database.db, workerNames),
          importJobs: () => countImportJobsByStatus(database.db),
        });
  app.decorate('metrics', metrics);
  if (!metrics) return;

  app.addHook('onResponse', (request, reply, done) => {
    const seconds = reply.elapsedTime / 1000;
    metrics.observeRequest(request.method, routeTemplate(request), reply.statusCode, seconds);
    done();
  });
  if (metricsToken !== undefined) registerScrapeRoute(app, metrics, metricsToken);
  if (metricsPort !== undefined) serveOnLoopback(app, metrics, metricsPort);
}

function registerScrapeRoute(app: ConsoleApp, metrics: ConsoleMetrics, token: string): void {
  const expected = sha256(token);
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    const presented = bearerToken(request.headers.authorization);
    // Digests of equal length, compared in constant time: the answer's timing tells nothing of
    // how much of a guess was right.
    if (presented === undefined || !timingSafeEqual(sha256(presented), expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthorized('Send Authorization: Bearer <METRICS_TOKEN> to read the metrics');
    }
    const { contentType, body } = await metrics.render();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
}

/** GET /metrics on 127.0.0.1:`port` from when the app is ready until it closes. */
function serveOnLoopback(app: ConsoleApp, metrics: ConsoleMetrics, port: number): void {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || pathOf(request.url ?? '') !== METRICS_PATH) {
      response.writeHead(404).end();
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      (error: unknown) => {
        app.log.error({ err: error }, 'Metrics could not be collected');
        response.writeHead(500).end();
      },
    );
  });
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    app.log.info(`Metrics at http://127.0.0.1:${port}${METRICS_PATH}`);
  });
  app.addHook('onClose', async () => {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  });
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
