import pino from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type AppConfig } from './config.ts';
import { EmbeddedPostgresError } from './db/embedded-postgres.ts';
import { migrateTo, versionHoldingBack } from './db/migrator.ts';
import { openConfiguredDatabase } from './db/open.ts';
import { seedDemoData } from './db/seed/demo.ts';
import { shutDownOnSignals } from './shutdown.ts';

/** Starts the server: config, database (migrations and demo seed when due), then HTTP. */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Until Fastify's logger exists, the database logs through a pino of the same level; then
  // through Fastify's, so that the lines of the shutdown reach the log in their order.
  let databaseLog: Pick<pino.Logger, 'debug' | 'info' | 'warn' | 'error'> = pino({
    level: config.logLevel,
  });
  let database;
  try {
    database = await openConfiguredDatabase(config.database, {
      log: (level, message) => databaseLog[level](message),
    });
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (config.migrateOnStart) {
    await migrateTo(database.db, versionHoldingBack(config.migrationsHeldBack));
  }
  if (config.seedDemoData) await seedDemoData(database.db);
  const app = await buildApp({ config, database });
  databaseLog = app.log;

  shutDownOnSignals(app, database, config.shutdownGraceSeconds);

  await app.listen({ host: config.host, port: config.port });
  app.log.info(`Console ready at ${config.publicUrl}`);
}

await main();
