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
 * PostgreSQL, started here and stopped again by close(). Either way the same pg pool.
 */
export async function openConfiguredDatabase(
  config: DatabaseConfig,
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  if (config.kind === 'server') return openDatabase(config.connectionString, config.pool);
  if (options.shareRunningEmbedded) {
    const running = await runningEmbeddedPostgres(config.dataDir);
    if (running) return openDatabase(running, config.pool);
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.port,
    ...(options.log ? { log: options.log } : {}),
  });
  const handle = openDatabase(embedded.connectionString(), config.pool, () => embedded.stop());
  return { ...handle, displayName: `${handle.displayName} (embedded, ${config.dataDir})` };
}
