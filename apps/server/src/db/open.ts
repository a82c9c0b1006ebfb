import type { DatabaseConfig } from '../config.ts';
import { openDatabase, type DatabaseHandle } from './connection.ts';
import {
  runningEmbeddedPostgres,
  startEmbeddedPostgres,
  type EmbeddedPostgresOptions,
} from './embedded-postgres.ts';

export interface OpenOptions {
  log?: EmbeddedPostgresOptions['log'];
  /**
   * Command-line tools (migrate, seed) connect to the embedded PostgreSQL that a running console
   * server started, instead of refusing because the server holds its directory.
   */
  shareRunningEmbedded?: boolean;
}

/**
 * The database the configuration names: the PostgreSQL server of DATABASE_URL, or the embedded
 * PostgreSQL, started here and stopped again by close(). Either way the same pg pool. close()
 * logs each step through `log` (the server's shutdown).
 */
export async function openConfiguredDatabase(
  config: DatabaseConfig,
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  const log = options.log ?? (() => {});
  if (config.kind === 'server') {
    return sayingPoolClosed(openDatabase(config.connectionString, config.pool), log);
  }
  if (options.shareRunningEmbedded) {
    const running = await runningEmbeddedPostgres(config.dataDir);
    if (running) return openDatabase(running, config.pool);
  }
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.port, log });
  const handle = sayingPoolClosed(openDatabase(embedded.connectionString(), config.pool), log);
  return {
    ...handle,
    displayName: `${handle.displayName} (embedded, ${config.dataDir})`,
    embedded: true,
    close: async () => {
      await handle.close();
      await embedded.stop();
    },
  };
}

function sayingPoolClosed(
  handle: DatabaseHandle,
  log: NonNullable<OpenOptions['log']>,
): DatabaseHandle {
  return {
    ...handle,
    close: async () => {
      await handle.close();
      log('info', 'Database pool closed');
    },
  };
}
