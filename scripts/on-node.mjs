#!/usr/bin/env node
// npm run test:node22 and test:node24: the server suite again under Node 22 and Node 24 (with
// the production build), the LTS lines, whatever Node runs npm, on the pinned releases of
// node-releases.mjs (from the npm registry). Plain Node, no dependencies.
//
//   node scripts/on-node.mjs 24 -- npm run test:server
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeBinDir, RELEASES } from './node-releases.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const [line, separator, command, ...args] = process.argv.slice(2);
if (!RELEASES[line] || separator !== '--' || !command) {
  console.error(
    `usage: node scripts/on-node.mjs <${Object.keys(RELEASES).join('|')}> -- <command...>`,
  );
  process.exit(2);
}

const binDir = nodeBinDir(line);
const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}` };
const version = execFileSync(path.join(binDir, 'node'), ['--version'], { env }).toString().trim();
console.log(`Running \`${[command, ...args].join(' ')}\` on Node ${version}`);
const result = spawnSync(command, args, { stdio: 'inherit', env, cwd: root });
process.exit(result.status ?? 1);
