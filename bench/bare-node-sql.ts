import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { replay } from './lib.ts';

// A baseline server of server-throughput.ts: plain Node (node:http, no framework, no sign-in)
// answering BARE_PATH as a hand-written server would: the console's own statements of the page
// (recorded, BARE_STATEMENTS_FILE) through a pg pool of the console's size on BARE_DATABASE_URL,
// then the page's bytes (BARE_BODY_FILE). What the console adds to that is its framework, its
// checks and its token verification.
const body = await readFile(process.env.BARE_BODY_FILE ?? '');
const statements = JSON.parse(
  await readFile(process.env.BARE_STATEMENTS_FILE ?? '', 'utf8'),
) as CompiledQuery[];
const pool = new pg.Pool({ connectionString: process.env.BARE_DATABASE_URL, max: 20 });
const server = createServer((request, response) => {
  if (request.url !== process.env.BARE_PATH) {
    response.writeHead(404).end();
    return;
  }
  replay(pool, statements).then(
    () =>
      response
        .writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': body.length,
        })
        .end(body),
    () => response.writeHead(500).end(),
  );
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
