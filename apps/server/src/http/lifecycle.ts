import type { Socket } from 'node:net';
import type { ConsoleApp } from './console-app.ts';

/**
 * The app's part of a graceful stop (docs/operations.md, "Stopping the console"). `app.close()`
 * (Fastify) closes the listener and the idle connections and waits for the requests in flight;
 * from its first moment on, besides:
 *
 * - connections that have not sent a request yet are closed;
 * - `/readyz` answers 503 (`stopping`), so a load balancer that still asks sends nothing more;
 * - every answer closes its connection: a kept-alive connection would otherwise stay open, idle,
 *   until its keep-alive timeout, holding the close up for nothing;
 * - an answer already on its way (its headers said keep-alive) gets its connection closed once it
 *   is sent: Node closes only the connections idle when the close begins;
 * - the background work (`runInBackground`) begins to stop beside the requests in flight, so that
 *   its claims reach another instance at once, not once the last request has been answered.
 */
export interface Lifecycle {
  /** True from the moment the app begins to close. */
  readonly stopping: boolean;
}

/** How often, while closing, the connections that went idle since are closed. */
const IDLE_SWEEP_MS = 50;

export function registerLifecycle(app: ConsoleApp): Lifecycle {
  const lifecycle = { stopping: false };
  // Node closes the idle kept-alive connections when the listener closes, but not those that
  // have sent nothing yet (a browser's preconnection): it waits for their first request.
  const connections = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  let idleSweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    lifecycle.stopping = true;
    for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
    // Polled rather than hooked on every answer's end, which would cost every request.
    idleSweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    idleSweep.unref();
  });
  app.addHook('onClose', async () => clearInterval(idleSweep));
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.stopping) reply.header('connection', 'close');
    done(null, payload);
  });
  return lifecycle;
}

/** Work an instance does besides answering requests: event workers, import jobs. */
export interface BackgroundWork {
  start(): void;
  /** Hands the work in hand over; called more than once, it answers the same promise. */
  stop(): Promise<void>;
}

/**
 * Starts `work` when the app is ready; begins to stop it as soon as the app begins to close (not
 * awaited there: the listener closes meanwhile), and the close waits for it.
 */
export function runInBackground(app: ConsoleApp, work: BackgroundWork): void {
  app.addHook('onReady', async () => work.start());
  app.addHook('preClose', async () => {
    // The onClose hook below awaits the same promise and reports its failure.
    work.stop().catch(() => undefined);
  });
  app.addHook('onClose', async () => work.stop());
}
