import { register } from 'node:module';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { traceFastifyRequests } from './request-spans.ts';
import type { Tracing } from './tracing.ts';

/** The share of requests traced unless OTEL_TRACES_SAMPLER or OTEL_TRACES_SAMPLER_ARG say (defaultSampler). */
export const DEFAULT_TRACES_SAMPLE_RATIO = 0.01;

/** Names the console's spans unless OTEL_SERVICE_NAME does. */
const DEFAULT_SERVICE_NAME = 'kyc-admin-console';

/**
 * The OpenTelemetry SDK, configured by the standard OTEL_* variables (exporter, endpoint,
 * protocol, headers, sampler, batch delays, resource attributes): the request's server span
 * (request-spans.ts: named by its route template, an incoming W3C traceparent continued), pg's
 * instrumentation (a span per statement, without its parameters), and those of the outgoing
 * calls of node:http and undici (fetch: the sign-in provider). Traces only: metrics are
 * Prometheus's (metrics.ts), logs go to standard output.
 *
 * Every span below the request's needs a recorded parent: a request not sampled makes no span at
 * all, and the workers' statements (polling every half second) would each be a trace of their own.
 */
export async function startTracingSdk(): Promise<Tracing> {
  // The server's own modules import pg and node:http as ES modules: a loader hook
  // (import-in-the-middle) wraps them as they load, only the modules the instrumentations name.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const sampler = defaultSampler(process.env);
  const sdk = new NodeSDK({
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName: DEFAULT_SERVICE_NAME }),
    ...(sampler ? { sampler } : {}),
    instrumentations: [
      // Its server span over ours doubled what tracing a request costs (about 90 µs of CPU
      // instead of 35 for a small answer on this machine) for what the route, status and trace
      // already say.
      new HttpInstrumentation({
        disableIncomingRequestInstrumentation: true,
        requireParentforOutgoingSpans: true,
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
    metricReaders: [],
    logRecordProcessors: [],
  });
  traceFastifyRequests();
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
