import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { BackupError, writeBackup } from '../backup.ts';
import { openConfiguredDatabase } from '../open.ts';
import { fromInvocationDirectory, runCommand } from './command.ts';

/**
 * npm run backup -- FILE            a backup of the console's database in FILE (docs/operations.md)
 * npm run backup -- FILE --force    ... replacing FILE
 *
 * Uses DATABASE_URL, or the embedded PostgreSQL in DATA_DIR like the server: the one a running
 * server started (the backup is one snapshot, the console keeps running), or one started for the
 * time of the command.
 */
await runCommand(async () => {
  const { positionals, values } = parseArgs({
    options: { force: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new BackupError('Usage: npm run backup -- FILE [--force]');
  const file = fromInvocationDirectory(positionals[0] ?? '');
  const config = loadConfig();
  const database = await openConfiguredDatabase(config.database, { shareRunningEmbedded: true });
  try {
    const summary = await writeBackup(database.connectionString, file, {
      overwrite: values.force,
    });
    const { size } = await stat(file);
    console.log(
      `Backup of ${database.displayName} (schema version ${summary.schemaVersion}): ${summary.tables} tables, ${summary.rows} rows in ${file} (${Math.ceil(size / 1024)} kB)`,
    );
  } finally {
    await database.close();
  }
});
