import { register } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { Attributes, Span } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { QUIET_ROUTES } from './quiet-routes.ts';
import type { Tracing } from './tracing.ts';

/** Names the console's spans unless OTEL_SERVICE_NAME does. */
const DEFAULT_SERVICE_NAME = 'kyc-admin-console';

/**
 * The OpenTelemetry SDK, configured by the standard OTEL_* variables (exporter, endpoint,
 * protocol, headers, sampler, batch delays, resource attributes), with the instrumentations of
 * what a request goes through: the HTTP server and client (a span per request, an incoming W3C
 * traceparent continued), Fastify (the route template), pg (a span per statement,
 * without its parameters) and undici (fetch: the sign-in provider). Traces only: metrics are
 * Prometheus's (metrics.ts), logs go to standard output.
 */
export async function startTracingSdk(): Promise<Tracing> {
  // The server's own modules import pg, Fastify and node:http as ES modules: a loader hook
  // (import-in-the-middle) wraps them as they load, only the modules the instrumentations name.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const sdk = new NodeSDK({
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName: DEFAULT_SERVICE_NAME }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => QUIET_ROUTES.has(pathOf(request.url)),
        startIncomingSpanHook: (request) => queryWithoutValues(request.url),
      }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        // Spans of every hook and handler would cost more than most requests, and a handler's
        // would be named after its plugin's source (ours are arrow functions): the request's
        // span and its queries show where the time goes.
        instrumentHooks: false,
        instrumentHandler: false,
        ignorePaths: (route) => QUIET_ROUTES.has(pathOf(route.url)),
        requestHook: (span: Span, request: { url: string }) => {
          span.setAttribute('url.path', pathOf(request.url));
        },
      }),
      // Statements outside a request (the workers' polling every half second) would each be a
      // trace of their own.
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation(),
    ],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  return { shutdown: () => sdk.shutdown() };
}

function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0] ?? '/';
}

/**
 * The query's parameter names without their values (sign-in codes, search text), in place of
 * the `url.query` the HTTP instrumentation records, as the request log keeps no query either.
 */
function queryWithoutValues(url: string | undefined): Attributes {
  const query = url?.split('?')[1];
  if (!query) return {};
  const names = [...new URLSearchParams(query).keys()];
  return { 'url.query': names.map((name) => `${name}=REDACTED`).join('&') };
}
