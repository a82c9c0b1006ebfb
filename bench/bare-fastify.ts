import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';

// The baseline server of server-throughput.ts, in a process of its own like the console (in the
// bench's process it would share one CPU thread with autocannon and look slower than it is).
// Answers BARE_PATH with the bytes of the file BARE_BODY_FILE, as a Buffer: the fastest a bare
// route can send them.
const body = await readFile(process.env.BARE_BODY_FILE ?? '');
const bare = Fastify();
bare.get(process.env.BARE_PATH ?? '/', async (_request, reply) =>
  reply.type('application/json; charset=utf-8').send(body),
);
await bare.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('listening');
process.on('SIGTERM', () => void bare.close().then(() => process.exit(0)));
