/** Where Prometheus scrapes (docs/operations.md, "Metrics"). */
export const METRICS_PATH = '/metrics';

/**
 * Routes that probes and scrapers call every few seconds: their requests are logged at debug and
 * not traced, so that the log at info and the traces show the traffic. Kept apart from logging
 * and tracing so that tracing can read it before anything else of the server is loaded.
 */
export const QUIET_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', METRICS_PATH]);
