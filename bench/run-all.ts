import { benchBundle } from './bundle.ts';
import { benchEntityLists } from './entity-lists.ts';
import { benchEvents } from './events.ts';
import { benchMail } from './mail.ts';
import { benchReferenceData } from './reference-data.ts';
import { benchServerThroughput } from './server-throughput.ts';

// Every benchmark prints its measurement next to a baseline taken in the same run.
await benchBundle();
await benchServerThroughput();
await benchReferenceData();
await benchEntityLists();
await benchEvents();
await benchMail();
