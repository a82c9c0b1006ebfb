import type { FastifyRequest } from 'fastify';

/**
 * What the request log, the metrics and the traces say of a request's route, in one place. It
 * imports nothing of the server: tracing reads it before the server's modules are loaded.
 */

/** Where Prometheus scrapes (docs/operations.md, "Metrics"). */
export const METRICS_PATH = '/metrics';

/**
 * Routes that probes and scrapers call every few seconds: their requests are logged at debug and
 * not traced, so that the log at info and the traces show the traffic.
 */
export const QUIET_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', METRICS_PATH]);

/** A request URL's path, without its query (whose values, such as sign-in codes, nothing keeps). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The route a request matched, as registered (`/api/tenants/:id`), or 'unmatched' (404, SPA). */
export function routeTemplate(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}
