import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { loggerOptions } from './logging.ts';

/**
 * Log hygiene (docs/architecture.md, "HTTP"; docs/operations.md, "Logs"): one line per request
 * with its route template and caller, never a value of the request; what PostgreSQL refuses is
 * logged by its code and constraint, never with the values of the statement; a client going away
 * is a debug line.
 */

interface LogLine {
  level: number;
  msg?: string;
  err?: Record<string, unknown>;
  [key: string]: unknown;
}

const ERROR_LEVEL = 50;
const WARN_LEVEL = 40;
const INFO_LEVEL = 30;
const DEBUG_LEVEL = 20;

const SECRET = 'Secret-7f3a9c1e-do-not-log';
const METRICS_TOKEN = 'metrics-token-of-the-logging-test-0123456789';

let testApp: TestApp;
let token: string;
const lines: string[] = [];
const logged = () => lines.map((line) => JSON.parse(line) as LogLine);
/** The lines logged with this request id (the answer's x-request-id). */
const linesOf = (requestId: string | string[] | number | undefined) =>
  logged().filter((line) => line.reqId === requestId);

beforeAll(async () => {
  testApp = await createTestApp(
    { logLevel: 'debug', eventWorkersEnabled: false, metricsToken: METRICS_TOKEN },
    {
      logStream: { write: (line: string) => lines.push(line) },
      routes: (app) => {
        // A response that streams until the client goes away (compressed, as browsers ask).
        app.get('/test/stream', async (_request, reply) => {
          let sent = 0;
          const stream = new Readable({
            read() {
              sent += 1;
              this.push(sent > 10_000 ? null : `${'line of text '.repeat(100)}${sent}\n`);
            },
          });
          return reply.type('text/plain').send(stream);
        });
        // A hook that fails after the answer went (what Fastify reports to the request log).
        app.get(
          '/test/failing-hook',
          { onResponse: (_request, _reply, done) => done(new Error('The hook failed')) },
          async () => 'ok',
        );
      },
    },
  );
  token = await testApp.tokenFor('admin@example.com');
  // The database refuses this display name (and only this test's), as it would a real failure.
  await sql`alter table document_types add constraint refuses_the_secret
    check (display_name not like 'Secret-%')`.execute(testApp.database.db);
});

afterAll(async () => {
  await testApp.close();
});

describe('the request log', () => {
  it('is one line per request at info: method, route template, status, duration, ids', async () => {
    lines.length = 0;
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/emailtemplates/987654',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(404);
    const requestLines = linesOf(response.headers['x-request-id']);
    expect(requestLines).toEqual([
      expect.objectContaining({
        level: INFO_LEVEL,
        msg: 'request completed',
        method: 'GET',
        route: '/api/emailtemplates/:id',
        status: 404,
        durationMs: expect.any(Number),
        userId: 'admin@example.com',
      }),
    ]);
    expect(JSON.stringify(requestLines)).not.toContain('987654');
  });

  it('holds no value of the query, the path, a header, a cookie or the body', async () => {
    lines.length = 0;
    const responses = [
      await testApp.app.inject({
        method: 'GET',
        url: `/svc/formauthoring/${SECRET}?code=${SECRET}&state=${SECRET}`,
        headers: { authorization: `Bearer ${token}`, cookie: `console_session=${SECRET}` },
      }),
      await testApp.app.inject({
        method: 'POST',
        url: `/api/tenants?search=${SECRET}`,
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': SECRET },
        payload: { companyName: SECRET, namespaces: [SECRET] },
      }),
      await testApp.app.inject({ method: 'GET', url: `/auth/callback?code=${SECRET}` }),
    ];
    for (const response of responses) {
      const requestLines = linesOf(response.headers['x-request-id']);
      expect(requestLines.filter((line) => line.msg === 'request completed')).toHaveLength(1);
    }
    const text = lines.join('\n');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.split('.')[2]);
  });

  it('names no route but "unmatched" for a path no route has', async () => {
    lines.length = 0;
    const response = await testApp.app.inject({ method: 'GET', url: `/no-such/${SECRET}` });
    expect(response.statusCode).toBe(404);
    expect(linesOf(response.headers['x-request-id'])).toEqual([
      expect.objectContaining({ level: INFO_LEVEL, route: 'unmatched', status: 404 }),
    ]);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('is the one line at error, with the error, when a hook fails after the answer', async () => {
    lines.length = 0;
    const response = await testApp.app.inject({ method: 'GET', url: '/test/failing-hook' });
    expect(response.statusCode).toBe(200);
    expect(linesOf(response.headers['x-request-id'])).toEqual([
      expect.objectContaining({
        level: ERROR_LEVEL,
        msg: 'request errored',
        route: '/test/failing-hook',
        status: 200,
        err: expect.objectContaining({ message: 'The hook failed' }),
      }),
    ]);
  });

  it('logs the health probes and the scrapes at debug, so that info shows the traffic only', async () => {
    lines.length = 0;
    const scrape = { authorization: `Bearer ${METRICS_TOKEN}` };
    for (const [url, headers] of [
      ['/healthz', {}],
      ['/readyz', {}],
      ['/metrics', scrape],
    ] as const) {
      const response = await testApp.app.inject({ method: 'GET', url, headers });
      expect(linesOf(response.headers['x-request-id'])).toEqual([
        expect.objectContaining({ level: DEBUG_LEVEL, route: url, status: 200 }),
      ]);
    }
    // Never the scrape's token.
    expect(lines.join('\n')).not.toContain(METRICS_TOKEN);
  });
});

describe('a statement PostgreSQL refuses', () => {
  it('is logged by its code, constraint and table, without any value of the request', async () => {
    lines.length = 0;
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/documenttypes',
      headers: { authorization: `Bearer ${token}` },
      payload: { id: 'secret_type', displayName: SECRET, tags: [SECRET], apiReferences: {} },
    });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain(SECRET);

    // Once by the error handler, with the error; once by the request log, without it.
    const requestLines = linesOf(response.headers['x-request-id']);
    expect(requestLines.map((line) => [line.level, line.msg])).toEqual([
      [ERROR_LEVEL, 'Unhandled error'],
      [INFO_LEVEL, 'request completed'],
    ]);
    const failure = requestLines[0];
    expect(failure?.err).toEqual({
      type: 'DatabaseError',
      code: '23514',
      severity: 'ERROR',
      constraint: 'refuses_the_secret',
      schema: 'public',
      table: 'document_types',
      routine: expect.any(String),
    });
    const text = lines.join('\n');
    expect(text).not.toContain(SECRET);
    expect(text.toLowerCase()).not.toContain(SECRET.toLowerCase());
    expect(text).not.toContain('secret_type');
    expect(text).not.toContain('Failing row');
  });
});

