import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { BackupError, restoreIntoNewCluster } from '../backup.ts';
import { fromInvocationDirectory, runCommand } from './command.ts';

/**
 * npm run restore -- FILE                  restore FILE into DATA_DIR, when it holds no cluster yet
 * npm run restore -- FILE --data-dir DIR   ... into DIR, then start the console with DATA_DIR=DIR
 *
 * Always into a new embedded cluster (DIR/postgres): never over an existing one, live or not.
 */
await runCommand(async () => {
  const { positionals, values } = parseArgs({
    options: { 'data-dir': { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) {
    throw new BackupError('Usage: npm run restore -- FILE [--data-dir DIR]');
  }
  const file = fromInvocationDirectory(positionals[0] ?? '');
  const config = loadConfig();
  if (config.database.kind !== 'embedded') {
    throw new BackupError(
      'npm run restore creates an embedded cluster: unset DATABASE_URL (to restore into a PostgreSQL server, see docs/operations.md).',
    );
  }
  const dataDir = values['data-dir']
    ? fromInvocationDirectory(values['data-dir'])
    : path.dirname(config.database.dataDir);
  const clusterDir = path.join(dataDir, 'postgres');
  const summary = await restoreIntoNewCluster(file, clusterDir);
  console.log(
    `Restored ${file} into ${clusterDir} (schema version ${summary.schemaVersion}): ${summary.tables} tables, ${summary.rows} rows`,
  );
  console.log(`Start the console on it: DATA_DIR=${dataDir} npm start`);
});
