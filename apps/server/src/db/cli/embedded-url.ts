import { ConfigError, loadConfig } from '../../config.ts';
import { runningEmbeddedPostgres } from '../embedded-postgres.ts';

/**
 * npm run -s db:url     prints the connection string of the embedded PostgreSQL that a running
 *                       console server started, for psql, pg_dump and friends:
 *
 *   psql "$(npm run -s db:url)"
 *   pg_dump --format=custom --file=console.dump "$(npm run -s db:url)"
 */
try {
  const config = loadConfig();
  if (config.database.kind !== 'embedded') {
    console.error('DATABASE_URL is set: the console uses that server, not an embedded one.');
    process.exit(2);
  }
  const url = await runningEmbeddedPostgres(config.database.dataDir);
  if (!url) {
    console.error(
      `No console server is running on ${config.database.dataDir}: start it first (npm start).`,
    );
    process.exit(1);
  }
  console.log(url);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}
