/**
 * OpenTelemetry tracing (docs/operations.md, "Traces"), switched on by the standard variables:
 * an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), unless
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Off, it costs nothing: the SDK and the
 * instrumentations are not even loaded. This module imports nothing of the server, so that
 * main.ts can start tracing before pg, Fastify and HTTP are loaded (they are instrumented as
 * they load).
 */

export interface Tracing {
  /** Exports the spans still held, then stops tracing. */
  shutdown(): Promise<void>;
}

/** Whether the environment asks for traces. */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim());
  return (
    Boolean(endpoint) &&
    env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true' &&
    !exporters.includes('none')
  );
}

/** Starts tracing when the environment asks for it; answers undefined (and loads nothing) otherwise. */
export async function startTracing(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Tracing | undefined> {
  if (!tracingRequested(env)) return undefined;
  const { startTracingSdk } = await import('./tracing-sdk.ts');
  return startTracingSdk();
}
