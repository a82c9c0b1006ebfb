import { spawn } from 'node:child_process';
import http from 'node:http';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { staffTokenFor } from '../test/callers.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { freePort } from './net/free-port.ts';
import { eventually } from './outbox/test-support.ts';
import { closeApp } from './shutdown.ts';

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** A GET on a kept-alive connection of its own, as a browser or a load balancer sends it. */
function get(port: number, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<Answer> {
  const request = http.request({
    host: '127.0.0.1',
    port,
    path,
    headers,
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
  });
  request.end();
  return answerOf(request);
}

/** The answer to `request`, once its sender has ended it. */
function answerOf(request: http.ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          connection: response.headers.connection,
          body: text,
        }),
      );
    });
  });
}

/** Resolves once a TCP connection to `port` is refused; fails if one is accepted. */
function refusedConnection(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      reject(new Error('A new connection was accepted'));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** An open connection doing nothing: kept alive after a request, or not used yet. */
async function idleConnection(port: number, used: boolean) {
  const socket = connect(port, '127.0.0.1');
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  if (used) {
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
  }
  return { closed };
}

/** A promise the test resolves itself, and one that says when something waits on it. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let entered: () => void = () => undefined;
  const waiting = new Promise<void>((resolve) => (entered = resolve));
  return {
    open,
    waiting,
    pass: async () => {
      entered();
      await opened;
    },
  };
}

/** A test app with GET /test/slow, answered once `slow` opens; a request with x-hold waits for `held` first. */
async function appWithSlowRoute(
  slow: ReturnType<typeof gate>,
  held: ReturnType<typeof gate>,
  logged: string[] = [],
) {
  return createTestApp(
    { logLevel: 'info' },
    {
      logStream: {
        write: (line: string) => logged.push((JSON.parse(line) as { msg: string }).msg),
      },
      routes: (app) => {
        app.get('/test/slow', async () => {
          await slow.pass();
          return { answered: true };
        });
        // Its headers and first part go out at once, the rest once `slow` opens.
        app.get('/test/streamed', async (_request, reply) => {
          const body = new PassThrough();
          body.write('first part;');
          void slow.pass().then(() => body.end('last part'));
          return reply.type('text/plain').send(body);
        });
        app.addHook('onRequest', async (request) => {
          if (request.headers['x-hold']) await held.pass();
        });
      },
    },
  );
}

const portOf = (testApp: TestApp) => Number(new URL(testApp.config.publicUrl).port);

describe('closing the app (SIGTERM, SIGINT)', () => {
  it('lets a request in flight finish with its 200, while /readyz answers 503 and new connections are refused', async () => {
    const slow = gate();
    const held = gate();
    const logged: string[] = [];
    const testApp = await appWithSlowRoute(slow, held, logged);
    const port = portOf(testApp);
    try {
      const slowAnswer = get(port, '/test/slow');
      // Asked before the stop, answered after it began.
      const readiness = get(port, '/readyz', { 'x-hold': 'yes' });
      const idle = await Promise.all([idleConnection(port, true), idleConnection(port, false)]);
      await Promise.all([slow.waiting, held.waiting]);

      const closing = closeApp(testApp.app, 30);
      await eventually(async () => !testApp.app.server.listening, 5_000, 'the listener to close');
      expect(await refusedConnection(port)).toBe('ECONNREFUSED');
      // Kept alive after a request, or never used: closed at once.
      await Promise.all(idle.map((connection) => connection.closed));
      // The event workers stop beside the request in flight, not after it.
      await eventually(async () => logged.includes('Event workers stopped'), 5_000);

      held.open();
      expect(await readiness).toEqual({
        status: 503,
        connection: 'close',
        body: JSON.stringify({ status: 'stopping' }),
      });
      slow.open();
      // Its connection closes after the answer, so the close need not wait for its keep-alive.
      expect(await slowAnswer).toEqual({
        status: 200,
        connection: 'close',
        body: JSON.stringify({ answered: true }),
      });
      const started = Date.now();
      await closing;
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      held.open();
      slow.open();
      await testApp.close();
    }
  });

  it('closes the connection of an answer already on its way once it is sent, without waiting for its keep-alive', async () => {
    const slow = gate();
    const testApp = await appWithSlowRoute(slow, gate());
    try {
      const request = http.request({
        host: '127.0.0.1',
        port: portOf(testApp),
        path: '/test/streamed',
        agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
      });
      request.end();
      const answer = answerOf(request);
      await slow.waiting;
      // Sent before the stop began: it says keep-alive, and cannot take it back.
      const closing = closeApp(testApp.app, 30);
      await eventually(async () => !testApp.app.server.listening, 5_000, 'the listener to close');
      slow.open();
      expect(await answer).toEqual({
        status: 200,
        connection: 'keep-alive',
        body: 'first part;last part',
      });
      const started = Date.now();
      await closing;
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      slow.open();
      await testApp.close();
    }
  });

  it('closes the connections still busy once the grace is over', async () => {
    const slow = gate();
    const testApp = await appWithSlowRoute(slow, gate());
    try {
      const slowAnswer = get(portOf(testApp), '/test/slow');
      await slow.waiting;
      const cutOff = expect(slowAnswer).rejects.toThrow(/socket hang up/);
      const started = Date.now();
      await closeApp(testApp.app, 1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      await cutOff;
    } finally {
      slow.open();
      await testApp.close();
    }
  });
});

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe.each(['SIGTERM', 'SIGINT'] as const)('the console server process on %s', (signal) => {
  it('answers the request in flight, shuts down once whatever the signals, and exits 0', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        LOG_LEVEL: 'info',
        DATABASE_URL: database.connectionString,
        SHUTDOWN_GRACE_SECONDS: '20',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const messages: string[] = [];
    // Whole lines: a chunk of the pipe may end in the middle of one.
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const { msg } = JSON.parse(line) as { msg: string };
      // The request's own log line aside (http/logging.ts).
      if (msg !== 'request completed') messages.push(msg);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await eventually(async () => messages.some((m) => m.startsWith('Console ready')), 30_000);
      // A real write whose body is still on its way keeps the request in flight.
      const body = '{"slow":"body"}';
      const testEvent = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/events/test',
        headers: {
          authorization: `Bearer ${await staffTokenFor(database, publicUrl)}`,
          'content-type': 'application/json',
          'content-length': String(body.length),
        },
      });
      const answer = answerOf(testEvent);
      testEvent.write(body.slice(0, 8));
      await new Promise((resolve) => setTimeout(resolve, 200));

      child.kill(signal);
      await eventually(async () => messages.some((m) => m.startsWith('Shutting down')), 5_000);
      child.kill(signal);
      await eventually(async () => messages.includes('Shutdown already under way'), 5_000);
      testEvent.end(body.slice(8));
      const answered = await answer;
      expect(answered.status).toBe(201);
      // Written before the pool closed: the event is there.
      const { id } = JSON.parse(answered.body) as { id: number };
      expect(
        await database.db.selectFrom('events').select('event_name').where('id', '=', id).execute(),
      ).toEqual([{ event_name: 'TestEvent' }]);

      expect(await exited).toBe(0);
      expect(messages.filter((m) => m.startsWith('Shutting down'))).toHaveLength(1);
      const steps = messages.filter((m) => m !== 'Shutdown already under way');
      const shutdown = steps.slice(steps.findIndex((m) => m.startsWith('Shutting down')));
      // The background work stops beside the requests in flight, in either order.
      expect(shutdown.slice(1, 3).sort()).toEqual([
        'Event workers stopped',
        'FATF import jobs stopped',
      ]);
      expect(shutdown.slice(3)).toEqual([
        'HTTP server closed: every request in flight was answered',
        'Database pool closed',
        'Shutdown complete',
      ]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await database.close();
    }
  });
});
