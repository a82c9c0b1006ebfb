import { benchBundle } from './bundle.ts';
import { benchEmbeddedStart } from './embedded-start.ts';
import { benchEntityLists } from './entity-lists.ts';
import { benchEvents } from './events.ts';
import { stopBenchPostgres } from './lib.ts';
import { benchMail } from './mail.ts';
import { benchReferenceData } from './reference-data.ts';
import { benchServerThroughput } from './server-throughput.ts';

// Every benchmark prints its measurement next to a baseline taken in the same run, and whether it
// meets its target. Databases live in one embedded PostgreSQL the bench starts (lib.ts).
try {
  await benchBundle();
  await benchEmbeddedStart();
  await benchServerThroughput();
  await benchReferenceData();
  await benchEntityLists();
  await benchEvents();
  await benchMail();
} finally {
  await stopBenchPostgres();
}
