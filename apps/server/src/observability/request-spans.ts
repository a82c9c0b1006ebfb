import { subscribe } from 'node:diagnostics_channel';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { QUIET_ROUTES, pathOf, routeTemplate } from './routes.ts';
import { requestTraceIds } from './request-trace-ids.ts';

/** A request's span being recorded (one request in a hundred by default: defaultSampler). */
interface RecordedRequest {
  span: Span;
  /** The message of the error the request ended with, if it threw one. */
  errorMessage?: string;
}

const recording = new WeakMap<FastifyRequest, RecordedRequest>();

/**
 * The server span of each request, on every Fastify instance created from now on (Fastify
 * announces each on the `fastify.initialization` channel, before any plugin or route is added,
 * so the hooks below run first and cover everything else).
 *
 * Ours rather than @fastify/otel's (docs/architecture.md, "Observability"): the sampler is asked
 * first, and a request it does not sample costs a `startSpan` and nothing more: no context is
 * entered (so its queries and outgoing calls make no spans either), no attribute is computed, no
 * hook is added to each route. @fastify/otel entered a context, wrapped every route's onSend
 * and onError and every hook added after it, and computed the span's name and attributes for
 * the 99 requests in 100 that nobody records.
 */
export function traceFastifyRequests(): void {
  subscribe('fastify.initialization', (message) => {
    addRequestSpanHooks((message as { fastify: FastifyInstance }).fastify);
  });
}

function addRequestSpanHooks(app: FastifyInstance): void {
  const tracer = trace.getTracer('kyc-admin-console');

  app.addHook('onRequest', (request, _reply, done) => {
    const path = pathOf(request.url);
    if (QUIET_ROUTES.has(path)) return done();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const method = request.method;
    const route = routeTemplate(request);
    // The name is asked for before the span exists (samplers may read it); the attributes are
    // set only on a span that records them.
    const span = tracer.startSpan(`${method} ${route}`, { kind: SpanKind.SERVER }, parent);
    if (!span.isRecording()) {
      // The caller's trace may be recorded upstream: its id in the log line still joins the two.
      const callerTraceId = trace.getSpanContext(parent)?.traceId;
      if (callerTraceId) requestTraceIds.set(request, callerTraceId);
      return done();
    }
    span.setAttributes({
      'http.request.method': method,
      'http.route': route,
      // The path without its query, whose values (sign-in codes, search text) no trace keeps.
      'url.path': path,
    });
    recording.set(request, { span });
    requestTraceIds.set(request, span.spanContext().traceId);
    context.with(trace.setSpan(parent, span), done);
  });

  app.addHook('onError', (request, _reply, error, done) => {
    const recorded = recording.get(request);
    if (recorded) {
      recorded.span.recordException(error);
      recorded.errorMessage = error.message;
    }
    done();
  });

  app.addHook('onResponse', (request, reply, done) => {
    // A server span's status is an error for 5xx only: a 4xx is the caller's (OpenTelemetry's
    // HTTP conventions), though its exception is in the span all the same.
    endSpan(request, { 'http.response.status_code': reply.statusCode }, reply.statusCode >= 500);
    done();
  });

  // A caller that goes away before the answer: Fastify runs no onResponse.
  app.addHook('onRequestAbort', (request, done) => {
    endSpan(request, { 'console.request.aborted': true }, false);
    done();
  });
}

function endSpan(request: FastifyRequest, attributes: Attributes, failed: boolean): void {
  const recorded = recording.get(request);
  if (!recorded) return;
  const { span, errorMessage } = recorded;
  span.setAttributes(attributes);
  if (failed) {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      ...(errorMessage ? { message: errorMessage } : {}),
    });
  }
  span.end();
  recording.delete(request);
}
