import { ConfigError, loadConfig } from '../../config.ts';
import { openConfiguredDatabase } from '../open.ts';
import { migrateTo } from '../migrator.ts';
import { seedDemoData, type SeedSummary } from '../seed/demo.ts';
import { seedScale, type ScaleProgress } from '../seed/scale.ts';

/**
 * npm run seed                          migrate, then insert the demo data that is missing
 * npm run seed -- --scale 100000        ... and 100,000 load-test entities, users and events
 * npm run seed -- --scale 1e6 --batch 20000
 *
 * Uses DATABASE_URL, or the embedded PostgreSQL in DATA_DIR like the server: the one a running
 * server started, or one started for the time of the command.
 */
const args = process.argv.slice(2);

class UsageError extends Error {}

function numberArg(name: string): number | undefined {
  const inline = args.find((arg) => arg.startsWith(`--${name}=`));
  const index = args.indexOf(`--${name}`);
  const raw = inline ? inline.slice(name.length + 3) : index >= 0 ? args[index + 1] : undefined;
  if (raw === undefined) {
    if (index >= 0) throw new UsageError(`--${name} needs a number`);
    return undefined;
  }
  const value = Number(raw.replace(/[_,]/g, ''));
  if (!Number.isInteger(value) || value < 0) {
    throw new UsageError(`--${name} needs a whole number, got '${raw}'`);
  }
  return value;
}

let scale: number | undefined;
let batchSize: number | undefined;
let config: ReturnType<typeof loadConfig>;
try {
  scale = numberArg('scale');
  batchSize = numberArg('batch');
  config = loadConfig();
} catch (error) {
  if (!(error instanceof UsageError || error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const database = await openConfiguredDatabase(config.database, { shareRunningEmbedded: true });
const format = (value: number) => value.toLocaleString('en-US');
const rate = (rows: number, ms: number) =>
  ms > 0 ? `${format(Math.round((rows * 1000) / ms))} rows/s` : 'n/a';

try {
  console.log(`Database: ${database.displayName}`);
  const applied = await migrateTo(database.db);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Schema up to date');

  const demoStarted = performance.now();
  const demo = await seedDemoData(database.db);
  const demoMs = performance.now() - demoStarted;
  const demoRows = Object.values(demo).reduce((sum, count) => sum + count, 0);
  console.log(
    `Demo data: ${format(demoRows)} rows inserted in ${Math.round(demoMs)} ms (${rate(demoRows, demoMs)})`,
  );
  for (const [table, count] of Object.entries(demo) as [keyof SeedSummary, number][]) {
    console.log(`  ${table.padEnd(17)} ${format(count)}`);
  }
  if (demoRows === 0) console.log('  (everything was already there)');

  if (scale !== undefined) {
    console.log(`Load-test data: ${format(scale)} entities, entity users and events`);
    const summary = await seedScale(database.db, scale, {
      ...(batchSize ? { batchSize } : {}),
      onProgress: ({ table, done, total }: ScaleProgress) => {
        console.log(`  ${table.padEnd(13)} ${format(done)} / ${format(total)}`);
      },
    });
    console.log(
      `  inserted ${format(summary.entities)} entities, ${format(summary.entityUsers)} entity users, ` +
        `${format(summary.events)} events, ${format(summary.processedEvents)} processing rows`,
    );
    console.log(
      `  ${format(summary.rows)} rows in ${(summary.milliseconds / 1000).toFixed(1)} s (${rate(summary.rows, summary.milliseconds)})`,
    );
    if (summary.rows === 0) console.log('  (everything was already there)');
  }
} finally {
  await database.close();
}
