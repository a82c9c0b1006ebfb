import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffTokenFor } from '../../test/callers.ts';
import { OidcTestProvider } from '../../test/oidc-test-provider.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import type { DatabaseHandle } from '../db/connection.ts';
import { freePort } from '../net/free-port.ts';
import { SmtpCatcher } from '../outbox/smtp-catcher.ts';
import { eventually } from '../outbox/test-support.ts';

/**
 * Traces (docs/operations.md, "Traces"): the real server process (main.ts) with the standard
 * OTEL_* variables sends its spans to an OTLP/HTTP receiver run here; without them it loads
 * nothing of the SDK.
 */

const SERVER_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A span as OTLP/JSON carries it. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number; message?: string };
  events?: { name: string }[];
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;
const SPAN_STATUS_ERROR = 2;

/** An OTLP/HTTP receiver (JSON) that keeps every span it is sent, and the services that sent them. */
async function startReceiver(): Promise<{
  url: string;
  spans: OtlpSpan[];
  services: Set<string>;
  server: Server;
}> {
  const spans: OtlpSpan[] = [];
  const services = new Set<string>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const payload = JSON.parse(body) as {
        resourceSpans: {
          resource: Pick<OtlpSpan, 'attributes'>;
          scopeSpans: { spans: OtlpSpan[] }[];
        }[];
      };
      for (const { resource, scopeSpans } of payload.resourceSpans) {
        const service = resource.attributes.find((item) => item.key === 'service.name');
        if (service?.value.stringValue) services.add(service.value.stringValue);
        for (const scope of scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, spans, services, server };
}

function attribute(span: OtlpSpan, key: string): string | number | undefined {
  const value = span.attributes.find((item) => item.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
}

interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Standard output and error so far (the log lines). */
  output: () => string;
  /** Sends SIGTERM and waits for the exit; answers what the process wrote. */
  stop: () => Promise<string>;
}

/**
 * main.ts in a process of its own on `database`, with `env` on top of a test environment
 * without any OTEL_* variable. A preload reports at exit how many modules of OpenTelemetry's SDK
 * and instrumentations the process loaded (`opentelemetry modules: N`; the API, which every
 * process loads and which does nothing without the SDK, is not counted).
 */
async function startServer(
  database: DatabaseHandle,
  env: Record<string, string>,
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')),
  );
  const reportLoaded = `data:text/javascript,${encodeURIComponent(`
    import { createRequire } from 'node:module';
    const { cache } = createRequire(process.cwd() + '/');
    process.on('exit', () => {
      const loaded = Object.keys(cache).filter((id) =>
        (id.includes('/@opentelemetry/') && !id.includes('/@opentelemetry/api/')) ||
        id.includes('/@fastify/otel/'));
      process.stdout.write('opentelemetry modules: ' + loaded.length + '\\n');
    });
  `)}`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', reportLoaded, 'src/main.ts'],
    {
      cwd: SERVER_ROOT,
      env: {
        ...inherited,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: url,
        LOG_LEVEL: 'info',
        DATABASE_URL: database.connectionString,
        MIGRATE_ON_START: 'false',
        SEED_DEMO_DATA: 'false',
        EVENT_WORKERS_ENABLED: 'false',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`The server exited: ${output}`);
      return (await fetch(`${url}/readyz`).catch(() => null))?.ok ?? false;
    },
    30_000,
    'the server to start',
  );
  return {
    child,
    url,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      return output;
    },
  };
}

