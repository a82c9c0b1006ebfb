import { register } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { QUIET_ROUTES, routeTemplate } from './routes.ts';
import type { Tracing } from './tracing.ts';

/** The share of requests traced unless OTEL_TRACES_SAMPLER or OTEL_TRACES_SAMPLER_ARG say (defaultSampler). */
export const DEFAULT_TRACES_SAMPLE_RATIO = 0.01;

/** Names the console's spans unless OTEL_SERVICE_NAME does. */
const DEFAULT_SERVICE_NAME = 'kyc-admin-console';

/**
 * The OpenTelemetry SDK, configured by the standard OTEL_* variables (exporter, endpoint,
 * protocol, headers, sampler, batch delays, resource attributes), with the instrumentations of
 * what a request goes through: Fastify (the request's server span, named by its route template,
 * an incoming W3C traceparent continued), pg (a span per statement, without its parameters), and
 * the outgoing calls of node:http and undici (fetch: the sign-in provider). Traces only: metrics
 * are Prometheus's (metrics.ts), logs go to standard output.
 *
 * The request's span is @fastify/otel's alone: the HTTP instrumentation's server span over it
 * doubled the cost of tracing a request (about 90 µs of CPU instead of 35 for a small answer on
 * this machine) for attributes the route, status and trace already give.
 */
export async function startTracingSdk(): Promise<Tracing> {
  // The server's own modules import pg, Fastify and node:http as ES modules: a loader hook
  // (import-in-the-middle) wraps them as they load, only the modules the instrumentations name.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const sampler = defaultSampler(process.env);
  const sdk = new NodeSDK({
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName: DEFAULT_SERVICE_NAME }),
    ...(sampler ? { sampler } : {}),
    instrumentations: [
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        // Spans of every hook and handler would cost more than most requests, and a handler's
        // would be named after its plugin's source (ours are arrow functions): the request's
        // span and its queries show where the time goes.
        instrumentHooks: false,
        instrumentHandler: false,
        ignorePaths: (route) => QUIET_ROUTES.has(pathOf(route.url)),
        // Named as HTTP server spans are (`GET /api/tenants/:id`); its path without the query,
        // whose values (sign-in codes, search text) no trace keeps, as no log line does.
        requestHook: (span, request) => {
          span.updateName(`${request.method} ${routeTemplate(request)}`);
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

/**
 * The sampler while OTEL_TRACES_SAMPLER is unset: one request in DEFAULT_TRACES_SAMPLE_RATIO's
 * (or OTEL_TRACES_SAMPLER_ARG's ratio), and every request whose caller's `traceparent` is sampled.
 * The standard's default traces every request: a span recorded and exported costs about 40 µs of
 * CPU, as much as the cheapest answers themselves (docs/operations.md, "Traces"). Undefined when
 * OTEL_TRACES_SAMPLER is set: the SDK reads it (and its argument) as the standard says.
 */
export function defaultSampler(env: NodeJS.ProcessEnv): tracing.Sampler | undefined {
  if (env.OTEL_TRACES_SAMPLER?.trim()) return undefined;
  const asked = Number(env.OTEL_TRACES_SAMPLER_ARG?.trim() || Number.NaN);
  const ratio = asked >= 0 && asked <= 1 ? asked : DEFAULT_TRACES_SAMPLE_RATIO;
  return new tracing.ParentBasedSampler({ root: new tracing.TraceIdRatioBasedSampler(ratio) });
}

function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0] ?? '/';
}