describe('a client that goes away', () => {
  it('is logged at debug, without a stack, when it leaves mid-response', async () => {
    lines.length = 0;
    await new Promise<void>((resolve, reject) => {
      const url = new URL('/test/stream', testApp.config.publicUrl);
      const request = httpRequest(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
      });
      request.end();
    });
    await expect.poll(() => logged().some(isDisconnectLine), { timeout: 5000 }).toBe(true);
    expectNoErrorAbout(/premature|aborted|closed/i);
  });

  it('is logged at debug when it leaves while sending a body', async () => {
    lines.length = 0;
    await new Promise<void>((resolve) => {
      const url = new URL('/api/documenttypes', testApp.config.publicUrl);
      const request = httpRequest(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': '100000',
        },
      });
      request.on('error', () => resolve());
      request.write('{"id": "half', () => setTimeout(() => request.destroy(), 100));
      request.on('close', () => resolve());
    });
    // Not an error, nor the database being unavailable (Node reports the abort as ECONNRESET).
    await expect.poll(() => logged().some(isDisconnectLine), { timeout: 5000 }).toBe(true);
    expectNoErrorAbout(/./);
  });

  it('turns any disconnect a plugin logs as an error into one debug line', () => {
    const captured: string[] = [];
    const logger = pino(loggerOptions({ logLevel: 'debug' }) as pino.LoggerOptions, {
      write: (line: string) => captured.push(line),
    });
    const prematureClose = Object.assign(new Error('premature close'), {
      code: 'ERR_STREAM_PREMATURE_CLOSE',
    });
    logger.error(prematureClose);
    logger.error({ err: prematureClose }, 'stream failed');
    logger.error(new Error('a real failure'));
    const parsed = captured.map((line) => JSON.parse(line) as LogLine);
    expect(parsed.map((line) => [line.level, line.msg])).toEqual([
      [DEBUG_LEVEL, 'Client closed the connection'],
      [DEBUG_LEVEL, 'Client closed the connection'],
      [ERROR_LEVEL, 'a real failure'],
    ]);
    expect(captured.slice(0, 2).join('')).not.toContain('stack');
  });
});

function isDisconnectLine(line: LogLine): boolean {
  return line.level === DEBUG_LEVEL && line.msg === 'Client closed the connection';
}

function expectNoErrorAbout(pattern: RegExp) {
  const serious = logged().filter(
    (line) => line.level >= WARN_LEVEL && pattern.test(JSON.stringify(line)),
  );
  expect(serious).toEqual([]);
}
