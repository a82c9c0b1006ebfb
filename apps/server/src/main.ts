import pino from 'pino';
import type { AppConfig } from './config.ts';
import { startTracing } from './observability/tracing.ts';

/**
 * Starts the server: tracing (when OTEL_* asks for it), config, database (migrations and demo
 * seed when due), then HTTP.
 */
async function main(): Promise<void> {
  // Tracing instruments pg, Fastify and HTTP as Node loads them: the rest of the server is
  // imported after it started (docs/operations.md, "Traces").
  const tracing = await startTracing();
  const { ConfigError, loadConfig } = await import('./config.ts');
  const { buildApp } = await import('./app.ts');
  const { EmbeddedPostgresError } = await import('./db/embedded-postgres.ts');
  const { migrateTo, versionHoldingBack } = await import('./db/migrator.ts');
  const { openConfiguredDatabase } = await import('./db/open.ts');
  const { seedDemoData } = await import('./db/seed/demo.ts');
  const { shutDownOnSignals } = await import('./shutdown.ts');

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
  // One synchronous standard output for every line, the database's and Fastify's: pino's default
  // writes in the background and flushes at exit what was not yet handed over, so a line still
  // being written when the process exits came out after the later ones, or not at all (the last
  // lines of a shutdown). Written in turn to one stream, the lines keep their order.
  const logStream = pino.destination({ dest: 1, sync: true });
  const databaseLog = pino({ level: config.logLevel }, logStream);
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
  const app = await buildApp({ config, database, logStream });
  // Where the database lives is the operator's to read here, never in an answer to a browser.
  app.log.info(`Database: ${database.displayName}`);

  shutDownOnSignals(app, database, config.shutdownGraceSeconds, tracing);

  await app.listen({ host: config.host, port: config.port });
  app.log.info(`Console ready at ${config.publicUrl}`);
}

await main();
