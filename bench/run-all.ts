import { benchAuditLog } from './audit-log.ts';
import { benchBundle } from './bundle.ts';
import { benchEmailTemplates } from './email-templates.ts';
import { benchDatabaseMaintenance } from './database-maintenance.ts';
import { benchEmbeddedStart } from './embedded-start.ts';
import { benchEntityLists } from './entity-lists.ts';
import { benchEvents } from './events.ts';
import { benchExports } from './exports.ts';
import { benchForms } from './forms.ts';
import { stopBenchPostgres } from './lib.ts';
import { benchMail } from './mail.ts';
import { benchMemory } from './memory.ts';
import { benchObservability } from './observability.ts';
import { benchRatingsImport } from './ratings-import.ts';
import { benchReferenceData } from './reference-data.ts';
import { benchServerThroughput } from './server-throughput.ts';

const benchmarks: Record<string, () => Promise<void>> = {
  bundle: benchBundle,
  'embedded-start': benchEmbeddedStart,
  'server-throughput': benchServerThroughput,
  memory: benchMemory,
  'reference-data': benchReferenceData,
  'entity-lists': benchEntityLists,
  events: benchEvents,
  exports: benchExports,
  mail: benchMail,
  'ratings-import': benchRatingsImport,
  'email-templates': benchEmailTemplates,
  'database-maintenance': benchDatabaseMaintenance,
  forms: benchForms,
  observability: benchObservability,
  'audit-log': benchAuditLog,
};

// `npm run bench -- entity-lists events` runs only the named benchmarks; no names runs them all.
const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(
    `Unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(benchmarks).join(', ')}`,
  );
  process.exit(2);
}

// Every benchmark prints its measurement next to a baseline taken in the same run, and whether it
// meets its target. Databases live in one embedded PostgreSQL the bench starts (lib.ts).
try {
  for (const [name, run] of Object.entries(benchmarks)) {
    if (requested.length === 0 || requested.includes(name)) await run();
  }
} finally {
  await stopBenchPostgres();
}
