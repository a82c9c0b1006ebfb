import pino from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type AppConfig } from './config.ts';
import { EmbeddedPostgresError } from './db/embedded-postgres.ts';
import { migrateTo, versionHoldingBack } from './db/migrator.ts';
import { openConfiguredDatabase } from './db/open.ts';
import { seedDemoData } from './db/seed/demo.ts';

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
  // Until Fastify's logger exists, the database start-up logs through a pino of the same level.
  const startupLog = pino({ level: config.logLevel });
  let database;
  try {
    database = await openConfiguredDatabase(config.database, {
      log: (level, message) => startupLog[level](message),
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

  // `tsx watch` forwards the terminal's signal again: shut down once, whatever arrives after.
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info({ signal }, 'Shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(`Console ready at ${config.publicUrl}`);
}

await main();
