import { loadConfig } from '../../config.ts';
import { openConfiguredDatabase } from '../open.ts';
import { migrateTo, migrationStatus } from '../migrator.ts';

/**
 * npm run migrate                 apply every pending migration
 * npm run migrate -- --to 3       apply pending migrations up to version 3
 * npm run migrate -- --status     list applied (with time) and pending migrations
 */
const args = process.argv.slice(2);
const config = loadConfig();
const database = await openConfiguredDatabase(config.database, { shareRunningEmbedded: true });
try {
  if (args.includes('--status')) {
    const status = await migrationStatus(database.db);
    console.log(`Database: ${database.displayName}`);
    console.log(`Current version: ${status.currentVersion}`);
    for (const m of status.applied) {
      console.log(
        `  applied  ${m.version}  ${m.className}  ${m.description}  (${m.appliedOn.toISOString()})`,
      );
    }
    for (const m of status.pending)
      console.log(`  pending  ${m.version}  ${m.className}  ${m.description}`);
  } else {
    const toIndex = args.indexOf('--to');
    const target = toIndex >= 0 ? Number(args[toIndex + 1]) : undefined;
    if (target !== undefined && !Number.isInteger(target)) {
      throw new Error('--to needs a migration version number');
    }
    const applied = await migrateTo(database.db, target);
    console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Nothing to apply');
  }
} finally {
  await database.close();
}
