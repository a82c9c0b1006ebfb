import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

const RETRY_MS = 5_000;

export interface NotificationListener {
  close(): Promise<void>;
}

/**
 * LISTEN on `channel` over a connection of its own (a pooled connection would lose it), calling
 * `onNotify` with each payload; reconnects every 5 s until closed. `onConnected` runs after each
 * (re)connection: whatever was notified while the connection was away is lost, so the caller
 * catches up there.
 */
export function listenForNotifications(options: {
  connectionString: string;
  channel: string;
  logger: FastifyBaseLogger;
  onNotify(payload: string): void;
  onConnected(): void;
}): NotificationListener {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  // The connection attempt under way: close() waits for it, lest it outlive the close.
  let connecting: Promise<void> = Promise.resolve();

  const scheduleRetry = () => {
    if (closed || retry) return;
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      connecting = connect();
    }, RETRY_MS);
    retry.unref();
  };

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: options.connectionString });
    next.on('notification', (message) => options.onNotify(message.payload ?? ''));
    next.on('error', (error) => {
      options.logger.warn({ err: error, channel: options.channel }, 'Notification listener failed');
      void next.end().catch(() => undefined);
      scheduleRetry();
    });
    next.on('end', scheduleRetry);
    try {
      await next.connect();
      await next.query(`listen ${options.channel}`);
      if (closed) {
        await next.end();
        return;
      }
      client = next;
      options.onConnected();
    } catch (error) {
      options.logger.warn({ err: error, channel: options.channel }, 'Could not listen');
      await next.end().catch(() => undefined);
      scheduleRetry();
    }
  };

  connecting = connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await connecting;
      await client?.end().catch(() => undefined);
    },
  };
}
