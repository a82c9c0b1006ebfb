import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';

/**
 * A console-like process that starts the embedded PostgreSQL in argv[2], writes its connection
 * string on stdout and holds it until SIGTERM (embedded-postgres.test.ts kills it to crash).
 */
const embedded = await startEmbeddedPostgres({ dataDir: process.argv[2] ?? '', port: 0 });
process.stdout.write(`${embedded.connectionString()}\n`);
process.on('SIGTERM', () => {
  void embedded.stop().then(() => process.exit(0));
});
setInterval(() => {}, 60_000);