function loadedModules(output: string): number {
  return Number(/opentelemetry modules: (\d+)/.exec(output)?.[1] ?? NaN);
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * The spans of `traceId` once its server span (the request's, which ends last and may come in a
 * later export) has arrived and `complete` holds for them.
 */
function spansOf(receiver: Receiver, traceId: string, complete: (spans: OtlpSpan[]) => boolean) {
  return eventually(
    async () => {
      const spans = receiver.spans.filter((span) => span.traceId === traceId);
      const served = spans.some((span) => span.kind === SPAN_KIND_SERVER);
      return served && complete(spans) && spans;
    },
    10_000,
    'the request’s spans',
  );
}

/** Whether `span` descends from `ancestor` among `spans`. */
function descends(spans: OtlpSpan[], span: OtlpSpan, ancestor: OtlpSpan): boolean {
  const parent = spans.find((candidate) => candidate.spanId === span.parentSpanId);
  return parent !== undefined && (parent === ancestor || descends(spans, parent, ancestor));
}

/** A caller's W3C traceparent, sampled (flags 01) unless said otherwise. */
function traceparent(sampled = true) {
  const traceId = randomBytes(16).toString('hex');
  const callerSpanId = randomBytes(8).toString('hex');
  return {
    traceId,
    callerSpanId,
    header: `00-${traceId}-${callerSpanId}-${sampled ? '01' : '00'}`,
  };
}

/** The server's request log lines so far. */
function requestLines(server: ServerProcess): Record<string, unknown>[] {
  return server
    .output()
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .filter((entry) => entry.msg === 'request completed');
}

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

describe('with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let receiver: Receiver;
  let server: ServerProcess;
  let provider: OidcTestProvider;
  const catcher = new SmtpCatcher();

  beforeAll(async () => {
    receiver = await startReceiver();
    const smtpPort = await catcher.start(0);
    provider = await OidcTestProvider.start();
    server = await startServer(database, {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      OIDC_ISSUER: provider.url,
      OIDC_CLIENT_ID: 'console',
      OIDC_CLIENT_SECRET: 'secret',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'console-under-test',
      OTEL_TRACES_SAMPLER: 'always_on',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await catcher.stop();
    await provider?.stop();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('continues the caller’s trace: a server span with the route, its queries below it, its id in the log', async () => {
    const { traceId, callerSpanId, header } = traceparent();
    const response = await fetch(`${server.url}/api/countries?search=secret-value`, {
      headers: {
        authorization: `Bearer ${await staffTokenFor(database, server.url)}`,
        traceparent: header,
      },
    });
    expect(response.status).toBe(200);

    const trace = await spansOf(receiver, traceId, (spans) =>
      spans.some((span) => attribute(span, 'db.system.name') === 'postgresql'),
    );
    const serverSpan = trace.find(
      (span) => span.kind === SPAN_KIND_SERVER && span.parentSpanId === callerSpanId,
    );
    expect(serverSpan).toBeDefined();
    expect(serverSpan?.name).toBe('GET /api/countries');
    expect(attribute(serverSpan!, 'http.route')).toBe('/api/countries');
    expect(attribute(serverSpan!, 'http.response.status_code')).toBe(200);
    expect(attribute(serverSpan!, 'url.path')).toBe('/api/countries');

    // Every query of the request is a client span that descends from the server span.
    const queries = trace.filter((span) => attribute(span, 'db.system.name') === 'postgresql');
    expect(queries.length).toBeGreaterThan(0);
    // Waits for a pool connection too: pg-pool is instrumented only when tracing started before
    // the server's modules were imported (main.ts).
    expect(queries.map((query) => query.name)).toContain('pg-pool.connect');
    for (const query of queries) {
      expect(query.kind).toBe(SPAN_KIND_CLIENT);
      expect(descends(trace, query, serverSpan!)).toBe(true);
    }
    expect(JSON.stringify(trace)).not.toContain('secret-value');
    // Named as OTEL_SERVICE_NAME says.
    expect([...receiver.services]).toEqual(['console-under-test']);

    const line = requestLines(server).find((entry) => entry.route === '/api/countries');
    expect(line?.traceId).toBe(traceId);
  });

  it('puts the mail a request sends in its trace', async () => {
    const { traceId, header } = traceparent();
    const response = await fetch(`${server.url}/api/emailtemplates/testsend`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await staffTokenFor(database, server.url)}`,
        'content-type': 'application/json',
        traceparent: header,
      },
      body: JSON.stringify({
        ToAddress: 'qa@console.example',
        TemplateKey: 'tenant-user-invitation',
      }),
    });
    expect(response.status).toBe(200);
    const trace = await spansOf(receiver, traceId, (spans) =>
      spans.some((span) => span.name === 'smtp send'),
    );
    const serverSpan = trace.find((span) => span.kind === SPAN_KIND_SERVER);
    const mail = trace.find((span) => span.name === 'smtp send');
    expect(mail).toMatchObject({ kind: SPAN_KIND_CLIENT });
    expect(attribute(mail!, 'console.mail.kind')).toBe('template_test');
    expect(descends(trace, mail!, serverSpan!)).toBe(true);
  });

  it('puts the calls a request makes to the sign-in provider in its trace', async () => {
    const { traceId, header } = traceparent();
    const response = await fetch(`${server.url}/authenticated`, {
      headers: { traceparent: header },
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    const toProvider = (span: OtlpSpan) =>
      String(attribute(span, 'url.full') ?? '').startsWith(provider.url);
    const trace = await spansOf(receiver, traceId, (spans) => spans.some(toProvider));
    const serverSpan = trace.find((span) => span.kind === SPAN_KIND_SERVER);
    const call = trace.find(toProvider);
    expect(call).toMatchObject({ kind: SPAN_KIND_CLIENT });
    expect(descends(trace, call!, serverSpan!)).toBe(true);
  });

  it('traces no health probe, even one whose caller samples it', async () => {
    const probe = traceparent();
    const request = traceparent();
    await fetch(`${server.url}/healthz`, { headers: { traceparent: probe.header } });
    await fetch(`${server.url}/api/countries`, { headers: { traceparent: request.header } });
    await spansOf(receiver, request.traceId, () => true);
    expect(receiver.spans.some((span) => attribute(span, 'url.path') === '/healthz')).toBe(false);
    expect(receiver.spans.some((span) => span.traceId === probe.traceId)).toBe(false);
  });

  it('traces a request without a caller’s traceparent as OTEL_TRACES_SAMPLER says', async () => {
    // The server runs with OTEL_TRACES_SAMPLER=always_on: the default would trace one in a hundred.
    const response = await fetch(`${server.url}/api/countries`);
    expect(response.status).toBe(401);
    const span = await eventually(
      async () =>
        receiver.spans.find(
          (candidate) =>
            candidate.kind === SPAN_KIND_SERVER &&
            candidate.parentSpanId === undefined &&
            attribute(candidate, 'http.response.status_code') === 401,
        ),
      10_000,
      'the span of a request without traceparent',
    );
    // A 4xx is the caller's: the span keeps its exception but is not an error (5xx only).
    expect(span.name).toBe('GET /api/countries');
    expect(span.status?.code ?? 0).not.toBe(SPAN_STATUS_ERROR);
    expect(span.events?.map((event) => event.name)).toContain('exception');
  });

  it('loaded the SDK and its instrumentations', async () => {
    expect(loadedModules(await server.stop())).toBeGreaterThan(0);
  });
});

describe('with the default sampler', () => {
  let receiver: Receiver;
  let server: ServerProcess;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer(database, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // The default sampler with none of the requests of its own: only callers' samples count.
      OTEL_TRACES_SAMPLER_ARG: '0',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('makes no span for a request it does not sample, and logs the caller’s trace id', async () => {
    const headers = { authorization: `Bearer ${await staffTokenFor(database, server.url)}` };
    const unsampled = traceparent(false);
    const notSampledHere = await fetch(`${server.url}/api/countries?page=1`, {
      headers: { ...headers, traceparent: unsampled.header },
    });
    const withoutCaller = await fetch(`${server.url}/api/tenants`, { headers });
    expect([notSampledHere.status, withoutCaller.status]).toEqual([200, 200]);

    // A request its caller samples, sent last: once its spans are in, the others' would be too.
    const sampled = traceparent();
    const traced = await fetch(`${server.url}/api/documenttypes`, {
      headers: { ...headers, traceparent: sampled.header },
    });
    expect(traced.status).toBe(200);
    const spans = await spansOf(receiver, sampled.traceId, (found) =>
      found.some((span) => attribute(span, 'db.system.name') === 'postgresql'),
    );
    expect(spans.find((span) => span.kind === SPAN_KIND_SERVER)?.parentSpanId).toBe(
      sampled.callerSpanId,
    );
    // Nothing else arrived: no server span, query or connection of the two requests not sampled.
    expect(receiver.spans.filter((span) => span.traceId !== sampled.traceId)).toEqual([]);

    const traceIdOf = (route: string) =>
      requestLines(server).find((line) => line.route === route)?.traceId;
    expect(traceIdOf('/api/countries')).toBe(unsampled.traceId);
    expect(traceIdOf('/api/tenants')).toBeUndefined();
    expect(traceIdOf('/api/documenttypes')).toBe(sampled.traceId);
  });
});

describe('without OTEL_* variables', () => {
  it('loads nothing of OpenTelemetry’s SDK or instrumentations', async () => {
    const server = await startServer(database, {});
    expect((await fetch(`${server.url}/api/countries`)).status).toBe(401);
    const output = await server.stop();
    expect(loadedModules(output)).toBe(0);
    expect(output).not.toMatch(/"traceId"/);
  });
});

describe('the production bundle (dist/main.js)', () => {
  it('imports no npm package but pino before tracing started', async () => {
    // esbuild's code splitting keeps what main.ts imports dynamically in chunks of their own; one
    // bundle would import every package at its top, before tracing could instrument them.
    await promisify(execFile)(process.execPath, ['build.mjs'], { cwd: SERVER_ROOT });
    const main = await readFile(new URL('dist/main.js', `file://${SERVER_ROOT}`), 'utf8');
    const staticImports = [...main.matchAll(/^import .*?"([^"]+)";$/gm)].map(
      (match) => match[1] ?? '',
    );
    expect(staticImports.filter((from) => !from.startsWith('./'))).toEqual(['pino']);
  });
});
