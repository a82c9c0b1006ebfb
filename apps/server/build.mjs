// Compiles the server to JavaScript for `npm start` and production: one ES module bundle per
// entry point in dist/, with our workspace code (server and contracts) inlined and every npm
// package left to node_modules. tsx stays for development (`npm run dev`) and the tests.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const { dependencies } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url)));
const workspacePackages = new Set(['@console/contracts']);

await build({
  absWorkingDir: new URL('.', import.meta.url).pathname,
  entryPoints: {
    main: 'src/main.ts',
    migrate: 'src/db/cli/migrate.ts',
    seed: 'src/db/cli/seed.ts',
    'embedded-url': 'src/db/cli/embedded-url.ts',
    backup: 'src/db/cli/backup.ts',
    restore: 'src/db/cli/restore.ts',
    'rotate-signing-key': 'src/auth/cli/rotate-signing-key.ts',
  },
  outdir: 'dist',
  bundle: true,
  // Modules main.ts imports dynamically stay in chunks of their own, so that their npm packages
  // load when it imports them: after tracing started (it instruments pg, Fastify and HTTP as they
  // load), and the OpenTelemetry SDK not at all while tracing is off. One bundle would import
  // every package at its top, before any code runs.
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // dist/*.js sits as deep as src/*.ts, so paths built from import.meta.url (the data directory,
  // the built SPA) resolve the same from both.
  external: Object.keys(dependencies).filter((name) => !workspacePackages.has(name)),
  // For stack traces in terms of src/ when started with NODE_OPTIONS=--enable-source-maps (not by
  // default: reading the maps adds about 0.3 s to every start); never served.
  sourcemap: true,
  logLevel: 'warning',
});
