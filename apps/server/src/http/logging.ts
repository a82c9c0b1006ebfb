import {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';
import type { AppConfig } from '../config.ts';
import { describeDatabaseError } from '../db/errors.ts';
import { QUIET_ROUTES, pathOf, routeTemplate } from '../observability/routes.ts';
import { requestTraceIds } from '../observability/request-trace-ids.ts';

/**
 * The server's log (docs/architecture.md, "HTTP"; docs/operations.md, "Logs"): pino JSON, one
 * line per request (RequestLog). Request logs carry the route template only (query
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
        path: pathOf(req.url),
      }),
      err: serializeError,
    },
    hooks: { logMethod: demoteClientDisconnects },
  };
  return stream ? { ...options, stream } : options;
}

/**
 * Fastify's own request lines replaced by one line per request, written when the answer has gone
 * (Fastify's "incoming request" is off): method, route template, status, duration, the request
 * id (`reqId`, bound by Fastify), the caller's token subject and, while tracing is on, the
 * request's trace id (its span is still the active one here). Nothing of the URL beyond its
 * route, no header, no body: values of queries, tokens, cookies and forms never reach it. A
 * failure is logged once more, with its error, by the error handler; an answer that broke off is
 * this line at error with the error (a client that went away: a debug line, demoteClientDisconnects).
 */
export class RequestLog extends LogController {
  constructor() {
    super({ disableRequestLogging: true });
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const route = routeTemplate(request);
    const line = {
      method: request.method,
      route,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      userId: request.user?.subject,
      traceId: requestTraceIds.get(request),
    };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else if (QUIET_ROUTES.has(route)) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  }
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
