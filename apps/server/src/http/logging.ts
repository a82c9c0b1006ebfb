import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';
import type { AppConfig } from '../config.ts';
import { describeDatabaseError } from '../db/errors.ts';
import type { ConsoleApp } from './console-app.ts';

/**
 * The server's log (docs/architecture.md, "HTTP"; docs/operations.md, "Logs"): pino JSON, one
 * line per request (registerRequestLog). Request logs carry the route template only (query
 * strings of the sign-in callback carry codes), the Authorization and Cookie headers are removed,
 * errors from PostgreSQL are reduced to what identifies them (never the values of the statement),
 * and a client that goes away mid-response is a debug line, not an error.
 */
export function loggerOptions(
  config: Pick<AppConfig, 'logLevel'>,
  stream?: DestinationStream,
): NonNullable<FastifyServerOptions['logger']> {
  const options: LoggerOptions = {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        // @fastify/multipart logs the options it gives busboy, the request headers among them,
        // at trace level.
        'busboyOptions.headers.authorization',
        'busboyOptions.headers.cookie',
      ],
      remove: true,
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
      err: serializeError,
    },
    hooks: { logMethod: demoteClientDisconnects },
  };
  return stream ? { ...options, stream } : options;
}

/** The route a request matched, as registered (`/api/tenants/:id`), or 'unmatched' (404, SPA). */
export function routeTemplate(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/** Routes called every few seconds by probes and scrapers: their requests are logged at debug. */
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One line per request, written when the answer has gone (Fastify's own two lines, "incoming
 * request" and "request completed", are turned off in app.ts): method, route template, status,
 * duration, the request id (`reqId`, bound by Fastify) and the caller's token subject. Nothing
 * of the URL beyond its route, no header, no body: values of queries, tokens, cookies and forms
 * never reach it. A failure is logged once more, with its error, by the error handler.
 */
export function registerRequestLog(app: ConsoleApp): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeTemplate(request);
    const line = {
      method: request.method,
      route,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      userId: request.user?.subject,
    };
    if (QUIET_ROUTES.has(route)) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
    done();
  });
}

/** pino's error serializer, except for errors of PostgreSQL (and errors caused by one). */
export function serializeError(error: unknown): unknown {
  const database = describeDatabaseError(error);
  if (database) return database;
  if (!(error instanceof Error)) return error;
  const serialized: Record<string, unknown> = { ...pino.stdSerializers.err(error) };
  if (error.cause !== undefined) serialized.cause = serializeError(error.cause);
  return serialized;
}

/**
 * True for the errors a client causes by going away (a browser leaving a page mid-download, a
 * client timing out): the stream plumbing reports "premature close", Node an aborted request.
 * Nothing on our side failed, and there is nobody left to answer.
 */
export function isClientDisconnect(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    /^premature close$/i.test(error.message) ||
    (code === 'ECONNRESET' && error.message === 'aborted')
  );
}

const DEBUG_LEVEL = 20;

/**
 * pino's logMethod hook: a client disconnect logged at any level above debug (plugins such as
 * @fastify/compress log it with `reply.log.error(err)`) becomes one debug line without a stack,
 * so that alerting on errors stays meaningful.
 */
function demoteClientDisconnects(
  this: pino.Logger,
  args: Parameters<pino.LogFn>,
  method: pino.LogFn,
  level: number,
): void {
  const [first] = args;
  const error = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
  if (level > DEBUG_LEVEL && isClientDisconnect(error)) {
    this.debug({ reason: (error as Error).message }, 'Client closed the connection');
    return;
  }
  method.apply(this, args);
}
