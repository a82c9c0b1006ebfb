// The baseline of the memory bench: plain Node (no TypeScript loader, no framework), answering
// BARE_PATH with the bytes of the file BARE_BODY_FILE. The least a Node server serving the same
// bytes holds in memory.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BARE_BODY_FILE ?? '');
const server = createServer((request, response) => {
  if (request.url !== process.env.BARE_PATH) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  });
  response.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
